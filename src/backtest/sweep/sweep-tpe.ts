/**
 * The Tree-structured Parzen Estimator behind `--search tpe` (Bergstra et al. 2011; Optuna's
 * TPESampler, Freqtrade hyperopt's default), over a discrete grid: each axis is an ordered list of
 * positions. The points tried so far, ranked best first, are split at a quantile: the best
 * gamma share (at most 25) make the "good" density l(x), the rest the "bad" g(x). Each is a
 * mixture of one kernel per point plus a uniform prior; a kernel is a product over the axes of a
 * Gaussian over positions (ordinal axes: numbers, sorted) or a smoothed point mass (categorical
 * axes). A proposal samples candidates from l and keeps the one with the largest l(x)/g(x) that
 * was never tried. Joint (multivariate) kernels rather than one model per axis, so that a grid
 * whose good region runs along a diagonal (fast < slow) is modelled as such. Pure: no I/O, no
 * Math.random; the caller's seeded Prng (core/synthetic/prng.ts) makes it deterministic.
 */
import type { Prng } from '../../core/synthetic/prng.ts';

/** One axis of the search space: `size` positions; ordinal ones are near their neighbours. */
export interface TpeAxis {
  size: number;
  ordinal: boolean;
}

export interface TpeSettings {
  /** Share of the points tried that are "good" (hyperopt's gamma 0.25), rounded up... */
  goodShare: number;
  /** ...and at most this many (Optuna caps the good set at 25). */
  maxGood: number;
  /** Candidates drawn from l(x) per proposal (Optuna's n_ei_candidates). */
  candidates: number;
  /** Weight of the uniform prior beside each point's weight of 1 (Optuna's prior_weight). */
  priorWeight: number;
}

export const TPE_DEFAULTS: TpeSettings = { goodShare: 0.25, maxGood: 25, candidates: 24, priorWeight: 1 };

/** A point's index in the grid's order (first axis slowest, as buildGrid walks it). */
export function encodePoint(axes: readonly TpeAxis[], at: readonly number[]): number {
  return axes.reduce((index, a, k) => index * a.size + at[k]!, 0);
}

/** The positions of the point at `index` (the inverse of encodePoint). */
export function decodePoint(axes: readonly TpeAxis[], index: number): number[] {
  const at = new Array<number>(axes.length);
  for (let k = axes.length - 1; k >= 0; k--) {
    const size = axes[k]!.size;
    at[k] = index % size;
    index = Math.floor(index / size);
  }
  return at;
}

/** How many of `tried` points are good: the share rounded up, capped, never more than `eligible` (failed runs are never good). */
export function goodCount(tried: number, eligible: number, settings: TpeSettings = TPE_DEFAULTS): number {
  return Math.max(0, Math.min(Math.ceil(settings.goodShare * tried), settings.maxGood, eligible));
}

// --- the normal distribution in log space (tails far from a kernel must not underflow to 0) ---

/** log erfc(z) for z >= 0 (Numerical Recipes' erfcc, relative error < 1.2e-7), without forming erfc. */
function logErfc(z: number): number {
  const t = 1 / (1 + 0.5 * z);
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return Math.log(t) - z * z + poly;
}

/** log of the upper tail P(Z > x) for x >= 0. */
const logUpper = (x: number): number => Math.log(0.5) + logErfc(x / Math.SQRT2);

/** log P(a < Z < b) for a standard normal Z, a < b, accurate in either tail. */
export function logNormalMass(a: number, b: number): number {
  // Both in one tail: the mass is the difference of two small tails, taken in log space.
  if (a >= 0) return logUpper(a) + Math.log1p(-Math.exp(logUpper(b) - logUpper(a)));
  if (b <= 0) return logNormalMass(-b, -a);
  return Math.log1p(-Math.exp(logUpper(-a)) - Math.exp(logUpper(b)));
}

/** Width of the Gaussian kernels on an axis of `size` positions in a mixture of `kernels` (Optuna's multivariate rule, then its "magic clip"). */
export function bandwidth(size: number, kernels: number, dims: number): number {
  const scott = 0.2 * size * kernels ** (-1 / (dims + 4));
  return Math.min(size, Math.max(scott, size / Math.min(100, 1 + kernels), 0.5));
}

/** log P(position k) under a Gaussian at `mean`, truncated to the axis [-0.5, size - 0.5] and cut into its positions. */
function logOrdinal(k: number, mean: number, sigma: number, size: number): number {
  const z = (x: number): number => (x - mean) / sigma;
  return logNormalMass(z(k - 0.5), z(k + 0.5)) - logNormalMass(z(-0.5), z(size - 0.5));
}

/** log P(position k) under a point mass at `c` smoothed toward every position by `eps` (Optuna's categorical kernel). */
function logCategorical(k: number, c: number, eps: number, size: number): number {
  return Math.log((k === c ? 1 + eps : eps) / (1 + size * eps));
}

/** A Parzen density over the grid: one kernel per point, and the uniform prior. */
interface Density {
  points: readonly (readonly number[])[];
  sigma: number[];
  eps: number;
  priorWeight: number;
  /**
   * Per axis, a kernel's log mass at a position by (kernel position, position): the same pairs
   * recur across a round's candidates, and the normal masses are most of a proposal's cost.
   */
  memo: Map<number, number>[];
}

