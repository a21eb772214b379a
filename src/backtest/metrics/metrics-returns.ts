/**
 * Return-series statistics of a backtest's equity curve: per-bar returns, annualised Sharpe and
 * Sortino, maximum drawdown and CAGR.
 *
 * Choice (documented in docs/concepts/metrics.md and the summary): Sharpe and Sortino are computed from PER-BAR returns and
 * annualised by sqrt(bars per year), with a 365-day year because the venue trades every day.
 * Per-bar rather than daily because sweeps rank short runs (a few thousand 1-minute bars is two
 * days: two daily samples say nothing). A bar with no position is a zero-return sample, which is
 * right for a risk-free rate of 0: idle cash earns nothing. Sharpe uses the sample standard
 * deviation (n - 1); Sortino the downside deviation sqrt(sum(min(r, 0)^2) / n) against a target
 * of 0 (Sortino & Price). Degenerate series give 0 (fewer than two returns, or zero variance),
 * except a Sortino with a positive mean and no losing bar, which is +Infinity (see metrics-json).
 * All the series figures are one function, curvePass (its comment says why).
 */
import { INTERVAL_MS } from '../../data/intervals.ts';

export const DAY_MS = 86_400_000;
/** A 365-day year: crypto trades every day (MINUTES_PER_YEAR in core/synthetic agrees). */
export const YEAR_MS = 365 * DAY_MS;

/**
 * Bars per year for an interval name (`1m`, `1h`, `1M` = 12); for an unknown name, from the
 * median spacing of the given times; 0 when neither tells.
 */
export function periodsPerYear(interval: string, times: ArrayLike<number> = []): number {
  if (interval === '1M') return 12;
  const ms = (INTERVAL_MS as Readonly<Record<string, number>>)[interval];
  if (ms !== undefined) return YEAR_MS / ms;
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)];
  return median !== undefined && median > 0 ? YEAR_MS / median : 0;
}

/**
 * r_i = e_i / e_{i-1} - 1, with e_{-1} = the start equity; a non-positive base gives 0. A
 * Float64Array: a year of 1-minute bars is 525,600 returns, no boxed numbers. (curvePass below.)
 */
export function barReturns(startEquity: number, equity: ArrayLike<number>): Float64Array {
  return curvePass(equity, true, startEquity, 0, undefined, Infinity, true).returns;
}

/** Relative tolerance under which a deviation counts as zero (float noise on a flat curve). */
const EPS = 1e-12;

export function sharpeRatio(returns: ArrayLike<number>, perYear: number): number {
  return curvePass(returns, false, 0, perYear, undefined, Infinity).sharpe;
}

export function sortinoRatio(returns: ArrayLike<number>, perYear: number): number {
  return curvePass(returns, false, 0, perYear, undefined, Infinity).sortino;
}

/**
 * Drawdown in percent below the running peak at each point (0 at a new high), the start equity
 * counting as the first peak. Positive numbers: 12.5 means 12.5% below the peak. A Float64Array:
 * the report reads it for a run's every bar, and `new Array(n)` past about 100,000 entries is a
 * dictionary in V8 (a year of 1-minute bars took 3 to 8 times as long to fill; the same doubles).
 */
export function drawdownSeries(startEquity: number, equity: ArrayLike<number>): Float64Array {
  let peak = startEquity;
  const out = new Float64Array(equity.length);
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i] as number;
    if (e > peak) peak = e;
    out[i] = drawdownAt(peak, e);
  }
  return out;
}

const drawdownAt = (peak: number, e: number): number => (peak > 0 ? Math.max(0, ((peak - e) / peak) * 100) : 0);

/**
 * Where the deepest drawdown happened: the index of the peak it fell from (-1: the start equity)
 * and of its lowest point; undefined when the curve never falls below a peak. Ties keep the first.
 */
export function maxDrawdownWindow(startEquity: number, equity: ArrayLike<number>): { peak: number; trough: number; pct: number } | undefined {
  let peakValue = startEquity;
  let peakAt = -1;
  let best: { peak: number; trough: number; pct: number } | undefined;
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i] as number;
    if (e > peakValue) {
      peakValue = e;
      peakAt = i;
      continue;
    }
    const d = drawdownAt(peakValue, e);
    if (d > 0 && (best === undefined || d > best.pct)) best = { peak: peakAt, trough: i, pct: d };
  }
  return best;
}

/** The largest of `drawdownSeries`, without building it (curvePass below). */
export function maxDrawdownPct(startEquity: number, equity: ArrayLike<number>): number {
  return curvePass(equity, true, startEquity, 0, undefined, Infinity).maxDrawdownPct;
}

/** What computeMetrics reads off the equity curve; each figure as its single function gives it. */
export interface CurveFigures {
  sharpe: number;
  sortino: number;
  maxDrawdownPct: number;
  /** Points whose |position| is at least `minPosition` (0 without positions). */
  exposed: number;
}

