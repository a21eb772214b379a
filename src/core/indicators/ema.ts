/**
 * Exponential moving average with alpha = 2 / (period + 1), seeded with the SMA of the first
 * `period` inputs (the TA-Lib convention), so the first output is at the period-th input and equals
 * that SMA. Pure.
 */
import { checkPeriod, runSeries, SteppedIndicator } from './indicator.ts';

export class Ema extends SteppedIndicator {
  readonly alpha: number;
  private seen = 0;
  private seedSum = 0;
  /**
   * The value after the last update, NaN while warming up (bar-series.ts reads it after `stepAt`).
   * NaN rather than undefined: a field that only ever holds numbers is updated in place, no heap
   * number per update.
   */
  out = NaN;

  constructor(readonly period: number) {
    super();
    checkPeriod('ema', period);
    this.alpha = 2 / (period + 1);
  }

  /** `update` answering NaN while warming up (a number either way). */
  step(input: number): number {
    const c = this.out;
    if (c === c) return (this.out = c + this.alpha * (input - c));
    this.seedSum += input;
    if (++this.seen === this.period) this.out = this.seedSum / this.period;
    return this.out;
  }

  /** `step(values[i])`, the result left in `out` (the bar series' path: an array and an index cross the call). */
  stepAt(values: Float64Array, i: number): void {
    this.step(values[i] as number);
  }

  reset(): void {
    this.out = NaN;
    this.seen = 0;
    this.seedSum = 0;
  }
}

/** EMA over a whole array: one value per input, undefined for the first period-1. */
export function ema(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Ema(period), values);
}
