/**
 * backtest/sweep/: parameter searches over runs (grid, random, TPE) on a worker pool. Imports the
 * folders before it (sources/ to output/).
 *
 * Parameter sweeps: every point of a grid (sweep-grid.ts) backtested over the same data, in
 * worker threads (sweep-pool.ts), then ranked by one metric (default Sharpe). Each worker builds
 * its own inputs from the serialisable job (sweep-job.ts). Points whose backtest failed are kept
 * apart with their error; points the schema rejected were already set aside by the grid. A grid
 * marked for a TPE search (tpeGrid) runs in rounds instead, each proposed from the results so far
 * (sweep-tpe-rounds.ts), and every entry says when it was tried (`trial`, `round`).
 *
 * CLI use:
 *   const axes = parseSweepSpecs(argv.sweep);                    // "fast=5:20:5 slow=20:60:10"
 *   const grid = buildGrid(definition, axes, baseParams);       // or sampleGrid(grid, trials, seed): a random search,
 *                                                                // or tpeGrid(grid, trials, seed): a TPE search
 *   const result = await runSweep(job, grid, { workers, rankBy: rankMetric(argv.rankBy), onProgress });
 *   io.out(formatSweepTable(result)); writeFile(json, JSON.stringify(sweepToJson(result), null, 2));
 */
import type { GridPoint, ParamValue, SkippedPoint, SweepGrid, SweepSearch, TrialOrder, TypedAxis } from './sweep-grid.ts';
import type { BarWindow, JobOutcome, JobSummary, SweepJob } from './sweep-job.ts';
import { createPool } from './sweep-pool.ts';
import type { JobPool, PoolOptions, Progress } from './sweep-pool.ts';
import { DEFAULT_RANK_METRIC, rankBy } from './sweep-rank.ts';
import type { RankMetric } from './sweep-rank.ts';
import { runTpeRounds } from './sweep-tpe-rounds.ts';

export { parseSweepSpec, parseSweepSpecs, SweepSpecError } from './sweep-spec.ts';
export type { SweepAxis } from './sweep-spec.ts';
export { buildGrid, typeAxes } from './sweep-grid.ts';
export type { GridPoint, RandomSearch, SkippedPoint, SweepGrid, SweepSearch, TpeSearch, TrialOrder, TypedAxis } from './sweep-grid.ts';
export { DEFAULT_SEARCH_SEED, gridSize, sampleGrid, SEARCH_KINDS, searchLine, SweepSearchError, tpeGrid } from './sweep-sample.ts';
export type { SearchKind } from './sweep-sample.ts';
export { DEFAULT_RANK_METRIC, RANK_METRICS, rankMetric } from './sweep-rank.ts';
export type { RankMetric } from './sweep-rank.ts';
export type { BacktestJob, DataSource, JobOutcome, JobSummary, RunJob, SweepJob, SweepSymbol } from './sweep-job.ts';
export { createPool, defaultWorkers } from './sweep-pool.ts';
export type { JobPool } from './sweep-pool.ts';

export interface SweepOptions extends PoolOptions {
  rankBy?: RankMetric;
  onProgress?: Progress;
  /** Only these bars of the data source (walk-forward folds). */
  window?: BarWindow;
  /** An existing pool to use (left open); otherwise one is made and closed. */
  pool?: JobPool;
}

/** One combination that ran: its rank, its axis values and params, what its run reported, and (TPE) when it was tried. */
export interface SweepEntry extends JobSummary, Partial<TrialOrder> {
  rank: number;
  values: Record<string, ParamValue>;
  params: Record<string, unknown>;
}

export interface SweepFailure extends Partial<TrialOrder> {
  values: Record<string, ParamValue>;
  error: string;
}

export interface SweepResult {
  strategy: string;
  /** The symbol; of several, their names joined by ','. */
  symbol: string;
  /** A sweep of several symbols in one account: their names, in the run's order (absent for one). */
  symbols?: string[];
  interval: string;
  rankBy: RankMetric;
  /** The swept parameters and their values, typed as in `values` (numbers for number params, decimal text for money). */
  axes: TypedAxis[];
  /** Ranked, best first. */
  entries: SweepEntry[];
  failed: SweepFailure[];
  skipped: SkippedPoint[];
  workers: number;
  /** A random or TPE search (the grid's points not drawn or proposed did not run); absent for a full grid. */
  search?: SweepSearch;
}

/** `symbols` for a result of a job of several symbols (nothing for one). */
export function symbolNames(job: SweepJob): { symbols?: string[] } {
  return job.symbols !== undefined && job.symbols.length > 1 ? { symbols: job.symbols.map((s) => s.symbol) } : {};
}

export async function runSweep(job: SweepJob, grid: SweepGrid, options: SweepOptions = {}): Promise<SweepResult> {
  const by = options.rankBy ?? DEFAULT_RANK_METRIC;
  const pool = options.pool ?? createPool(options);
  try {
    let runs: { point: GridPoint; outcome: JobOutcome; trial?: number; round?: number }[];
    let skipped = grid.skipped;
    let search = grid.search;
    if (grid.search?.kind === 'tpe') {
      const tpe = await runTpeRounds(job, grid, pool, { rankBy: by, ...(options.window ? { window: options.window } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      ({ runs, skipped, search } = tpe);
    } else {
      const jobs = grid.points.map((p: GridPoint) => ({ ...job, params: p.params, ...(options.window ? { window: options.window } : {}) }));
      const outcomes = await pool.run(jobs, options.onProgress);
      runs = outcomes.map((outcome, i) => ({ point: grid.points[i]!, outcome }));
    }
    const ok: Omit<SweepEntry, 'rank'>[] = [];
    const failed: SweepFailure[] = [];
    for (const { point, outcome: o, trial, round } of runs) {
      const when = trial === undefined || round === undefined ? {} : { trial, round };
      if (o.ok) {
        const { ok: _ok, ...rest } = o;
        ok.push({ values: point.values, params: point.params, ...rest, ...when });
      } else failed.push({ values: point.values, error: o.error, ...when });
    }
    return {
      strategy: job.strategy,
      symbol: job.symbol,
      ...symbolNames(job),
      interval: job.interval,
      rankBy: by,
      axes: grid.axes.map((a) => ({ name: a.name, values: a.values })),
      // A combination whose strategy was stopped by a failure ranks after every one that ran to
      // the end: its figures are of a stopped run (often an idle one, which outranks losers).
      entries: [...rankBy(ok.filter((e) => e.firstFailure === undefined), by), ...rankBy(ok.filter((e) => e.firstFailure !== undefined), by)].map((e, i) => ({ rank: i + 1, ...e })),
      failed,
      skipped,
      workers: pool.size,
      ...(search === undefined ? {} : { search }),
    };
  } finally {
    if (!options.pool) await pool.close();
  }
}
