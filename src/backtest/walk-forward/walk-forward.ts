/**
 * backtest/walk-forward/: folds, a sweep per train window, the stitched out-of-sample curve.
 * Imports the folders up to sweep/.
 *
 * Walk-forward optimisation: for each fold (walk-forward-plan.ts), sweep the grid on the train
 * window, take the best point by the rank metric, and backtest it on the test window that follows.
 * The out-of-sample figures are the test windows' only. Each window is its own backtest from the
 * start balances; the strategy warms up on the bars before the window, given as history (`warmed`:
 * the largest warmup across the grid less one), so it trades from the window's first bar. The
 * first train window has none before it and warms up inside. A random search runs its one sample
 * in every train window; a TPE search runs a search of its own in each (the same seed: the
 * windows' results differ, so do the points it proposes), and the test window gets its best.
 * What ran is told as it ran: a grid's `parameterSets` and `skipped` are what every train window
 * runs and skips; a TPE search's are its trials per window and the rejected combinations its
 * searches hit, and each fold counts its own (`trainRuns`, `trainFailures`, `trainSkipped`).
 *
 * Aggregate: returns compounded across folds, net PnL summed, Sharpe and Sortino averaged, the
 * worst drawdown, trades summed, win rate weighted by trades, and the mean train and test scores
 * of the rank metric (a test score far below the train score is the overfitting signal).
 *
 * `outOfSample`: the test windows' equity curves stitched end to end (walk-forward-stitch.ts).
 * Only the test runs return a curve (thinned to FOLD_CURVE_POINTS); the train runs of the sweeps
 * return their metrics alone, as a sweep's do.
 */
import { countJobBars } from '../sweep/sweep-data.ts';
import type { ParamValue, SkippedPoint, SweepGrid, SweepSearch, TpeSearch, TrialOrder } from '../sweep/sweep-grid.ts';
import type { BarWindow, SweepJob } from '../sweep/sweep-job.ts';
import { createPool } from '../sweep/sweep-pool.ts';
import type { PoolOptions } from '../sweep/sweep-pool.ts';
import { DEFAULT_RANK_METRIC, score } from '../sweep/sweep-rank.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import { runSweep, symbolNames } from '../sweep/sweep.ts';
import type { BacktestMetrics } from '../types.ts';
import { planFolds } from './walk-forward-plan.ts';
import type { FoldSpec } from './walk-forward-plan.ts';
import { FOLD_CURVE_POINTS, stitchFolds } from './walk-forward-stitch.ts';
import type { OutOfSample } from './walk-forward-stitch.ts';

export { planFolds, WalkForwardPlanError } from './walk-forward-plan.ts';
export type { FoldPlan, FoldSpec, FoldsPlan } from './walk-forward-plan.ts';
export { FOLD_CURVE_POINTS, stitchFolds } from './walk-forward-stitch.ts';
export type { OutOfSample } from './walk-forward-stitch.ts';

export interface WalkForwardOptions extends PoolOptions, FoldSpec {
  rankBy?: RankMetric;
  /** Bars in the data source; counted from it when absent. */
  totalBars?: number;
  /** Called as folds progress: fold number (1-based), folds, and jobs done/total within the fold. */
  onProgress?: (fold: number, folds: number, done: number, total: number) => void;
}

export interface FoldResult {
  index: number;
  train: BarWindow;
  test: BarWindow;
  /** The best train point, when any train run succeeded; of a TPE search, with when it was tried. */
  chosen?: { values: Record<string, ParamValue>; params: Record<string, unknown>; trainMetrics: BacktestMetrics } & Partial<TrialOrder>;
  /** The chosen point on the test window. */
  testResult?: {
    metrics: BacktestMetrics;
    from: number;
    to: number;
    barCount: number;
    /** The strategy was stopped by a failure on the test window (its figures are of a stopped run). */
    firstFailure?: string;
    /** The test run's warnings about itself (run-notices.ts). */
    notices?: string[];
    /** Its equity curve, thinned (JobSummary.equity); the JSON has it only chained, in `outOfSample`. */
    equity?: [number, number][];
  };
  /** Train runs that succeeded (the chosen point is the best of them). */
  trainRuns: number;
  /** Train runs that failed. */
  trainFailures: number;
  /**
   * Combinations the params schema rejected among those the train window tried (never run): a
   * grid's or random search's skipped ones, the same in every fold; of a TPE search, the trials
   * of its own search that hit one (they count among its trials).
   */
  trainSkipped: number;
  error?: string;
}

