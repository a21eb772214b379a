/**
 * The combined out-of-sample equity curve of a walk-forward: the test windows' curves stitched end
 * to end, the standard output of a walk-forward analysis. Each test window is its own backtest
 * from the start balances, so the curves are chained by their relative returns: the first fold's
 * as it ran (from its start equity), each next one scaled so it starts where the one before ended.
 * Its return is therefore the aggregate's compounded return. A gap between two test windows (a
 * step longer than the test, a fold with no test result) is no point at all: the line holds the
 * last equity until the next window starts, a flat step, never a slope drawn across time nothing
 * was traded in.
 *
 * Its maximum drawdown is taken on the stitched curve: a fall that starts in one fold and goes on
 * in the next, or a fold that falls below an earlier fold's peak, counts whole, so it can be
 * deeper than any one fold's (the aggregate's worst drawdown). The test runs return their curves
 * thinned (equity-thin.ts keeps each stretch's extremes), so it is measured at those points.
 * Test windows that overlap (a step shorter than the test, from the library only) are chained in
 * fold order all the same: their times then go back at the joins.
 */
import { maxDrawdownPct } from '../metrics/metrics-returns.ts';
import type { BacktestMetrics } from '../types.ts';

/** Points each test run returns of its curve (BacktestJob.curvePoints): the JSON and the page stay light. */
export const FOLD_CURVE_POINTS = 2_000;

export interface OutOfSample {
  /** [time ms, equity], in fold order; the first fold's start equity first. */
  equity: [number, number][];
  /** Last equity over the first, as a percentage: the aggregate's compounded return. */
  returnPct: number;
  /** The deepest fall below a running peak of the stitched curve, a positive percentage. */
  maxDrawdownPct: number;
}

/** What stitching reads of a fold: its test run, when it has one. */
export interface StitchFold {
  testResult?: { from: number; to: number; metrics: Pick<BacktestMetrics, 'startEquity' | 'returnPct'>; equity?: readonly (readonly [number, number])[] };
}

/**
 * A fold's curve: the one its run returned, or (a runner that returns none, as a test's fake) its
 * start equity at `from` and the end its return gives at `to`.
 */
function curveOf(t: NonNullable<StitchFold['testResult']>): readonly (readonly [number, number])[] {
  if (t.equity !== undefined && t.equity.length > 0) return t.equity;
  const start = t.metrics.startEquity;
  return [[t.from, start], [t.to, start * (1 + t.metrics.returnPct / 100)]];
}

/** The folds' test curves chained (see the header); folds without a test result, or with no positive start equity, are left out. */
export function stitchFolds(folds: readonly StitchFold[]): OutOfSample {
  const equity: [number, number][] = [];
  for (const f of folds) {
    if (f.testResult === undefined) continue;
    const curve = curveOf(f.testResult);
    const base = curve[0]![1];
    if (!(base > 0) || !Number.isFinite(base)) continue;
    // Where the previous fold ended; the first fold keeps its own scale.
    const level = equity.length > 0 ? equity[equity.length - 1]![1] : base;
    const scale = level / base;
    for (const [time, value] of curve) equity.push([time, value * scale]);
  }
  const first = equity[0]?.[1];
  const last = equity[equity.length - 1]?.[1];
  if (first === undefined || last === undefined) return { equity, returnPct: 0, maxDrawdownPct: 0 };
  return { equity, returnPct: (last / first - 1) * 100, maxDrawdownPct: maxDrawdownPct(first, equity.map((p) => p[1])) };
}
