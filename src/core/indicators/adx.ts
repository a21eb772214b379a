/**
 * Average directional index with the directional indicators, as TA-Lib's ADX, PLUS_DI and
 * MINUS_DI (Freqtrade's `ta.ADX`, `ta.PLUS_DI`, `ta.MINUS_DI`), Wilder's smoothing throughout.
 *
 * Per bar after the first: up = high - prevHigh, down = prevLow - low; +DM = up when up > down and
 * up > 0, else 0; -DM = down when down > up and down > 0, else 0; TR the true range (atr.ts). The
 * smoothed sums start as the sums of the first period - 1 values and then move as
 * s = s - s / period + x (so the first DI is at bar period + 1). +DI = 100 * s(+DM) / s(TR), -DI
 * likewise (0 when s(TR) is 0: a flat market); DX = 100 * |+DI - -DI| / (+DI + -DI). The first ADX
 * is the mean of the first `period` DX (bar 2 * period), then adx = (adx * (period - 1) + dx) /
 * period. A DX with +DI + -DI = 0 (or s(TR) = 0) counts as 0 in that first mean and leaves the ADX
 * unchanged after it, as in TA-Lib (which tests for zero within 1e-8 where this tests exactly).
 *
 * Warm-up: plusDi and minusDi have values from bar period + 1 on, adx from bar 2 * period on.
 * O(1) a bar. Pure.
 */
import { trueRange } from './atr.ts';
import type { Hlc } from './candle.ts';
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';

export interface AdxValue {
  /** Undefined for the first period - 1 DI values. */
  readonly adx: number | undefined;
  readonly plusDi: number;
  readonly minusDi: number;
}

export class Adx extends BaseIndicator<Hlc, AdxValue> {
  private prevHigh = NaN;
  private prevLow = NaN;
  private prevClose: number | undefined;
  /** Bars seen. */
  private seen = 0;
  private plusDm = 0;
  private minusDm = 0;
  private tr = 0;
  private dxSum = 0;
  private adxNow = NaN;

  constructor(readonly period = 14) {
    super();
    checkPeriod('adx', period);
  }

  update(bar: Hlc): AdxValue | undefined {
    const n = this.period;
    const first = this.seen++ === 0;
    const up = bar.high - this.prevHigh;
    const down = this.prevLow - bar.low;
    const tr = trueRange(bar, this.prevClose);
    this.prevHigh = bar.high;
    this.prevLow = bar.low;
    this.prevClose = bar.close;
    if (first) return undefined;
    const plusDm = up > down && up > 0 ? up : 0;
    const minusDm = down > up && down > 0 ? down : 0;
    // this.seen - 1 changes so far: the first period - 1 are summed, then smoothed.
    const changes = this.seen - 1;
    if (changes < n) {
      this.plusDm += plusDm;
      this.minusDm += minusDm;
      this.tr += tr;
      return undefined;
    }
    this.plusDm += plusDm - this.plusDm / n;
    this.minusDm += minusDm - this.minusDm / n;
    this.tr += tr - this.tr / n;
    let plusDi = 0;
    let minusDi = 0;
    let dx = NaN;
    if (this.tr !== 0) {
      plusDi = (100 * this.plusDm) / this.tr;
      minusDi = (100 * this.minusDm) / this.tr;
      const sum = plusDi + minusDi;
      if (sum !== 0) dx = (100 * Math.abs(plusDi - minusDi)) / sum;
    }
    // DX number changes - n + 1 (1 based); the first n are averaged.
    const dxCount = changes - n + 1;
    if (dxCount <= n) {
      if (dx === dx) this.dxSum += dx;
      if (dxCount === n) this.adxNow = this.dxSum / n;
    } else if (dx === dx) {
      this.adxNow = (this.adxNow * (n - 1) + dx) / n;
    }
    const adx = this.adxNow;
    this.current = { adx: adx === adx ? adx : undefined, plusDi, minusDi };
    return this.current;
  }

  protected restart(): void {
    this.prevHigh = NaN;
    this.prevLow = NaN;
    this.prevClose = undefined;
    this.seen = 0;
    this.plusDm = 0;
    this.minusDm = 0;
    this.tr = 0;
    this.dxSum = 0;
    this.adxNow = NaN;
  }
}

/** ADX and DIs over whole bars: one value per bar, undefined for the first `period`. */
export function adx(bars: readonly Hlc[], period = 14): (AdxValue | undefined)[] {
  return runSeries(new Adx(period), bars);
}
