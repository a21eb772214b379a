/**
 * Rolling standard deviation of the last `period` inputs, the population one (divide by period),
 * as Bollinger uses and as TA-Lib's STDDEV and BBANDS compute it (pandas' `.std()` is the sample
 * one, divided by period - 1: it is larger by sqrt(period / (period - 1))). First output at the
 * period-th input; a flat window gives 0.
 *
 * O(1) a bar: the window's mean and sum of squared deviations are moved together when a value
 * replaces the oldest (Welford's update for a sliding window), which works on deviations from the
 * mean, not on sums of squares, so it keeps its precision at prices near 1e6 with small moves. The
 * sum of squares is recomputed from the window (two passes) once per `period` updates, O(1)
 * amortised, so rounding cannot build up over a long run, and when it falls 1e4-fold in one bar,
 * so a quiet window after a spike reads its own deviation (0 when flat), not the rounding residue
 * of the spike's. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { NumberWindow } from './window.ts';

export class StdDev extends BaseIndicator {
  private readonly window: NumberWindow;
  private mean = 0;
  /** Sum of squared deviations from `mean` of the values in the window. */
  private m2 = 0;
  private sinceResum = 0;

  constructor(readonly period = 20) {
    super();
    this.window = new NumberWindow(checkPeriod('stddev', period));
  }

  update(input: number): number | undefined {
    const w = this.window;
    const n = this.period;
    if (!w.full) {
      w.push(input);
      if (!w.full) return undefined;
      this.resum();
    } else {
      const old = w.push(input) as number;
      const before = this.m2;
      const mean = this.mean + (input - old) / n;
      this.m2 += (input - old) * (input - mean + old - this.mean);
      this.mean = mean;
      // A sum that fell 1e4-fold in one move (a spike left a quiet window) is mostly cancellation
      // residue, which the square root would magnify: recount it.
      if (++this.sinceResum >= n || this.m2 < before * 1e-4) this.resum();
    }
    this.current = Math.sqrt(this.m2 > 0 ? this.m2 / n : 0);
    return this.current;
  }

  /** Mean and squared deviations from the window itself (two passes). */
  private resum(): void {
    const w = this.window;
    const n = this.period;
    const mean = w.sum() / n;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      const d = w.get(i) - mean;
      squares += d * d;
    }
    this.mean = mean;
    this.m2 = squares;
    this.sinceResum = 0;
  }

  protected restart(): void {
    this.window.clear();
    this.mean = 0;
    this.m2 = 0;
    this.sinceResum = 0;
  }
}

/** Standard deviation over a whole array: one value per input, undefined for the first period-1. */
export function stddev(values: readonly number[], period = 20): (number | undefined)[] {
  return runSeries(new StdDev(period), values);
}
