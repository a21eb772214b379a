/**
 * Walk-forward output: a per-fold table (chosen params, train score, test figures) with the
 * aggregate under it, and the JSON document (infinities as "Infinity", metrics-json.ts). Of a TPE
 * search, each fold's chosen point also says at which trial of its train window's search it was
 * found, and walkForwardSearchLine that every window searched on its own; the first line gives its
 * trials per window and the grid's size (not the grid's points, which no window all ran), and the
 * skipped line counts the trials each window's search spent on combinations the schema rejects.
 * Under the aggregate, the combined out-of-sample curve's return and drawdown (outOfSampleLine);
 * the JSON carries the curve, and each fold's counts of train runs, failures and skipped points.
 */
import { metricsToJson, jsonNumber } from '../metrics/metrics-json.ts';
import type { JsonMetrics, JsonNumber } from '../metrics/metrics-json.ts';
import { alignTable, fmtNum, fmtPct, fmtSigned, fmtSignedPct, fmtTime } from '../metrics/metrics-format.ts';
import { valuesText } from '../sweep/sweep-format.ts';
import type { SweepSearch, TrialOrder } from '../sweep/sweep-grid.ts';
import { searchLine } from '../sweep/sweep-sample.ts';
import type { OutOfSample, WalkForwardAggregate, WalkForwardResult } from './walk-forward.ts';

/** How the train windows searched, for under the table: one random sample in all, or a TPE search in each. */
export function walkForwardSearchLine(search: SweepSearch | undefined): string | undefined {
  const line = searchLine({ search });
  if (line === undefined || search === undefined) return undefined;
  return search.kind === 'tpe' ? `${line}; a search of its own in every train window (the same seed), each test window running its train window's best` : `${line}, the same points in every train window`;
}

export function formatWalkForward(result: WalkForwardResult): string {
  const by = result.rankBy;
  // A TPE search: the trial of its train window's search that found each fold's choice.
  const tpe = result.search?.kind === 'tpe';
  const rows = [['Fold', 'Test from', 'Test to', 'Chosen params', ...(tpe ? ['Trial'] : []), `Train ${by}`, `Test ${by}`, 'Return', 'Max DD', 'Trades', 'Net PnL']];
  for (const f of result.folds) {
    const t = f.testResult;
    const params = f.chosen ? valuesText(f.chosen.values) || '(base)' : '-';
    const trial = tpe ? [f.chosen?.trial === undefined ? '-' : String(f.chosen.trial)] : [];
    rows.push(
      t
        ? [String(f.index), fmtTime(t.from), fmtTime(t.to), params, ...trial, fmtNum(f.chosen!.trainMetrics[by]), fmtNum(t.metrics[by]), fmtSignedPct(t.metrics.returnPct), fmtPct(t.metrics.maxDrawdownPct), String(t.metrics.trades), fmtSigned(t.metrics.netPnl)]
        : [String(f.index), '-', '-', params, ...trial, f.chosen ? fmtNum(f.chosen.trainMetrics[by]) : '-', '-', '-', '-', '-', f.error ?? 'no result'],
    );
  }
  const a = result.aggregate;
  const sets = result.search?.kind === 'tpe' ? `${result.search.trials} TPE trial(s) each, of the grid's ${result.search.gridSize} combination(s)` : `${result.parameterSets} parameter set(s)`;
  const lines = [
    // Of several symbols, windows count periods (the bars of every symbol opening together).
    `Walk-forward of ${result.strategy} on ${result.symbol} ${result.interval}: ${result.folds.length} fold(s) of ${sets}, ${result.anchored ? 'anchored' : 'rolling'} train ${result.trainBars} ${result.symbols === undefined ? 'bars' : 'periods'}, test ${result.testBars}, step ${result.stepBars} (of ${result.totalBars}); optimised for ${by}`,
    '',
    ...alignTable(rows, (c) => c === 0 || c >= 4),
    '',
    ...formatAggregate(a, by),
    outOfSampleLine(result.outOfSample),
  ];
  // What a test run said about itself: a strategy stopped by a failure, a warmup it never got past.
  for (const f of result.folds) {
    const t = f.testResult;
    if (t?.firstFailure !== undefined) lines.push(`Fold ${f.index}: the strategy was stopped on the test window (its figures are of a stopped run): ${t.firstFailure}`);
    for (const n of t?.notices ?? []) lines.push(`Warning: fold ${f.index}: ${n}`);
  }
  if (result.unusedBars > 0) lines.push(`${result.unusedBars} bar(s) after the last test window are not used by any fold`);
  const skipped = skippedLine(result);
  if (skipped !== undefined) lines.push(skipped);
  return lines.join('\n');
}

/**
 * What the params schema rejected among what the train windows tried: a grid's skipped
 * combinations (the same in every window), or the trials of each window's TPE search that hit one.
 */
