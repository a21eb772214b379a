/**
 * Exponential moving average with alpha = 2 / (period + 1), seeded with the SMA of the first
 * `period` inputs (the TA-Lib convention), so the first output is at the period-th input and equals
 * that SMA. Pure.
 */
import type { Indicator } from './indicator.ts';
import { checkPeriod, runSeries } from './indicator.ts';

export class Ema implements Indicator {
  readonly alpha: number;
  private seen = 0;
  private seedSum = 0;
  private current: number | undefined;
  /** The value after the last update, NaN while warming up (bar-series.ts reads it after `stepAt`). */
  out = NaN;

  constructor(readonly period: number) {
    checkPeriod('ema', period);
    this.alpha = 2 / (period + 1);
  }

  update(input: number): number | undefined {
    if (this.current !== undefined) {
      this.current += this.alpha * (input - this.current);
    } else {
      this.seedSum += input;
      if (++this.seen === this.period) this.current = this.seedSum / this.period;
    }
    this.out = this.current ?? NaN;
    return this.current;
  }

  /** `update` answering NaN while warming up (a number either way). */
  step(input: number): number {
    const v = this.update(input);
    return v === undefined ? NaN : v;
  }

  /** `step(values[i])`, the result left in `out` (the bar series' path: an array and an index cross the call). */
  stepAt(values: Float64Array, i: number): void {
    this.step(values[i] as number);
  }

  get value(): number | undefined {
    return this.current;
  }

  get ready(): boolean {
    return this.current !== undefined;
  }

  reset(): void {
    this.out = NaN;
    this.seen = 0;
    this.seedSum = 0;
    this.current = undefined;
  }
}

/** EMA over a whole array: one value per input, undefined for the first period-1. */
export function ema(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Ema(period), values);
}