/**
 * sharpeRatio and sortinoRatio of barReturns, maxDrawdownPct and the exposure count, in the two
 * passes over the curve they need together instead of seven (curvePass).
 */
export function curveFigures(startEquity: number, equity: ArrayLike<number>, perYear: number, positions?: ArrayLike<number>, minPosition = Infinity): CurveFigures {
  const p = curvePass(equity, true, startEquity, perYear, positions, minPosition);
  return { sharpe: p.sharpe, sortino: p.sortino, maxDrawdownPct: p.maxDrawdownPct, exposed: p.exposed };
}

/**
 * The one implementation of the return-series figures (every single function above is this).
 * `series` is an equity curve (`isEquity`: returns, drawdown and exposure are computed from it) or
 * returns. The first loop takes the returns, their sum (for the mean, left to right), the downside
 * sum of squares, the deepest drawdown and the exposure; the second the squared deviations from
 * the mean, which need the mean first (Sharpe's sample deviation).
 *
 * Why one function with both loops: computeMetrics reads the curve once, in a fresh process, and
 * a year is 525,600 points. A loop runs unoptimised until on-stack replacement compiles its
 * function, so seven separate loops waited seven times; these two wait twice (the code between
 * them has not run when the first compiles, so the second loop starts unoptimised again).
 */
function curvePass(
  series: ArrayLike<number>,
  isEquity: boolean,
  startEquity: number,
  perYear: number,
  positions: ArrayLike<number> | undefined,
  minPosition: number,
  keepReturns = false,
): { returns: Float64Array; sharpe: number; sortino: number; maxDrawdownPct: number; exposed: number } {
  const n = series.length;
  // The returns are kept only for barReturns: the second loop otherwise takes them again from the
  // curve (the same divisions, so the same numbers) rather than holding 4 MB for a year of bars.
  const returns = isEquity && keepReturns ? new Float64Array(n) : undefined;
  const pos = isEquity && positions !== undefined && positions.length === n ? positions : undefined;
  let prev = startEquity;
  let sum = 0;
  let down = 0;
  let max = 0;
  let peak = startEquity;
  let exposed = 0;
  for (let i = 0; i < n; i++) {
    let r: number;
    if (isEquity) {
      const e = series[i]!;
      r = barReturn(prev, e);
      if (returns !== undefined) returns[i] = r;
      prev = e;
      if (e > peak) peak = e;
      const d = drawdownAt(peak, e);
      if (d > max) max = d;
      if (pos !== undefined && Math.abs(pos[i]!) >= minPosition) exposed++;
    } else r = series[i]!;
    sum += r;
    if (r < 0) down += r * r;
  }
  // Sharpe (sample deviation) and Sortino (downside deviation against 0); see the header.
  let sharpe = 0;
  let sortino = 0;
  if (n >= 2 && perYear > 0) {
    const m = sum / n;
    let ss = 0;
    if (isEquity && returns === undefined) {
      let p = startEquity;
      for (let i = 0; i < n; i++) {
        const e = series[i]!;
        ss += (barReturn(p, e) - m) ** 2;
        p = e;
      }
    } else {
      const rs = returns ?? series;
      for (let i = 0; i < n; i++) ss += (rs[i]! - m) ** 2;
    }
    const sd = Math.sqrt(ss / (n - 1));
    if (sd > EPS) sharpe = (m / sd) * Math.sqrt(perYear);
    const dd = Math.sqrt(down / n);
    sortino = dd > EPS ? (m / dd) * Math.sqrt(perYear) : m > EPS ? Infinity : 0;
  }
  return { returns: returns ?? new Float64Array(0), sharpe, sortino, maxDrawdownPct: max, exposed };
}

/** A bar's return: e / prev - 1, 0 from a non-positive base or to an unreadable equity. */
const barReturn = (prev: number, e: number): number => (prev > 0 && Number.isFinite(e) ? e / prev - 1 : 0);

/**
 * The time a run covers: from its first bar's open to its last bar's close (`from` to `to`),
 * where its start and end equity sit. What CAGR compounds over, and what the summary and the
 * report read for "n/a under 30 days" (metrics-format.ts MIN_CAGR_SPAN_MS); 0 for an empty range.
 */
export function runSpanMs(run: { readonly from: number; readonly to: number }): number {
  const span = run.to - run.from;
  return span > 0 ? span : 0;
}

/**
 * Compound annual growth in percent over `spanMs`; 0 for a zero span or a non-positive start,
 * -100 when everything was lost. Computed in log space so short spans do not overflow early; a
 * span of minutes can still annualise to +Infinity, which metrics-json writes as "Infinity".
 */
export function cagrPct(startEquity: number, endEquity: number, spanMs: number): number {
  if (!(spanMs > 0) || !(startEquity > 0)) return 0;
  if (!(endEquity > 0)) return -100;
  const years = spanMs / YEAR_MS;
  return (Math.exp(Math.log(endEquity / startEquity) / years) - 1) * 100;
}
