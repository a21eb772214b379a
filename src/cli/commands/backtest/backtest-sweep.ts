/**
 * `halyard backtest ... --sweep fast=5:20:5 slow=20:60:10 [--rank-by sharpe] [--workers N]
 *  [--search random|tpe --trials N [--seed S]]
 *  [--walk-forward --folds 4 [--train-bars N] [--test-bars N] [--anchored]]`
 *
 * Runs the strategy over a parameter grid on worker threads and ranks the results
 * (src/backtest/sweep/sweep.ts), and writes the JSON and an HTML report of the grid beside it
 * (src/backtest/report/sweep-report.ts; --report sets its file); with --walk-forward, optimises on each train window and reports the
 * chosen parameters out of sample on the window after it and their combined out-of-sample equity
 * curve (src/backtest/walk-forward/walk-forward.ts, walk-forward-stitch.ts).
 * `--search random` runs `--trials` distinct points of the grid drawn with `--seed` (default 1;
 * sweep-sample.ts) instead of every one; with --walk-forward every train window runs that same sample.
 * `--search tpe` runs `--trials` points proposed round by round from the results so far
 * (sweep-tpe-rounds.ts); with --walk-forward each train window runs a TPE search of its own.
 * Several symbols (`symbols`, from backtest-several.ts) run in one account at every point; the
 * job carries each one's rules and series, and walk-forward windows count periods.
 */
import { makeDirs } from '../../../fs/make-dirs.ts';
import path from 'node:path';
import { buildGrid, DEFAULT_SEARCH_SEED, parseSweepSpecs, rankMetric, runSweep, sampleGrid, tpeGrid, type DataSource, type SearchKind, type SweepJob } from '../../../backtest/sweep/sweep.ts';
import { bestParamArgs, formatSweepTable, sweepToJson, valuesText } from '../../../backtest/sweep/sweep-format.ts';
import { runWalkForward, WalkForwardPlanError } from '../../../backtest/walk-forward/walk-forward.ts';
import type { SweepGrid } from '../../../backtest/sweep/sweep-grid.ts';
import { resolveSetup } from '../../../strategy/define.ts';
import { warmupRunBars } from '../../../backtest/sources/warmup-span.ts';
import type { Interval } from '../../../strategy/types.ts';
import { parseParams } from '../../../strategy/params.ts';
import { formatWalkForward, walkForwardSearchLine, walkForwardToJson } from '../../../backtest/walk-forward/walk-forward-format.ts';
import { writeJsonFile } from '../../../data/json-file.ts';
import { jsonReplacer } from '../../../backtest/metrics/metrics-json.ts';
import { resolveFillModel } from '../../../backtest/run/fill-model.ts';
import type { FillModel } from '../../../backtest/run/fill-model.ts';
import { reportFileFor, writeSweepReport } from '../../../backtest/report/sweep-report.ts';
import type { SweepReportContext } from '../../../backtest/report/sweep-report.ts';
import { writeWalkForwardReport } from '../../../backtest/report/walk-forward-report.ts';
import type { AnyStrategyDefinition } from '../../../strategy/define.ts';
import { UsageError } from '../../errors.ts';
import { ioStep } from '../../paths.ts';
import { runProgress } from '../../run-progress.ts';
import type { CliIo } from '../../io.ts';

export interface SweepArgs {
  sweep?: string[];
  rankBy?: string;
  workers?: number;
  walkForward?: boolean;
  folds?: number;
  trainBars?: number;
  testBars?: number;
  anchored?: boolean;
  /** `grid` (every point, the default), `random` (`trials` points drawn with `seed`) or `tpe` (`trials` points proposed from the results so far). */
  search?: SearchKind;
  trials?: number;
  seed?: number;
}

