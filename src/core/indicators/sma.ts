/**
 * Simple moving average: the mean of the last `period` inputs; first output at the period-th input.
 * Incremental with a running sum; the sum is recomputed from the window once per `period` updates
 * (O(1) amortised) so the float error of add-then-subtract cannot build up over a year of 1-minute
 * bars. Pure.
 */
import type { Indicator } from './indicator.ts';
import { checkPeriod, runSeries } from './indicator.ts';
import { NumberWindow } from './window.ts';

export class Sma implements Indicator {
  private readonly window: NumberWindow;
  private total = 0;
  private sinceResum = 0;
  /** NaN until ready: a field that only ever holds numbers is updated in place, no boxed number per update. */
  private current = NaN;

  constructor(readonly period: number) {
    this.window = new NumberWindow(checkPeriod('sma', period));
  }

  update(input: number): number | undefined {
    const v = this.step(input);
    return v === v ? v : undefined;
  }

  /** `update` answering NaN while warming up: a number either way (no boxed value per bar in a hot loop). */
  step(input: number): number {
    const w = this.window;
    w.shift(input);
    this.total += input - w.out;
    if (++this.sinceResum >= this.period) {
      this.total = w.sum();
      this.sinceResum = 0;
    }
    return (this.current = w.full ? this.total / this.period : NaN);
  }

  get value(): number | undefined {
    const v = this.current;
    return v === v ? v : undefined;
  }

  get ready(): boolean {
    return this.current === this.current;
  }

  reset(): void {
    this.window.clear();
    this.total = 0;
    this.sinceResum = 0;
    this.current = NaN;
  }
}

/** SMA over a whole array: one value per input, undefined for the first period-1. */
export function sma(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Sma(period), values);
}