function density(axes: readonly TpeAxis[], points: readonly (readonly number[])[], settings: TpeSettings): Density {
  const kernels = points.length + 1;
  return { points, sigma: axes.map((a) => bandwidth(a.size, kernels, axes.length)), eps: settings.priorWeight / kernels, priorWeight: settings.priorWeight, memo: axes.map(() => new Map()) };
}

/** log of one axis's kernel at `p` evaluated at `k`. */
function logKernel(axis: TpeAxis, k: number, d: Density, axisIndex: number, p: number): number {
  if (!axis.ordinal) return logCategorical(k, p, d.eps, axis.size);
  const memo = d.memo[axisIndex]!;
  const key = p * axis.size + k;
  let v = memo.get(key);
  if (v === undefined) {
    v = logOrdinal(k, p, d.sigma[axisIndex]!, axis.size);
    memo.set(key, v);
  }
  return v;
}

/** log of the density at `at`: the log-sum-exp of its kernels (and the prior), each weighted 1 (the prior `priorWeight`). */
function logDensity(axes: readonly TpeAxis[], d: Density, at: readonly number[]): number {
  const terms = [Math.log(d.priorWeight) - axes.reduce((s, a) => s + Math.log(a.size), 0)];
  for (const p of d.points) {
    let s = 0;
    for (let k = 0; k < axes.length; k++) s += logKernel(axes[k]!, at[k]!, d, k, p[k]!);
    terms.push(s);
  }
  // A loop, not Math.max(...terms): a long search has more kernels than a call takes arguments.
  const top = terms.reduce((m, t) => (t > m ? t : m), -Infinity);
  return top + Math.log(terms.reduce((s, t) => s + Math.exp(t - top), 0)) - Math.log(d.priorWeight + d.points.length);
}

/** A draw from a truncated Gaussian at `mean`, rounded to a position (rejection: the kernel keeps at least a third of its mass on the axis). */
function sampleOrdinal(rng: Prng, mean: number, sigma: number, size: number): number {
  for (let i = 0; i < 64; i++) {
    const x = Math.round(mean + sigma * rng.normal());
    if (x >= 0 && x < size) return x;
  }
  return Math.round(mean);
}

/** A draw from l(x): a kernel (or the prior) by weight, then each axis from it. */
function sample(axes: readonly TpeAxis[], d: Density, rng: Prng): number[] {
  const j = Math.floor(rng.next() * (d.points.length + d.priorWeight));
  const p = d.points[j];
  return axes.map((a, k) => {
    if (p === undefined) return rng.int(0, a.size - 1);
    if (a.ordinal) return sampleOrdinal(rng, p[k]!, d.sigma[k]!, a.size);
    // With probability 1/(1 + size eps) the point's own value, else uniform: (1 + eps)/(1 + size eps) on it in all.
    return rng.next() * (1 + a.size * d.eps) < 1 ? p[k]! : rng.int(0, a.size - 1);
  });
}

/** A uniform point that is not in `taken` (rejection first; a crowded grid is listed). */
export function untriedPoint(axes: readonly TpeAxis[], taken: ReadonlySet<number>, rng: Prng): number[] | undefined {
  const size = axes.reduce((n, a) => n * a.size, 1);
  if (taken.size >= size) return undefined;
  for (let i = 0; i < 64; i++) {
    const index = rng.int(0, size - 1);
    if (!taken.has(index)) return decodePoint(axes, index);
  }
  const free: number[] = [];
  for (let i = 0; i < size; i++) if (!taken.has(i)) free.push(i);
  return decodePoint(axes, free[rng.int(0, free.length - 1)]!);
}

/**
 * Up to `count` new distinct points from the points tried so far, `ranked` best first, of which the
 * first `eligible` may count as good (the rest failed, were skipped or stopped: always bad). Each
 * proposal is the candidate from l(x) with the largest log l(x) - log g(x) that is neither in
 * `tried` nor proposed before it; when every candidate was, an untried point at random. The models
 * are fitted once per call: a round's proposals come from the same results (Optuna's batch
 * behaviour without a "liar"), kept apart by never repeating a point.
 */
export function proposePoints(axes: readonly TpeAxis[], ranked: readonly (readonly number[])[], eligible: number, tried: ReadonlySet<number>, count: number, rng: Prng, settings: TpeSettings = TPE_DEFAULTS): number[][] {
  const n = goodCount(ranked.length, eligible, settings);
  const good = density(axes, ranked.slice(0, n), settings);
  const bad = density(axes, ranked.slice(n), settings);
  const taken = new Set(tried);
  const out: number[][] = [];
  while (out.length < count) {
    let best: number[] | undefined;
    let bestScore = -Infinity;
    for (let c = 0; c < settings.candidates; c++) {
      const x = sample(axes, good, rng);
      if (taken.has(encodePoint(axes, x))) continue;
      const s = logDensity(axes, good, x) - logDensity(axes, bad, x);
      if (best === undefined || s > bestScore) {
        best = x;
        bestScore = s;
      }
    }
    best ??= untriedPoint(axes, taken, rng);
    if (best === undefined) break; // the grid is exhausted
    taken.add(encodePoint(axes, best));
    out.push(best);
  }
  return out;
}