export interface SweepContext {
  strategyRef: string;
  strategy: AnyStrategyDefinition;
  params: Record<string, unknown>;
  symbol: string;
  interval: string;
  journalFile: string;
  from?: number | undefined;
  to?: number | undefined;
  fees: { maker: string; taker: string };
  balances: Record<string, string>;
  fillModel: FillModel;
  outDir: string;
  json?: string | undefined;
  /** The HTML report's file (default: the JSON's name with .html). */
  report?: string | undefined;
  /** The journal's interval when it is aggregated into `interval` (journal-series.ts). */
  storedInterval?: string;
  /** Fills are played on the stored bars (`--detail`), or on `detailInterval`'s made from them. */
  detail?: boolean;
  detailInterval?: string;
  /**
   * Several symbols in one account (`symbol` joins their names with ','): each one's exchangeInfo
   * object and, where its series is not the run's interval as stored, its stored interval and --detail.
   */
  symbols?: readonly { symbol: string; instrument: unknown; storedInterval?: string; detail?: boolean; detailInterval?: string }[];
}

/** `instrument`: the symbol's exchangeInfo object (spec 2.2) as the workers parse it. */
export async function runSweepCommand(io: CliIo, args: SweepArgs, ctx: SweepContext, instrument: unknown): Promise<void> {
  let grid;
  let rankBy;
  try {
    rankBy = rankMetric(args.rankBy);
    grid = buildGrid(ctx.strategy, parseSweepSpecs(args.sweep ?? []), ctx.params);
    if (args.search === 'random') grid = sampleGrid(grid, args.trials ?? 0, args.seed ?? DEFAULT_SEARCH_SEED);
    if (args.search === 'tpe') grid = tpeGrid(grid, args.trials ?? 0, args.seed ?? DEFAULT_SEARCH_SEED);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (grid.points.length === 0) throw new UsageError(`--sweep gives no valid parameter set${grid.search?.kind === 'random' ? ` among the ${grid.search.trials} drawn (try another --seed or more --trials)` : ''}: ${grid.skipped.map((s) => s.reason).join('; ')}`);
  const data = (stored: string | undefined, detail: boolean | undefined, detailInterval: string | undefined): DataSource => ({
    kind: 'journal',
    path: path.resolve(ctx.journalFile),
    ...(ctx.from === undefined ? {} : { from: ctx.from }),
    ...(ctx.to === undefined ? {} : { to: ctx.to }),
    ...(stored === undefined ? {} : { stored }),
    ...(detail === true ? { detail: true, ...(detailInterval === undefined ? {} : { detailInterval }) } : {}),
  });
  const several = ctx.symbols !== undefined && ctx.symbols.length > 1 ? ctx.symbols : undefined;
  const job: SweepJob = {
    strategy: ctx.strategyRef,
    baseParams: ctx.params,
    symbol: ctx.symbol,
    interval: ctx.interval,
    data: data(ctx.storedInterval, ctx.detail, ctx.detailInterval),
    instrument,
    // Each symbol's own source only where its series differs from the job's (stored at another interval, --detail).
    ...(several === undefined ? {} : { symbols: several.map((s) => ({ symbol: s.symbol, instrument: s.instrument, ...(s.storedInterval === undefined && s.detail !== true ? {} : { data: data(s.storedInterval, s.detail, s.detailInterval) }) })) }),
    fees: ctx.fees,
    balances: ctx.balances,
    fillModel: ctx.fillModel as Record<string, unknown>,
  };
  const workers = args.workers;
  const base = `${ctx.strategy.name}-${several === undefined ? ctx.symbol : several.map((s) => s.symbol).join('+')}-${ctx.interval}`;
  if (args.walkForward) {
    const progress = runProgress();
    const warmup = largestWarmup(ctx.strategy, grid, ctx.interval as Interval);
    const result = await runWalkForward(job, grid, {
      folds: args.folds ?? 4,
      ...(warmup.bars > 0 ? { minWindowBars: warmup.bars, minWindowSource: warmup.source } : {}),
      ...(args.trainBars === undefined ? {} : { trainBars: args.trainBars }),
      ...(args.testBars === undefined ? {} : { testBars: args.testBars }),
      ...(args.anchored ? { anchored: true } : {}),
      rankBy,
      ...(workers === undefined ? {} : { workers }),
      onProgress: (fold, folds, done, total) => progress.update(done, total, `fold ${fold}/${folds}`),
    })
      .catch((e: unknown) => {
        // A plan the data cannot hold is bad input; anything else is a failure of the run.
        if (e instanceof WalkForwardPlanError) throw new UsageError(e.message);
        throw e;
      })
      .finally(() => progress.stop());
    const file = ctx.json ?? path.join(ctx.outDir, `${base}-walk-forward.json`);
    await write(file, walkForwardToJson(result));
    const report = ctx.report ?? reportFileFor(file);
    await ioStep('write the HTML report', report, () => writeWalkForwardReport(report, { result, context: reportContext(ctx, grid) }));
    const search = walkForwardSearchLine(result.search);
    io.out([formatWalkForward(result), '', ...(search === undefined ? [] : [search]), `json    ${file}`, `report  ${report}`].join('\n'));
    return;
  }
  const progress = runProgress();
  const result = await runSweep(job, grid, { rankBy, ...(workers === undefined ? {} : { workers }), onProgress: (done, total) => progress.update(done, total) }).finally(() => progress.stop());
  const file = ctx.json ?? path.join(ctx.outDir, `${base}-sweep.json`);
  await write(file, sweepToJson(result));
  const report = ctx.report ?? reportFileFor(file);
  await ioStep('write the HTML report', report, () => writeSweepReport(report, { result, context: reportContext(ctx, grid) }));
  const best = bestParamArgs(result);
  io.out([formatSweepTable(result, { top: 20 }), '', ...(best ? [`best    ${best}  (run it alone for its report)`] : []), `json    ${file}`, `report  ${report}`].join('\n'));
}

/** The run's context for the report's header: the base params without the swept ones (the axes stand in for them). */
function reportContext(ctx: SweepContext, grid: SweepGrid): SweepReportContext {
  const swept = new Set(grid.axes.map((a) => a.name));
  return {
    baseParams: Object.fromEntries(Object.entries(ctx.params).filter(([k]) => !swept.has(k))),
    fees: ctx.fees,
    fillModel: { ...resolveFillModel(ctx.fillModel) },
    balances: ctx.balances,
    data: ctx.journalFile,
    ...(ctx.from === undefined ? {} : { from: ctx.from }),
    ...(ctx.to === undefined ? {} : { to: ctx.to }),
  };
}

/**
 * The longest warmup across the grid's parameter sets (a walk-forward window must be longer), and
 * where it comes from for the message: the strategy, and the set that needs it when they differ.
 * In the run's bars: a warmup per interval counts a longer interval's bars in the run's (warmup-span.ts).
 */
export function largestWarmup(strategy: AnyStrategyDefinition, grid: SweepGrid, interval: Interval): { bars: number; source: string } {
  let bars = 0;
  let at: Record<string, unknown> = {};
  const warmups = new Set<number>();
  for (const point of grid.points) {
    let warmup: number;
    try {
      warmup = warmupRunBars(resolveSetup(strategy, parseParams(strategy.name, strategy.params, point.params) as never), interval);
    } catch {
      continue; // such a set fails in its own run, which reports it
    }
    warmups.add(warmup);
    if (warmup > bars) {
      bars = warmup;
      at = point.values;
    }
  }
  const values = valuesText(at);
  const source = warmups.size > 1 ? `${strategy.name} at ${values}, the largest across the grid` : values === '' ? strategy.name : `${strategy.name}, the same at every parameter set`;
  return { bars, source };
}

async function write(file: string, value: unknown): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  await ioStep('create the folder', dir, () => makeDirs(dir));
  // As a run's JSON: indented, each entry of a large array (results, a fold's curve) on a line of its own.
  await ioStep('write the JSON file', file, () => writeJsonFile(file, value, { replacer: jsonReplacer, onlyNonFinite: true, entryPerLine: true }));
}
