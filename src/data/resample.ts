/**
 * Bars of a longer interval made from a shorter one's (1m klines into 5m, 1h or 1d), so a journal
 * that holds 1-minute klines can be backtested on any interval they tile. Each period (spec 2.1
 * alignment, core/market/intervals.ts: epoch-aligned minutes, hours and days, Monday weeks,
 * calendar months) takes the first bar's open, the highest high, the lowest low, the last bar's
 * close and the exact sum of the volumes, with the exact texts of each (a high or low keeps the
 * text of the bar it came from; the volume is summed on exact decimals, core/money/exact40.ts).
 * Its close time is the period's, whatever bars it holds: a period with source bars missing in
 * the middle of the source (a gap in a journal) is made of those there are, as the venue makes a
 * kline of the trades there were, and a period with none makes no bar.
 *
 * The periods at the two ends of the source are different: there a short period is not a gap
 * but the source starting or ending inside it (a 1-minute journal ending at 16:39 holds only 40
 * minutes of the 16:00 hour, which went on after it). Handed out, it would be a
 * closed bar that is not the period's: an open that is not the period's open, a close that is not
 * its close, a close time the data never reached. So the first period is left out when its first
 * source bar does not open at the period's open (`startsPeriod`), and the last when its last
 * source bar closes before the period's close (`endsPeriod`); journal-series.ts counts and bounds
 * a backtest's bars by the same two tests. With `detail`, each bar also carries copies of the
 * source bars it was made from (`DetailedCandle`), for a backtest that plays its fills on them
 * (run-backtest.ts).
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

/** Whether the first period of `interval` of a source whose first bar opens at `firstOpen` is whole at its start: the bar opens at the period's open. */
export function startsPeriod(interval: KlineInterval, firstOpen: number): boolean {
  return periodOpen(interval, firstOpen) === firstOpen;
}

/** Whether the last period of `interval` of a source whose last bar is `last` is whole at its end: the bar closes at the period's close (or later). */
export function endsPeriod(interval: KlineInterval, last: { readonly openTime: number; readonly closeTime: number }): boolean {
  return last.closeTime >= periodClose(interval, periodOpen(interval, last.openTime));
}

/** A bar with the shorter bars it was made from, oldest first. */
export interface DetailedCandle extends Candle {
  readonly detail: readonly Candle[];
}

/**
 * The bars of `source` (oldest first, of an interval that `canResample` into `interval`) as bars
 * of `interval`, without a partial period at either end (the first one when the source starts
 * inside it, the last one when the source ends inside it); with `detail`, each carrying copies of
 * its source bars.
 */
export function resampleBars(source: Iterable<Candle>, interval: KlineInterval): Generator<Candle>;
export function resampleBars(source: Iterable<Candle>, interval: KlineInterval, options: { detail: true }): Generator<DetailedCandle>;
export function* resampleBars(source: Iterable<Candle>, interval: KlineInterval, options?: { detail?: boolean }): Generator<Candle> {
  // The stream hands each period out once complete; what is still open when the source ends
  // (the last period, when its last bar does not reach the period's close) is never handed out.
  const stream = new PeriodStream(interval, options?.detail === true);
  const out: Candle[] = [];
  for (const c of source) {
    stream.push(c, out);
    if (out.length === 0) continue;
    for (let i = 0; i < out.length; i++) yield out[i] as Candle;
    out.length = 0;
  }
}

/**
 * The periods of a source, one source bar at a time (what `resampleBars` iterates), for a consumer
 * that must hand each period out as soon as it is complete (a backtest feeding a strategy the
 * longer bars it declared beside the run's): a period is complete when the bar that reaches its
 * close arrives, or, when the source lacks the bars at its end (a gap), when a later period's
 * first bar does. The first period is left out when the source starts inside it, and the last
 * one, still open when the source ends, is never handed out.
 */
export class PeriodStream {
  private period: Period | undefined;
  /** Whether the period being filled is whole at its start (only the source's first one may not be). */
  private whole = true;
  private first = true;

  constructor(
    readonly interval: KlineInterval,
    /** Each period also carries copies of its source bars (DetailedCandle). */
    private readonly detail = false,
  ) {}

  /** Take the next source bar (opening after the last one); the periods it completes, oldest first, are pushed onto `out`. */
  push(c: Candle, out: Candle[]): void {
    const open = periodOpen(this.interval, c.openTime);
    let period = this.period;
    if (period !== undefined && period.openTime !== open) {
      // A later period's bar: the one being filled ended with bars missing.
      if (this.whole) out.push(period.candle());
      period = undefined;
      this.whole = true;
    }
    if (period === undefined) {
      if (this.first) this.whole = startsPeriod(this.interval, c.openTime);
      this.first = false;
      period = new Period(open, periodClose(this.interval, open), c, this.detail);
    } else period.add(c);
    if (c.closeTime >= period.closeTime) {
      if (this.whole) out.push(period.candle());
      period = undefined;
      this.whole = true;
    }
    this.period = period;
  }
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
    readonly closeTime: number,
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
