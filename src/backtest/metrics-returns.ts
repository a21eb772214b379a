/**
 * Return-series statistics of a backtest's equity curve: per-bar returns, annualised Sharpe and
 * Sortino, maximum drawdown and CAGR.
 *
 * Choice (documented in README/summary): Sharpe and Sortino are computed from PER-BAR returns and
 * annualised by sqrt(bars per year), with a 365-day year because the venue trades every day.
 * Per-bar rather than daily because sweeps rank short runs (a few thousand 1-minute bars is two
 * days: two daily samples say nothing). A bar with no position is a zero-return sample, which is
 * right for a risk-free rate of 0: idle cash earns nothing. Sharpe uses the sample standard
 * deviation (n - 1); Sortino the downside deviation sqrt(sum(min(r, 0)^2) / n) against a target
 * of 0 (Sortino & Price). Degenerate series give 0 (fewer than two returns, or zero variance),
 * except a Sortino with a positive mean and no losing bar, which is +Infinity (see metrics-json).
 */
import { INTERVAL_MS } from '../data/intervals.ts';

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
 * Float64Array: a year of 1-minute bars is 525,600 returns, no boxed numbers.
 */
export function barReturns(startEquity: number, equity: ArrayLike<number>): Float64Array {
  const out = new Float64Array(equity.length);
  let prev = startEquity;
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i]!;
    out[i] = prev > 0 && Number.isFinite(e) ? e / prev - 1 : 0;
    prev = e;
  }
  return out;
}

// Indexed loops over ArrayLike: the return columns are typed arrays, and these run once a
// backtest (often before the optimiser has seen them), where for...of would allocate per element.
function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return xs.length ? s / xs.length : 0;
}

/** Relative tolerance under which a deviation counts as zero (float noise on a flat curve). */
const EPS = 1e-12;

export function sharpeRatio(returns: ArrayLike<number>, perYear: number): number {
  if (returns.length < 2 || !(perYear > 0)) return 0;
  const m = mean(returns);
  let ss = 0;
  for (let i = 0; i < returns.length; i++) ss += (returns[i]! - m) ** 2;
  const sd = Math.sqrt(ss / (returns.length - 1));
  if (!(sd > EPS)) return 0;
  return (m / sd) * Math.sqrt(perYear);
}

export function sortinoRatio(returns: ArrayLike<number>, perYear: number): number {
  if (returns.length < 2 || !(perYear > 0)) return 0;
  const m = mean(returns);
  let ss = 0;
  for (let i = 0; i < returns.length; i++) {
    const r = returns[i]!;
    if (r < 0) ss += r * r;
  }
  const dd = Math.sqrt(ss / returns.length);
  if (!(dd > EPS)) return m > EPS ? Infinity : 0;
  return (m / dd) * Math.sqrt(perYear);
}

/**
 * Drawdown in percent below the running peak at each point (0 at a new high), the start equity
 * counting as the first peak. Positive numbers: 12.5 means 12.5% below the peak.
 */
export function drawdownSeries(startEquity: number, equity: readonly number[]): number[] {
  let peak = startEquity;
  return equity.map((e) => {
    if (e > peak) peak = e;
    return drawdownAt(peak, e);
  });
}

const drawdownAt = (peak: number, e: number): number => (peak > 0 ? Math.max(0, ((peak - e) / peak) * 100) : 0);

/** The largest of `drawdownSeries`, without building it. */
export function maxDrawdownPct(startEquity: number, equity: ArrayLike<number>): number {
  let max = 0;
  let peak = startEquity;
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i]!;
    if (e > peak) peak = e;
    const d = drawdownAt(peak, e);
    if (d > max) max = d;
  }
  return max;
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
