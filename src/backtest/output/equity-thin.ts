/**
 * Thinning an equity curve to a bounded number of points without losing what its drawdown is
 * made of. The curve is cut into buckets of consecutive points and each bucket keeps its lowest
 * and highest equity and its deepest drawdown (below the curve's running peak), in time order;
 * the first and last points and the peak and trough of the curve's deepest drawdown are always
 * kept. So the thinned curve ends where the run ended (its return is exact), its maximum drawdown
 * is the run's exactly, and a later peak or trough is never averaged away, which a curve chained
 * after others (walk-forward-stitch.ts) needs: its drawdown below an earlier fold's peak is taken
 * at these points.
 *
 * Used by the single-run report's curves when there are no candles to align them with
 * (report/chart-data.ts toCurves), by a walk-forward's test runs (sweep-exec.ts: each returns its
 * curve from a worker, so it must be small), by the walk-forward report's chart and by a comparison
 * of strategies (run-overview.ts: each run hands back its curve and drawdown, thinned, for the
 * comparison report's overlaid charts).
 */
import { equityCurve } from '../record/equity-columns.ts';
import { startEquityOf } from '../metrics/metrics.ts';
import { drawdownSeries, maxDrawdownWindow } from '../metrics/metrics-returns.ts';
import type { BacktestRun } from '../types.ts';

/** Points always kept besides the buckets' three: first, last, the deepest drawdown's peak and trough. */
const FIXED = 4;
const PER_BUCKET = 3;
/** The least `max` honoured: one bucket and the fixed points. */
export const MIN_THIN_POINTS = FIXED + PER_BUCKET;

/**
 * Indices of the points of `values` to keep, ascending, at most `max` of them (`max` below
 * MIN_THIN_POINTS counts as that); every index when there are no more than `max`. `startEquity`
 * is the peak the drawdown starts from (the equity before the first point).
 */
export function thinIndices(values: ArrayLike<number>, startEquity: number, max: number): number[] {
  const n = values.length;
  const limit = Math.max(MIN_THIN_POINTS, Math.floor(max));
  if (n <= limit) return Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const worst = maxDrawdownWindow(startEquity, values);
  if (worst !== undefined) {
    if (worst.peak >= 0) keep[worst.peak] = 1;
    keep[worst.trough] = 1;
  }
  const size = Math.ceil(n / Math.floor((limit - FIXED) / PER_BUCKET));
  let peak = startEquity;
  for (let start = 0; start < n; start += size) {
    let lo = start;
    let hi = start;
    let deep = start;
    let deepest = -Infinity;
    for (let i = start; i < Math.min(n, start + size); i++) {
      const v = values[i] as number;
      if (v > peak) peak = v;
      if (v < (values[lo] as number)) lo = i;
      if (v > (values[hi] as number)) hi = i;
      // Relative to the running peak: the point that fell furthest, not merely the lowest.
      const dd = peak > 0 ? (peak - v) / peak : 0;
      if (dd > deepest) {
        deepest = dd;
        deep = i;
      }
    }
    keep[lo] = 1;
    keep[hi] = 1;
    keep[deep] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i] === 1) out.push(i);
  return out;
}

/**
 * A run's equity curve as [time ms, equity] pairs, thinned to at most `max` points: first the start
 * equity at the run's start (its first bar's open: a return is measured from it), then the bars'
 * equity at their close times (thinIndices).
 */
export function thinnedEquity(run: BacktestRun, max: number): [number, number][] {
  const { start, curve, kept } = thinnedPoints(run, max);
  const out: [number, number][] = [[run.from, start]];
  for (const i of kept) out.push([curve.times[i] as number, curve.values[i] as number]);
  return out;
}

/** The run's start equity, its curve, and the bars kept of it: `max` points in all with the start's (thinnedEquity, thinnedCurve). */
function thinnedPoints(run: BacktestRun, max: number) {
  const start = startEquityOf(run);
  const curve = equityCurve(run);
  return { start, curve, kept: thinIndices(curve.values, start, max - 1) };
}

/** A thinned curve as columns: time (ms), equity and drawdown (percent below the running peak, >= 0). */
export interface ThinnedCurve {
  readonly time: number[];
  readonly equity: number[];
  readonly drawdownPct: number[];
  /** The points of the run's curve it was thinned from (its bars). */
  readonly sourcePoints: number;
}

/**
 * A run's equity curve and its drawdown, thinned to at most `max` points as thinnedEquity's: the
 * start equity at the run's start (no drawdown), then the kept bars' points. The drawdown is taken
 * on every point first (below the peak of the whole curve so far, which a thinned curve may have
 * dropped), then read at the kept ones: each stretch's deepest is kept, so the deepest shown is
 * the run's maximum drawdown.
 */
export function thinnedCurve(run: BacktestRun, max: number): ThinnedCurve {
  const { start, curve, kept } = thinnedPoints(run, max);
  const dd = drawdownSeries(start, curve.values);
  const time = [run.from];
  const equity = [start];
  const drawdownPct = [0];
  for (const i of kept) {
    time.push(curve.times[i] as number);
    equity.push(curve.values[i] as number);
    drawdownPct.push(dd[i] as number);
  }
  return { time, equity, drawdownPct, sourcePoints: curve.length };
}
