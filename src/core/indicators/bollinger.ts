/**
 * Bollinger bands: middle = SMA(period), upper/lower = middle +- k * sigma, where sigma is the
 * population standard deviation (divide by period, as Bollinger defines it) of the same window.
 * The deviation is computed from the window each update (two passes) rather than from running
 * sums of squares, which cancel catastrophically at prices near 1e6 with small moves. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { NumberWindow } from './window.ts';

export interface BollingerBands {
  readonly upper: number;
  readonly middle: number;
  readonly lower: number;
  /** The standard deviation used. */
  readonly sigma: number;
}

export class Bollinger extends BaseIndicator<number, BollingerBands> {
  private readonly window: NumberWindow;

  constructor(
    readonly period = 20,
    readonly k = 2,
  ) {
    super();
    this.window = new NumberWindow(checkPeriod('bollinger', period));
    if (!Number.isFinite(k) || k < 0) throw new RangeError(`bollinger: k must be a finite number >= 0, got ${String(k)}`);
  }

  update(input: number): BollingerBands | undefined {
    this.window.push(input);
    if (!this.window.full) return undefined;
    const n = this.period;
    const mean = this.window.sum() / n;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      const d = this.window.get(i) - mean;
      squares += d * d;
    }
    const sigma = Math.sqrt(squares / n);
    this.current = { upper: mean + this.k * sigma, middle: mean, lower: mean - this.k * sigma, sigma };
    return this.current;
  }

  protected restart(): void {
    this.window.clear();
  }
}

/** Bands over a whole array: one value per input, undefined for the first period-1. */
export function bollinger(values: readonly number[], period = 20, k = 2): (BollingerBands | undefined)[] {
  return runSeries(new Bollinger(period, k), values);
}
