/**
 * Rolling volume-weighted average price over the last `period` bars: the sum of typical price
 * (high + low + close) / 3 times volume, divided by the sum of volume, over the window (not the
 * session VWAP that restarts each day). First output at the period-th bar; undefined while every
 * bar of the window has zero volume (no trade: no price to weight).
 *
 * O(1) a bar with running sums, re-summed from the windows once per `period` updates (O(1)
 * amortised) as Sma does, so add-then-subtract cannot drift, and at once when the sums have fallen
 * far below a bar that left the window (its residue would dominate); whether the window has volume is
 * counted, not read from the running sum, which may be a rounding residue instead of 0. Pure.
 */
import type { Hlc } from './candle.ts';
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { NumberWindow } from './window.ts';

/** What VWAP reads. */
export interface Hlcv extends Hlc {
  readonly volume: number;
}

/**
 * A running sum below this share of the largest term it has held is re-summed: its rounding error
 * (about 1e-16 of that term per step) would otherwise be more than about 1e-9 of the sum.
 */
const SHRUNK = 1e-6;

export class Vwap extends BaseIndicator<Hlcv> {
  private readonly pv: NumberWindow;
  private readonly vol: NumberWindow;
  private pvSum = 0;
  private volSum = 0;
  /** Bars in the window with a volume other than 0. */
  private traded = 0;
  private sinceResum = 0;
  /**
   * At least the largest price-volume and volume in the sums since they were last re-summed (every
   * value is >= 0, so a fresh sum bounds its terms). When a huge bar has left the window and the
   * sums fall far below it, what remains is mostly its rounding residue: then re-sum at once.
   */
  private pvScale = 0;
  private volScale = 0;

  constructor(readonly period: number) {
    super();
    checkPeriod('vwap', period);
    this.pv = new NumberWindow(period);
    this.vol = new NumberWindow(period);
  }

  update(bar: Hlcv): number | undefined {
    const v = bar.volume;
    const pv = ((bar.high + bar.low + bar.close) / 3) * v;
    const oldPv = this.pv.push(pv);
    const oldV = this.vol.push(v);
    this.pvSum += pv - (oldPv ?? 0);
    this.volSum += v - (oldV ?? 0);
    if (v !== 0) this.traded++;
    if (oldV !== undefined && oldV !== 0) this.traded--;
    if (pv > this.pvScale) this.pvScale = pv;
    if (v > this.volScale) this.volScale = v;
    if (++this.sinceResum >= this.period || this.pvSum < this.pvScale * SHRUNK || this.volSum < this.volScale * SHRUNK) {
      this.pvSum = this.pv.sum();
      this.volSum = this.vol.sum();
      this.pvScale = this.pvSum;
      this.volScale = this.volSum;
      this.sinceResum = 0;
    }
    this.current = this.vol.full && this.traded > 0 ? this.pvSum / this.volSum : undefined;
    return this.current;
  }

  protected restart(): void {
    this.pv.clear();
    this.vol.clear();
    this.pvSum = 0;
    this.volSum = 0;
    this.traded = 0;
    this.sinceResum = 0;
    this.pvScale = 0;
    this.volScale = 0;
  }
}

/** VWAP over whole bars: one value per bar, undefined for the first period-1 and where the window has no volume. */
export function vwap(bars: readonly Hlcv[], period: number): (number | undefined)[] {
  return runSeries(new Vwap(period), bars);
}
