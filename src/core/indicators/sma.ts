/**
 * Simple moving average: the mean of the last `period` inputs; first output at the period-th input.
 *
 * Incremental, O(1) a bar, and the same value whatever came before the window: the running sum is
 * kept exactly, as a pair of doubles (hi + lo, error-free two-sum on every add and remove), so the
 * mean is the window's exact sum rounded once, then divided. A plain running sum carries the
 * rounding of every value that ever passed through it: two runs that start at different bars held
 * SMAs 1e-16 apart, which flipped a crossover where SMA(10) and SMA(30) were exactly equal (real
 * LINKUSDT 15m bars) and made `halyard check` report the warm-up short. The pair holds the exact
 * sum while the window's values span at most 106 bits between the largest sum and the smallest
 * unit in the last place (prices from 1e-6 to 1e9 do); a resum from the window, also exact, once
 * every 4,096 updates (or a window's worth, if longer: O(1) amortised) and whenever the sum is not
 * finite brings back a sum a NaN or infinity left (a window holding an infinity averages to it,
 * as a plain sum does). Pure.
 */
import { checkPeriod, runSeries, SteppedIndicator } from './indicator.ts';
import { NumberWindow } from './window.ts';

/** step's one-value array (single-threaded: filled and read within one call). */
const ONE = new Float64Array(1);

/**
 * hi + lo + x as a renormalised pair (hi the sum rounded once, lo what rounding left): Knuth's
 * two-sum, then Dekker's fast two-sum. Written into `into` (no pair object per call).
 */
function addExact(into: ExactSum, x: number): void {
  const a = into.hi;
  const s = a + x;
  const bb = s - a;
  const e = a - (s - bb) + (x - bb);
  const lo = into.lo + e;
  const hi = s + lo;
  into.lo = lo - (hi - s);
  into.hi = hi;
}

/** Updates between two resums of the window at the least (a NaN or infinity in the sum is resummed at once). */
const RESUM_EVERY = 4096;

/** A sum kept exactly as hi + lo (see the header). */
class ExactSum {
  hi = 0;
  lo = 0;
}

export class Sma extends SteppedIndicator {
  private readonly window: NumberWindow;
  private readonly total = new ExactSum();
  private sinceResum = 0;
  /** The value after the last update, NaN until ready: a field that only ever holds numbers is updated in place, no boxed number per update. */
  out = NaN;

  /** Updates between resums: the pair is exact, so the resum is only a safety net (at least a window's worth apart: O(1) amortised). */
  private readonly resumEvery: number;

  constructor(readonly period: number) {
    super();
    this.window = new NumberWindow(checkPeriod('sma', period));
    this.resumEvery = Math.max(period, RESUM_EVERY);
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
    const t = this.total;
    const x = values[i] as number;
    const o = w.out;
    // Sterbenz: x - o is exact when o/2 <= x <= 2o (a price and the one it replaces, nearly always):
    // one exact add of the difference instead of two.
    if (o * 0.5 <= x && x <= o * 2) addExact(t, x - o);
    else {
      addExact(t, x);
      addExact(t, -o);
    }
    if (++this.sinceResum >= this.resumEvery || !Number.isFinite(t.hi)) this.resum();
    this.out = w.full ? t.hi / this.period : NaN;
  }

  /** The window's sum again, exactly (oldest first; the same pair as the running one where that was exact). */
  private resum(): void {
    const t = this.total;
    t.hi = 0;
    t.lo = 0;
    const w = this.window;
    for (let k = 0; k < w.length; k++) addExact(t, w.get(k));
    // Two-sum turns an infinity (an input, or a sum past the largest double) into NaN (Infinity -
    // Infinity); the window's mean is then the plain sum's: Infinity, -Infinity or NaN.
    if (!Number.isFinite(t.hi)) {
      t.hi = w.sum();
      t.lo = 0;
    }
    this.sinceResum = 0;
  }

  reset(): void {
    this.window.clear();
    this.total.hi = 0;
    this.total.lo = 0;
    this.sinceResum = 0;
    this.out = NaN;
  }
}

/** SMA over a whole array: one value per input, undefined for the first period-1. */
export function sma(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Sma(period), values);
}