export interface WalkForwardAggregate {
  folds: number;
  /** Folds with a test result. */
  evaluated: number;
  compoundedReturnPct: number;
  netPnl: number;
  meanSharpe: number;
  meanSortino: number;
  worstDrawdownPct: number;
  trades: number;
  fills: number;
  winRatePct: number;
  profitableFolds: number;
  meanTrainScore: number;
  meanTestScore: number;
}

export interface WalkForwardResult {
  strategy: string;
  /** The symbol; of several, their names joined by ','. */
  symbol: string;
  /** A walk-forward of several symbols in one account: their names (absent for one); its bars are then periods. */
  symbols?: string[];
  interval: string;
  rankBy: RankMetric;
  totalBars: number;
  trainBars: number;
  testBars: number;
  stepBars: number;
  /** Bars after the last test window that no fold uses. */
  unusedBars: number;
  anchored: boolean;
  /**
   * Parameter sets each train window runs: the grid's points (a random search's drawn ones), its
   * schema-rejected ones not counted (`skipped`). Of a TPE search, the trials each window's search
   * tries, of the grid's `search.gridSize` combinations; a trial that hits a rejected one is
   * skipped, not run (each fold's `trainSkipped`).
   */
  parameterSets: number;
  /**
   * A random search's draw, the same points in every train window; or a TPE search, one per train
   * window with the same seed (its startup, batch and rounds, the same in each: they follow from
   * the trials); absent for a full grid.
   */
  search?: SweepSearch;
  folds: FoldResult[];
  aggregate: WalkForwardAggregate;
  /** The test windows' equity stitched end to end; its return is the aggregate's compounded one. */
  outOfSample: OutOfSample;
  /**
   * Combinations the params schema rejected among those the train windows tried, with the
   * schema's reason: a grid's (a random search's drawn) skipped ones, tried in every window; of a
   * TPE search, those any window's search tried (in grid order, without a trial: it differs by
   * window), each fold's count in its `trainSkipped`.
   */
  skipped: SkippedPoint[];
  workers: number;
}

const meanOf = (xs: number[]): number => {
  const finite = xs.filter(Number.isFinite);
  return finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : 0;
};

export function aggregateFolds(folds: readonly FoldResult[], by: RankMetric): WalkForwardAggregate {
  const tested = folds.filter((f) => f.testResult);
  const test = tested.map((f) => f.testResult!.metrics);
  const trades = test.reduce((n, m) => n + m.trades, 0);
  return {
    folds: folds.length,
    evaluated: tested.length,
    compoundedReturnPct: (test.reduce((g, m) => g * (1 + m.returnPct / 100), 1) - 1) * 100,
    netPnl: test.reduce((s, m) => s + m.netPnl, 0),
    meanSharpe: meanOf(test.map((m) => m.sharpe)),
    meanSortino: meanOf(test.map((m) => m.sortino)),
    worstDrawdownPct: test.reduce((w, m) => Math.max(w, m.maxDrawdownPct), 0),
    trades,
    fills: test.reduce((n, m) => n + m.fills, 0),
    winRatePct: trades ? test.reduce((s, m) => s + m.winRatePct * m.trades, 0) / trades : 0,
    profitableFolds: test.filter((m) => m.netPnl > 0).length,
    meanTrainScore: meanOf(tested.map((f) => f.chosen!.trainMetrics[by])),
    meanTestScore: meanOf(test.map((m) => m[by])),
  };
}

/**
 * `window` with the bars before it as the strategy's history, up to the warmup less one (onBar then
 * runs on the window's first bar): each window is its own backtest, and without them a strategy
 * spent its first warmup - 1 bars of every test window idle (Freqtrade's startup candles).
 */
export function warmed(window: BarWindow, warmup: number | undefined): BarWindow {
  const history = Math.min(Math.max(0, (warmup ?? 0) - 1), window.skip);
  return history > 0 ? { ...window, history } : window;
}

