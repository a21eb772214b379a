/**
 * Bars of a longer interval made from a shorter one's (1m klines into 5m, 1h or 1d), so a journal
 * that holds 1-minute klines can be backtested on any interval they tile. Each period (spec 2.1
 * alignment, core/market/intervals.ts: epoch-aligned minutes, hours and days, Monday weeks,
 * calendar months) takes the first bar's open, the highest high, the lowest low, the last bar's
 * close and the exact sum of the volumes, with the exact texts of each (a high or low keeps the
 * text of the bar it came from; the volume is summed on exact decimals, core/money/exact40.ts).
 * Its close time is the period's, whatever bars it holds: a period with missing source bars is
 * made of those there are, as the venue makes a kline of the trades there were.
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

/** The bars of `source` (oldest first, of an interval that `canResample` into `interval`) as bars of `interval`. */
export function* resampleBars(source: Iterable<Candle>, interval: KlineInterval): Generator<Candle> {
  let period: Period | undefined;
  for (const c of source) {
    const open = periodOpen(interval, c.openTime);
    if (period !== undefined && period.openTime !== open) {
      yield period.candle();
      period = undefined;
    }
    if (period === undefined) period = new Period(open, periodClose(interval, open), c);
    else period.add(c);
  }
  if (period !== undefined) yield period.candle();
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

  constructor(
    readonly openTime: number,
    private readonly closeTime: number,
    first: Candle,
  ) {
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
    return { openTime: this.openTime, closeTime: this.closeTime, open: this.openNum, high: this.highNum, low: this.lowNum, close: this.closeNum, volume: Number(volumeText), exact };
  }
}
