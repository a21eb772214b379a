/**
 * Average true range, Wilder's smoothing. True range = max(high - low, |high - prevClose|,
 * |low - prevClose|); the first bar has no previous close, so its true range is high - low. The
 * first ATR is the mean of the first `period` true ranges (output at the period-th bar), then
 * atr = (atr * (period - 1) + tr) / period. Pure.
 */
import type { Hlc } from './candle.ts';
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';

export function trueRange(bar: Hlc, prevClose: number | undefined): number {
  const range = bar.high - bar.low;
  if (prevClose === undefined) return range;
  return Math.max(range, Math.abs(bar.high - prevClose), Math.abs(bar.low - prevClose));
}

export class Atr extends BaseIndicator<Hlc> {
  private prevClose: number | undefined;
  private seen = 0;
  private seedSum = 0;

  constructor(readonly period: number) {
    super();
    checkPeriod('atr', period);
  }

  update(bar: Hlc): number | undefined {
    const tr = trueRange(bar, this.prevClose);
    this.prevClose = bar.close;
    if (this.current !== undefined) {
      this.current = (this.current * (this.period - 1) + tr) / this.period;
      return this.current;
    }
    this.seedSum += tr;
    if (++this.seen === this.period) this.current = this.seedSum / this.period;
    return this.current;
  }

  protected restart(): void {
    this.prevClose = undefined;
    this.seen = 0;
    this.seedSum = 0;
  }
}

/** ATR over whole bars: one value per bar, undefined for the first period-1. */
export function atr(bars: readonly Hlc[], period = 14): (number | undefined)[] {
  return runSeries(new Atr(period), bars);
}