function skippedLine(result: WalkForwardResult): string | undefined {
  const first = result.skipped[0];
  if (first === undefined) return undefined;
  if (result.search?.kind !== 'tpe') return `${result.skipped.length} grid combination(s) skipped by the params schema (e.g. ${first.reason})`;
  const { trials } = result.search;
  const total = result.folds.reduce((n, f) => n + f.trainSkipped, 0);
  const each = result.folds.map((f) => `fold ${f.index}: ${f.trainSkipped} of ${trials}`).join(', ');
  return `${total} TPE trial(s) skipped across the train windows, rejected by the params schema (${each}; e.g. ${first.reason})`;
}

export function formatAggregate(a: WalkForwardAggregate, by: string): string[] {
  return [
    `Out of sample (${a.evaluated} of ${a.folds} folds): return ${fmtSignedPct(a.compoundedReturnPct)} compounded, net PnL ${fmtSigned(a.netPnl)}, worst drawdown ${fmtPct(a.worstDrawdownPct)}`,
    `  mean Sharpe ${fmtNum(a.meanSharpe)}, mean Sortino ${fmtNum(a.meanSortino)}, ${a.trades} trades, win rate ${fmtPct(a.winRatePct, 1)}, ${a.profitableFolds} profitable fold(s)`,
    `  ${by}: mean train ${fmtNum(a.meanTrainScore)} vs mean test ${fmtNum(a.meanTestScore)}`,
  ];
}

/**
 * The stitched curve's figures: its return is the compounded one above; its drawdown, taken across
 * the joins, can be deeper than the worst fold's.
 */
export function outOfSampleLine(o: OutOfSample): string {
  if (o.equity.length === 0) return '  combined out-of-sample curve: none (no test window ran)';
  return `  combined out-of-sample curve (the test windows chained end to end): return ${fmtSignedPct(o.returnPct)}, max drawdown ${fmtPct(o.maxDrawdownPct)}`;
}

export interface WalkForwardJson {
  strategy: string;
  symbol: string;
  /** A walk-forward of several symbols in one account: their names (`symbol` joins them); the bar counts and windows are then periods. */
  symbols?: string[];
  interval: string;
  rankBy: string;
  totalBars: number;
  trainBars: number;
  testBars: number;
  stepBars: number;
  unusedBars: number;
  anchored: boolean;
  search?: SweepSearch;
  folds: {
    index: number;
    trainWindow: { skip: number; take: number };
    testWindow: { skip: number; take: number };
    /** Train runs that succeeded and failed, and combinations the params schema rejected among those the train window tried (of a TPE search, its trials that hit one). */
    trainRuns: number;
    trainFailures: number;
    trainSkipped: number;
    /** `trial` and `round`: when the train window's TPE search tried it. */
    chosen: ({ values: Record<string, unknown>; params: Record<string, unknown>; trainMetrics: JsonMetrics } & Partial<TrialOrder>) | null;
    testResult: { metrics: JsonMetrics; from: number; to: number; bars: number; firstFailure?: string; notices?: string[] } | null;
    error: string | null;
  }[];
  aggregate: Record<keyof WalkForwardAggregate, JsonNumber>;
  /** The test windows' equity stitched end to end: [time ms, equity] pairs (walk-forward-stitch.ts). */
  outOfSample: { equity: [number, number][]; returnPct: JsonNumber; maxDrawdownPct: JsonNumber };
}

export function walkForwardToJson(r: WalkForwardResult): WalkForwardJson {
  const aggregate = {} as Record<keyof WalkForwardAggregate, JsonNumber>;
  for (const [k, v] of Object.entries(r.aggregate)) aggregate[k as keyof WalkForwardAggregate] = jsonNumber(v);
  return {
    strategy: r.strategy,
    symbol: r.symbol,
    ...(r.symbols === undefined ? {} : { symbols: r.symbols }),
    interval: r.interval,
    rankBy: r.rankBy,
    totalBars: r.totalBars,
    trainBars: r.trainBars,
    testBars: r.testBars,
    stepBars: r.stepBars,
    unusedBars: r.unusedBars,
    anchored: r.anchored,
    ...(r.search === undefined ? {} : { search: r.search }),
    folds: r.folds.map((f) => ({
      index: f.index,
      trainWindow: f.train,
      testWindow: f.test,
      trainRuns: f.trainRuns,
      trainFailures: f.trainFailures,
      trainSkipped: f.trainSkipped,
      chosen: f.chosen
        ? { values: f.chosen.values, params: f.chosen.params, trainMetrics: metricsToJson(f.chosen.trainMetrics), ...(f.chosen.trial === undefined || f.chosen.round === undefined ? {} : { trial: f.chosen.trial, round: f.chosen.round }) }
        : null,
      testResult: f.testResult
        ? {
            metrics: metricsToJson(f.testResult.metrics),
            from: f.testResult.from,
            to: f.testResult.to,
            bars: f.testResult.barCount,
            ...(f.testResult.firstFailure === undefined ? {} : { firstFailure: f.testResult.firstFailure }),
            ...(f.testResult.notices === undefined ? {} : { notices: f.testResult.notices }),
          }
        : null,
      error: f.error ?? null,
    })),
    aggregate,
    outOfSample: { equity: r.outOfSample.equity, returnPct: jsonNumber(r.outOfSample.returnPct), maxDrawdownPct: jsonNumber(r.outOfSample.maxDrawdownPct) },
  };
}
