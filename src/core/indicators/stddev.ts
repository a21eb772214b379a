/**
 * Rolling standard deviation of the last `period` inputs, the population one (divide by period),
 * as Bollinger uses and as TA-Lib's STDDEV and BBANDS compute it (pandas' `.std()` is the sample
 * one, divided by period - 1: it is larger by sqrt(period / (period - 1))). First output at the
 * period-th input; a flat window gives 0.
 *
 * O(1) a bar, and the same value whatever came before the window, to the bit: the window's sum,
 * the sum of its squares rounded and the sum of what those roundings left (Dekker's exact
 * product, on Veltkamp's split: JavaScript has no fused multiply-add) are kept exactly, as
 * canonical pairs of doubles (hi the exact value rounded once, lo the exact rest), so they hold
 * the same bits however the window was reached. A running deviation (Welford's update, as before)
 * carries the rounding of every value that ever passed through it: two runs started at different
 * bars held deviations up to 2.5e-10 apart (relative, at prices near 65000 moving by cents), which
 * can flip a decision on an exact tie with a band, and `halyard check` reports that as a short
 * warm-up (as it did for the SMA). From the exact sums, period^2 times the variance,
 * n * sum(x^2) - sum(x)^2, is summed from exact products, its two largest terms first (where they
 * cancel, exactly), the rest compensated (Ogita, Rump and Oishi's Sum2): the deviation is within
 * about a unit in the last place of the window's exact one, at prices near 65000 moving by a cent
 * or by a unit in the last place too, where a plain sum of squares loses every digit (Welford's
 * update kept 8), and a flat window gives 0.
 *
 * The pairs stay exact while a window's squares span at most about 105 bits (values within a
 * factor of about 2^20 of each other, zeros aside: any prices); beyond that (a line passing close
 * to zero, such as log returns) the value is still accurate but its last bits may depend on
 * history until the next resum from the window, done once every 4,096 updates (or a window's
 * worth, if longer: O(1) amortised), and at once when the sum of squares falls more than 2^40-fold
 * below the largest square since the last resum (the larger values gone, what their inexact sums
 * left would be most of it: the old Welford update's "quiet window after a spike"). A non-finite value in the window (or a square past the
 * largest double) makes the sums non-finite: they are resummed from the window while it lasts,
 * and the value is then the two-pass deviation of the window (NaN for an infinity or a NaN).
 * Values under about 1e-150 have squares whose rests are below the smallest normal double: like
 * any deviation from squares in doubles, theirs is then inexact. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { NumberWindow } from './window.ts';

// The error-free arithmetic is here, not in a module of its own: an imported function is called
// through its binding's getter under tsx, and this update ran 4 times slower with them imported.

/**
 * pairs[k] + pairs[k + 1] + x, exactly, renormalised (hi the sum rounded once, lo what rounding
 * left): Knuth's two-sum, then Dekker's fast two-sum (as Sma's). Exact, and so canonical, while
 * the sum and x span at most about 105 bits from the sum's largest bit to their smallest unit in
 * the last place. In a Float64Array: its doubles are written in place, no heap number an update.
 */
function addExact(pairs: Float64Array, k: number, x: number): void {
  const a = pairs[k] as number;
  const s = a + x;
  const bb = s - a;
  const e = a - (s - bb) + (x - bb);
  const lo = (pairs[k + 1] as number) + e;
  const hi = s + lo;
  pairs[k + 1] = lo - (hi - s);
  pairs[k] = hi;
}

/** Veltkamp's splitter 2^27 + 1: x * SPLITTER splits x into two halves of at most 26 bits each. */
const SPLITTER = 134217729;

/** The high half of x (x - highHalf(x), the low half, is exact): Veltkamp's split. NaN above about 1e300. */
function highHalf(x: number): number {
  const t = SPLITTER * x;
  return t - (t - x);
}

/**
 * a * b, exactly, into pairs[k] (rounded) and pairs[k + 1] (the rest), given the high halves of
 * a and b (a factor used often is split once): Dekker's product. Exact unless a * b overflows, a
 * split does (NaN) or the rest falls below the smallest normal double.
 */
function productExact(pairs: Float64Array, k: number, a: number, ah: number, b: number, bh: number): void {
  const p = a * b;
  const al = a - ah;
  const bl = b - bh;
  pairs[k] = p;
  pairs[k + 1] = ah * bh - p + ah * bl + al * bh + al * bl;
}

/** What rounding x * x left, exactly (x * x minus its rounded value): productExact's rest for x by itself. */
function squareRest(x: number): number {
  const xh = highHalf(x);
  const xl = x - xh;
  return xh * xh - x * x + 2 * xh * xl + xl * xl;
}

/** Updates between two resums of the window at the least (non-finite sums are resummed at once). */
const RESUM_EVERY = 4096;

/**
 * A sum of squares this far below the largest square added since the last resum (2^-40: values
 * fell more than 2^20-fold, past the span the pairs are exact in) is resummed from the window: what
 * earlier, larger values' inexact additions left in the pairs would otherwise be most of it (a
 * quiet window after a jump of 1e15 read a deviation 19% off, and a flat one after a 1e12-fold fall
 * not 0, until the next periodic resum).
 */
const FALL = 2 ** -40;

/** Where each exact pair sits in `pairs`: sum(x), sum(round(x^2)), sum(x^2 - round(x^2)). */
const SUM = 0;
const SQUARES = 2;
const RESTS = 4;

/** The terms of n * sum(x^2) - sum(x)^2, summed in this order (single-threaded scratch: filled and read within one call). */
const TERMS = new Float64Array(14);

