/**
 * Bollinger bands: middle = SMA(period), upper/lower = middle +- k * sigma, where sigma is the
 * population standard deviation (divide by period, as Bollinger defines it) of the same window.
 * Both are the library's own running indicators (sma.ts, stddev.ts): each is a function of the
 * window's values alone, to the bit (exact running sums, rounded once), so the middle band is the
 * SMA of the same period exactly and the bands do not depend on where the history started; and an
 * update costs the same at any period (the deviation used to be summed from the window each bar:
 * two passes, 0.7 us a bar at period 200). Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { Sma } from './sma.ts';
import { StdDev } from './stddev.ts';

export interface BollingerBands {
  readonly upper: number;
  readonly middle: number;
  readonly lower: number;
  /** The standard deviation used. */
  readonly sigma: number;
}

export class Bollinger extends BaseIndicator<number, BollingerBands> {
  private readonly mean: Sma;
  private readonly deviation: StdDev;

  constructor(
    readonly period = 20,
    readonly k = 2,
  ) {
    super();
    checkPeriod('bollinger', period);
    if (!Number.isFinite(k) || k < 0) throw new RangeError(`bollinger: k must be a finite number >= 0, got ${String(k)}`);
    this.mean = new Sma(period);
    this.deviation = new StdDev(period);
  }

  update(input: number): BollingerBands | undefined {
    const mean = this.mean.step(input);
    const sigma = this.deviation.update(input);
    // Ready with the window full; a non-finite value in it reads NaN bands, as a two-pass sum would.
    if (sigma === undefined) return undefined;
    this.current = { upper: mean + this.k * sigma, middle: mean, lower: mean - this.k * sigma, sigma };
    return this.current;
  }

  protected restart(): void {
    this.mean.reset();
    this.deviation.reset();
  }
}

/** Bands over a whole array: one value per input, undefined for the first period-1. */
export function bollinger(values: readonly number[], period = 20, k = 2): (BollingerBands | undefined)[] {
  return runSeries(new Bollinger(period, k), values);
}
