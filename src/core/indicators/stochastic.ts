/**
 * Stochastic oscillator, as TA-Lib's STOCH with SMA smoothing (Freqtrade's `ta.STOCH`; the fast
 * stochastic STOCHF when smooth = 1). Raw %K = 100 * (close - lowest low) / (highest high - lowest
 * low) over the last `k` bars; %K = SMA(raw %K, smooth); %D = SMA(%K, d). In TA-Lib's names, k is
 * fastk_period, smooth slowk_period and d slowd_period.
 *
 * A flat window (highest high = lowest low) gives a raw %K of 50, the middle of the range, where
 * TA-Lib gives 0 (which reads as deeply oversold when nothing moved); as Rsi gives 50 on a flat
 * line. Elsewhere the values are TA-Lib's.
 *
 * Warm-up: %K has a value from bar k + smooth - 1 on, %D from bar k + smooth + d - 2 on (TA-Lib
 * outputs both from the latter). O(1) amortised a bar: the extremes are Highest and Lowest's
 * monotonic deques, the smoothing Sma's running sums. Pure.
 */
import type { Hlc } from './candle.ts';
import { Highest, Lowest } from './extremes.ts';
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { Sma } from './sma.ts';

export interface StochasticValue {
  readonly k: number;
  /** Undefined for the first d - 1 values of %K. */
  readonly d: number | undefined;
}

export class Stochastic extends BaseIndicator<Hlc, StochasticValue> {
  private readonly highest: Highest;
  private readonly lowest: Lowest;
  private readonly smoothK: Sma;
  private readonly smoothD: Sma;

  constructor(
    readonly k = 14,
    readonly d = 3,
    readonly smooth = 1,
  ) {
    super();
    this.highest = new Highest(checkPeriod('stochastic k', k));
    this.lowest = new Lowest(k);
    this.smoothK = new Sma(checkPeriod('stochastic smooth', smooth));
    this.smoothD = new Sma(checkPeriod('stochastic d', d));
  }

  update(bar: Hlc): StochasticValue | undefined {
    const hi = this.highest.update(bar.high);
    const lo = this.lowest.update(bar.low);
    if (hi === undefined || lo === undefined) return undefined;
    const range = hi - lo;
    const raw = range === 0 ? 50 : (100 * (bar.close - lo)) / range;
    const k = this.smoothK.step(raw);
    if (k !== k) return undefined;
    const d = this.smoothD.step(k);
    this.current = { k, d: d === d ? d : undefined };
    return this.current;
  }

  protected restart(): void {
    this.highest.reset();
    this.lowest.reset();
    this.smoothK.reset();
    this.smoothD.reset();
  }
}

/** The stochastic over whole bars: one value per bar, undefined for the first k + smooth - 2. */
export function stochastic(bars: readonly Hlc[], k = 14, d = 3, smooth = 1): (StochasticValue | undefined)[] {
  return runSeries(new Stochastic(k, d, smooth), bars);
}