export class StdDev extends BaseIndicator {
  private readonly window: NumberWindow;
  /** The three exact sums over the window, as pairs (SUM, SQUARES, RESTS). */
  private readonly pairs = new Float64Array(6);
  private sinceResum = 0;
  /** Updates between resums: the pairs are exact, so the resum is only a safety net (at least a window's worth apart). */
  private readonly resumEvery: number;
  /** highHalf(period), for the exact products by period. */
  private readonly periodHigh: number;
  /** The largest square added since the last resum (FALL). */
  private peak = 0;

  constructor(readonly period = 20) {
    super();
    this.window = new NumberWindow(checkPeriod('stddev', period));
    this.resumEvery = Math.max(period, RESUM_EVERY);
    this.periodHigh = highHalf(period);
  }

  update(input: number): number | undefined {
    const w = this.window;
    w.shift(input);
    const o = w.out;
    const pairs = this.pairs;
    // Sterbenz: input - o is exact when o/2 <= input <= 2o (a price and the one it replaces,
    // nearly always): one exact add of the difference instead of two. The same for the squares.
    if (o * 0.5 <= input && input <= o * 2) addExact(pairs, SUM, input - o);
    else {
      addExact(pairs, SUM, input);
      addExact(pairs, SUM, -o);
    }
    const px = input * input;
    if (px > this.peak) this.peak = px;
    const po = o * o;
    if (po * 0.5 <= px && px <= po * 2) addExact(pairs, SQUARES, px - po);
    else {
      addExact(pairs, SQUARES, px);
      addExact(pairs, SQUARES, -po);
    }
    addExact(pairs, RESTS, squareRest(input));
    addExact(pairs, RESTS, -squareRest(o));
    if (++this.sinceResum >= this.resumEvery || !Number.isFinite((pairs[SUM] as number) + (pairs[SQUARES] as number) + (pairs[RESTS] as number)) || (pairs[SQUARES] as number) < this.peak * FALL) this.resum();
    if (!w.full) return undefined;
    this.current = this.deviation();
    return this.current;
  }

  /**
   * sqrt(n * sum(x^2) - sum(x)^2) / n from the exact pairs: the terms are exact products, the two
   * largest (n * sum(round(x^2)) and sum(x)^2, rounded) first, so that where they cancel they do
   * so exactly and what is left is small, then the rest with their roundings' errors summed apart
   * (Sum2; exact, so a flat window gives 0, while those errors fit a double).
   */
  private deviation(): number {
    const pairs = this.pairs;
    const n = this.period;
    const nh = this.periodHigh;
    const h = pairs[SUM] as number;
    const l = pairs[SUM + 1] as number;
    const q = pairs[SQUARES] as number;
    const ql = pairs[SQUARES + 1] as number;
    const r = pairs[RESTS] as number;
    const rl = pairs[RESTS + 1] as number;
    if (!Number.isFinite(h + q + r)) return this.twoPass();
    const hh = highHalf(h);
    const lh = highHalf(l);
    const t = TERMS;
    // n * squares - sum^2, sum = h + l: n*q, -h^2 (their rounded parts first, then their rests),
    // n*ql, -2hl, n*r, n*rl, -l^2.
    productExact(t, 0, n, nh, q, highHalf(q));
    productExact(t, 2, -h, -hh, h, hh);
    const rest = t[1] as number;
    t[1] = t[2] as number;
    t[2] = rest;
    productExact(t, 4, n, nh, ql, highHalf(ql));
    productExact(t, 6, -2 * h, -2 * hh, l, lh);
    productExact(t, 8, n, nh, r, highHalf(r));
    productExact(t, 10, n, nh, rl, highHalf(rl));
    productExact(t, 12, -l, -lh, l, lh);
    let s = t[0] as number;
    let err = 0;
    for (let i = 1; i < 14; i++) {
      const x = t[i] as number;
      const next = s + x;
      const bb = next - s;
      err += s - (next - bb) + (x - bb);
      s = next;
    }
    const scaled = s + err;
    if (!Number.isFinite(scaled)) return this.twoPass();
    // Exactly 0 for a flat window; never below, and a +0 whatever the sign of the zero the sums left.
    return scaled > 0 ? Math.sqrt(scaled) / n : 0;
  }

  /** The window's pairs again, exactly (oldest first; the same pairs as the running ones where those are exact). */
  private resum(): void {
    const { pairs, window: w } = this;
    pairs.fill(0);
    let peak = 0;
    for (let k = 0; k < w.length; k++) {
      const x = w.get(k);
      const square = x * x;
      if (square > peak) peak = square;
      addExact(pairs, SUM, x);
      addExact(pairs, SQUARES, square);
      addExact(pairs, RESTS, squareRest(x));
    }
    this.peak = peak;
    this.sinceResum = 0;
  }

  /** Mean, then squared deviations, from the window (for values whose squares are not finite). */
  private twoPass(): number {
    const w = this.window;
    const n = this.period;
    const mean = w.sum() / n;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      const d = w.get(i) - mean;
      squares += d * d;
    }
    return Math.sqrt(squares / n);
  }

  protected restart(): void {
    this.window.clear();
    this.pairs.fill(0);
    this.peak = 0;
    this.sinceResum = 0;
  }
}

/** Standard deviation over a whole array: one value per input, undefined for the first period-1. */
export function stddev(values: readonly number[], period = 20): (number | undefined)[] {
  return runSeries(new StdDev(period), values);
}
