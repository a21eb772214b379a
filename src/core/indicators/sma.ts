/**
 * Simple moving average: the mean of the last `period` inputs; first output at the period-th input.
 * Incremental with a running sum; the sum is recomputed from the window once per `period` updates
 * (O(1) amortised) so the float error of add-then-subtract cannot build up over a year of 1-minute
 * bars. Pure.
 */
import { checkPeriod, runSeries, SteppedIndicator } from './indicator.ts';
import { NumberWindow } from './window.ts';

/** step's one-value array (single-threaded: filled and read within one call). */
const ONE = new Float64Array(1);

export class Sma extends SteppedIndicator {
  private readonly window: NumberWindow;
  private total = 0;
  private sinceResum = 0;
  /** The value after the last update, NaN until ready: a field that only ever holds numbers is updated in place, no boxed number per update. */
  out = NaN;

  constructor(readonly period: number) {
    super();
    this.window = new NumberWindow(checkPeriod('sma', period));
  }

  /** `update` answering NaN while warming up: a number either way. */
  step(input: number): number {
    ONE[0] = input;
    this.stepAt(ONE, 0);
    return this.out;
  }

  /**
   * `step(values[i])`, the result left in `out`: the bar series' hot path, where only an array and
   * an index cross the call (a double passed to a call that is not inlined is a heap number).
   */
  stepAt(values: Float64Array, i: number): void {
    const w = this.window;
    w.shiftAt(values, i);
    this.total += (values[i] as number) - w.out;
    if (++this.sinceResum >= this.period) {
      this.total = w.sum();
      this.sinceResum = 0;
    }
    this.out = w.full ? this.total / this.period : NaN;
  }

  reset(): void {
    this.window.clear();
    this.total = 0;
    this.sinceResum = 0;
    this.out = NaN;
  }
}

/** SMA over a whole array: one value per input, undefined for the first period-1. */
export function sma(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Sma(period), values);
}
