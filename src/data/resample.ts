/**
 * Bars of a longer interval made from a shorter one's (1m klines into 5m, 1h or 1d), so a journal
 * that holds 1-minute klines can be backtested on any interval they tile. Each period (spec 2.1
 * alignment, core/market/intervals.ts: epoch-aligned minutes, hours and days, Monday weeks,
 * calendar months) takes the first bar's open, the highest high, the lowest low, the last bar's
 * close and the exact sum of the volumes, with the exact texts of each (a high or low keeps the
 * text of the bar it came from; the volume is summed on exact decimals, core/money/exact40.ts).
 * Its close time is the period's, whatever bars it holds: a period with missing source bars is
 * made of those there are, as the venue makes a kline of the trades there were. With `detail`,
 * each bar also carries copies of the source bars it was made from (`DetailedCandle`), for a
 * backtest that plays its fills on them (run-backtest.ts).
 */
import type { Candle, CandleText } from '../core/indicators/candle.ts';
import { intervalMs, periodClose, periodOpen } from '../core/market/intervals.ts';
import type { KlineInterval } from '../core/market/intervals.ts';
import { X40 } from '../core/money/exact40.ts';

const DAY = 86_400_000;

/**
 * Whether every period of `to` is tiled by whole periods of `from`: a shorter fixed interval that
 * divides it (and, for weeks and months, divides a day, so the periods start on day boundaries).
 */
export function canResample(from: KlineInterval, to: KlineInterval): boolean {
  const f = intervalMs(from);
  if (f === undefined || from === to) return false;
  if (to === '1M' || to === '1w') return f <= DAY && DAY % f === 0;
  const t = intervalMs(to) as number;
  return f < t && t % f === 0;
}

/** A bar with the shorter bars it was made from, oldest first. */
export interface DetailedCandle extends Candle {
  readonly detail: readonly Candle[];
}

/**
 * The bars of `source` (oldest first, of an interval that `canResample` into `interval`) as bars
 * of `interval`; with `detail`, each carrying copies of its source bars.
 */
export function resampleBars(source: Iterable<Candle>, interval: KlineInterval): Generator<Candle>;
export function resampleBars(source: Iterable<Candle>, interval: KlineInterval, options: { detail: true }): Generator<DetailedCandle>;
export function* resampleBars(source: Iterable<Candle>, interval: KlineInterval, options?: { detail?: boolean }): Generator<Candle> {
  const detail = options?.detail === true;
  let period: Period | undefined;
  for (const c of source) {
    const open = periodOpen(interval, c.openTime);
    if (period !== undefined && period.openTime !== open) {
      yield period.candle();
      period = undefined;
    }
    if (period === undefined) period = new Period(open, periodClose(interval, open), c, detail);
    else period.add(c);
  }
  if (period !== undefined) yield period.candle();
}

/** A copy of a candle that outlives it (the source may reuse one object). */
function copyCandle(c: Candle): Candle {
  const x = c.exact;
  return { openTime: c.openTime, closeTime: c.closeTime, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume, exact: { open: x.open, high: x.high, low: x.low, close: x.close, volume: x.volume } };
}

/** One period being filled: the values and texts taken so far (the source's candle may be reused: copied). */
class Period {
  private readonly openNum: number;
  private readonly openText: string;
  private highNum: number;
  private highText: string;
  private lowNum: number;
  private lowText: string;
  private closeNum: number;
  private closeText: string;
  private volume: X40;
  private readonly detail: Candle[] | undefined;

  constructor(
    readonly openTime: number,
    private readonly closeTime: number,
    first: Candle,
    detail: boolean,
  ) {
    this.detail = detail ? [copyCandle(first)] : undefined;
    const x = first.exact;
    this.openNum = first.open;
    this.openText = x.open;
    this.highNum = first.high;
    this.highText = x.high;
    this.lowNum = first.low;
    this.lowText = x.low;
    this.closeNum = first.close;
    this.closeText = x.close;
    this.volume = X40.parseOnce(x.volume);
  }

  add(c: Candle): void {
    if (this.detail !== undefined) this.detail.push(copyCandle(c));
    const x = c.exact;
    if (c.high > this.highNum) {
      this.highNum = c.high;
      this.highText = x.high;
    }
    if (c.low < this.lowNum) {
      this.lowNum = c.low;
      this.lowText = x.low;
    }
    this.closeNum = c.close;
    this.closeText = x.close;
    this.volume = this.volume.plus(X40.parseOnce(x.volume));
  }

  candle(): Candle {
    const volumeText = this.volume.toString();
    const exact: CandleText = { open: this.openText, high: this.highText, low: this.lowText, close: this.closeText, volume: volumeText };
    const c: Candle = { openTime: this.openTime, closeTime: this.closeTime, open: this.openNum, high: this.highNum, low: this.lowNum, close: this.closeNum, volume: Number(volumeText), exact };
    if (this.detail === undefined) return c;
    const d: DetailedCandle = { ...c, detail: this.detail };
    return d;
  }
}