export async function runWalkForward(job: SweepJob, grid: SweepGrid, options: WalkForwardOptions): Promise<WalkForwardResult> {
  const by = options.rankBy ?? DEFAULT_RANK_METRIC;
  const totalBars = options.totalBars ?? countJobBars(job);
  const plan = planFolds(totalBars, options);
  const pool = createPool(options);
  const folds: FoldResult[] = [];
  // Each train window's TPE search as it ran.
  const searches: TpeSearch[] = [];
  // A TPE search's rejected combinations hit by any window's search, by their values.
  const tpe = grid.search?.kind === 'tpe';
  const skippedTried = new Set<string>();
  const valuesKey = (values: Readonly<Record<string, ParamValue>>): string => JSON.stringify(grid.axes.map((a) => values[a.name] ?? null));
  try {
    for (const fold of plan.folds) {
      const progress = (done: number, total: number) => options.onProgress?.(fold.index, plan.folds.length, done, total);
      const sweep = await runSweep(job, grid, { pool, window: warmed(fold.train, options.minWindowBars), rankBy: by, onProgress: (d, t) => progress(d, t + 1) });
      const result: FoldResult = { index: fold.index, train: fold.train, test: fold.test, trainRuns: sweep.entries.length, trainFailures: sweep.failed.length, trainSkipped: sweep.skipped.length };
      folds.push(result);
      for (const s of tpe ? sweep.skipped : []) skippedTried.add(valuesKey(s.values));
      if (sweep.search?.kind === 'tpe') searches.push(sweep.search);
      // The fold's jobs: its sweep's progress total (a TPE search's trials, skipped ones included) and the test run.
      const trainJobs = sweep.search?.kind === 'tpe' ? sweep.search.trials : sweep.entries.length + sweep.failed.length;
      const best = sweep.entries[0];
      if (!best) {
        result.error = `no successful train run${sweep.failed[0] ? `: ${sweep.failed[0].error}` : ''}`;
        continue;
      }
      result.chosen = { values: best.values, params: best.params, trainMetrics: best.metrics, ...(best.trial === undefined || best.round === undefined ? {} : { trial: best.trial, round: best.round }) };
      const [outcome] = await pool.run([{ ...job, params: best.params, window: warmed(fold.test, options.minWindowBars), curvePoints: FOLD_CURVE_POINTS }]);
      progress(trainJobs + 1, trainJobs + 1);
      if (outcome?.ok) {
        result.testResult = {
          metrics: outcome.metrics,
          from: outcome.from,
          to: outcome.to,
          barCount: outcome.barCount,
          ...(outcome.firstFailure === undefined ? {} : { firstFailure: outcome.firstFailure }),
          ...(outcome.notices === undefined ? {} : { notices: outcome.notices }),
          ...(outcome.equity === undefined ? {} : { equity: outcome.equity }),
        };
      }
      else result.error = `test run failed: ${outcome ? (outcome as { error: string }).error : 'no outcome'}`;
    }
  } finally {
    await pool.close();
  }
  const search = windowsSearch(grid.search, searches);
  return {
    strategy: job.strategy,
    symbol: job.symbol,
    ...symbolNames(job),
    interval: job.interval,
    rankBy: by,
    totalBars,
    trainBars: plan.trainBars,
    testBars: plan.testBars,
    stepBars: plan.stepBars,
    unusedBars: plan.unusedBars,
    anchored: options.anchored === true,
    parameterSets: grid.search?.kind === 'tpe' ? grid.search.trials : grid.points.length,
    ...(search === undefined ? {} : { search }),
    folds,
    aggregate: aggregateFolds(folds, by),
    outOfSample: stitchFolds(folds),
    skipped: tpe ? grid.skipped.filter((s) => skippedTried.has(valuesKey(s.values))).map((s) => ({ values: s.values, reason: s.reason })) : grid.skipped,
    workers: pool.size,
  };
}

/**
 * The search the train windows ran: a TPE search as its windows ran it (its startup, batch and
 * rounds follow from the trials, so they are the same in each; the rounds are left out should the
 * windows ever differ), else the grid's.
 */
function windowsSearch(planned: SweepSearch | undefined, ran: readonly TpeSearch[]): SweepSearch | undefined {
  const last = ran.at(-1);
  if (last === undefined) return planned;
  const { rounds, ...rest } = last;
  return rounds !== undefined && ran.every((s) => s.rounds === rounds) ? { ...rest, rounds } : rest;
}

/** The test score of a fold, higher is better (for callers that sort folds). */
export const foldScore = (f: FoldResult, by: RankMetric): number => (f.testResult ? score(f.testResult.metrics, by) : -Infinity);
