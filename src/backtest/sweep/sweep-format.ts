/**
 * Sweep output: the ranked terminal table and the JSON document (infinities as "Infinity",
 * metrics-json.ts). The table shows the swept values, the rank metric first, then the usual
 * figures; what was skipped or failed is summarised under it. A random or TPE search says so under
 * the first line (how many of the grid's points, which seed) and in the JSON's `search`; a TPE
 * search's table and JSON also give each point's trial and round (the order it was tried in), and
 * the line under the first says when the best was found.
 */
import { metricsToJson } from '../metrics/metrics-json.ts';
import type { JsonMetrics } from '../metrics/metrics-json.ts';
import { alignTable, fmtNum, fmtPct, fmtSignedPct } from '../metrics/metrics-format.ts';
import type { SkippedPoint, SweepSearch, TrialOrder, TypedAxis } from './sweep-grid.ts';
import { searchLine } from './sweep-sample.ts';
import type { SweepFailure, SweepResult } from './sweep.ts';
import { score, type RankMetric } from './sweep-rank.ts';
import type { BacktestMetrics } from '../types.ts';

const COLUMNS: { key: RankMetric; head: string; fmt: (m: BacktestMetrics) => string }[] = [
  { key: 'sharpe', head: 'Sharpe', fmt: (m) => fmtNum(m.sharpe) },
  { key: 'sortino', head: 'Sortino', fmt: (m) => fmtNum(m.sortino) },
  { key: 'returnPct', head: 'Return', fmt: (m) => fmtSignedPct(m.returnPct) },
  { key: 'netPnl', head: 'Net PnL', fmt: (m) => fmtNum(m.netPnl) },
  { key: 'cagrPct', head: 'CAGR', fmt: (m) => fmtSignedPct(m.cagrPct) },
  { key: 'calmar', head: 'Calmar', fmt: (m) => fmtNum(m.calmar) },
  { key: 'maxDrawdownPct', head: 'Max DD', fmt: (m) => fmtPct(m.maxDrawdownPct) },
  // As the summary: without a closed trade there is no rate (0.0% would read as every trade lost).
  { key: 'winRatePct', head: 'Win', fmt: (m) => (m.trades === 0 ? 'n/a' : fmtPct(m.winRatePct, 1)) },
  { key: 'profitFactor', head: 'PF', fmt: (m) => (m.trades === 0 ? 'n/a' : fmtNum(m.profitFactor)) },
  { key: 'trades', head: 'Trades', fmt: (m) => String(m.trades) },
  { key: 'exposurePct', head: 'Exposure', fmt: (m) => fmtPct(m.exposurePct, 1) },
  { key: 'feesPaid', head: 'Fees', fmt: (m) => fmtNum(m.feesPaid) },
  { key: 'endEquity', head: 'End equity', fmt: (m) => fmtNum(m.endEquity) },
];
/** Shown by default (besides the rank metric). */
const DEFAULT_SHOWN: RankMetric[] = ['sharpe', 'returnPct', 'maxDrawdownPct', 'winRatePct', 'profitFactor', 'trades'];

/** Columns for a table ranked by `by`: that metric first, marked with `*`. */
export function metricColumns(by: RankMetric): typeof COLUMNS {
  const first = COLUMNS.find((c) => c.key === by);
  const rest = COLUMNS.filter((c) => c.key !== by && DEFAULT_SHOWN.includes(c.key));
  return first ? [{ ...first, head: `${first.head}*` }, ...rest] : rest;
}

/** A swept value as the command line writes it: text as is, anything else as JSON. */
export const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Parameter values as `k=v k=v` (what the tables and problem lines show). */
export const valuesText = (values: Readonly<Record<string, unknown>>): string =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${valueText(v)}`)
    .join(' ');

export function formatProblems(skipped: readonly SkippedPoint[], failed: readonly SweepFailure[]): string[] {
  const lines: string[] = [];
  if (skipped.length) lines.push(`${skipped.length} combination(s) skipped, rejected by the params schema; e.g. ${valuesText(skipped[0]!.values)}: ${skipped[0]!.reason}`);
  if (failed.length) lines.push(`${failed.length} combination(s) failed; e.g. ${valuesText(failed[0]!.values)}: ${failed[0]!.error}`);
  return lines;
}

/** The ranked table (first `top` rows, default 20) and a summary line. */
export function formatSweepTable(result: SweepResult, options: { top?: number } = {}): string {
  const top = options.top ?? 20;
  const names = result.axes.map((a) => a.name);
  const cols = metricColumns(result.rankBy);
  // A TPE search's order: when each point was tried (a good point found late says the search was still learning).
  const order = result.search?.kind === 'tpe';
  const rows = [['#', ...(order ? ['Trial', 'Round'] : []), ...names, ...cols.map((c) => c.head)]];
  for (const e of result.entries.slice(0, top)) rows.push([String(e.rank), ...(order ? [String(e.trial ?? ''), String(e.round ?? '')] : []), ...names.map((n) => valueText(e.values[n])), ...cols.map((c) => c.fmt(e.metrics))]);
  const lead = order ? 3 : 1;
  const ran = result.entries.length + result.failed.length;
  const lines = [
    `Sweep of ${result.strategy} on ${result.symbol} ${result.interval}: ${ran} combination(s) run ${result.workers > 0 ? `on ${result.workers} worker thread(s)` : 'in this process'}, ranked by ${result.rankBy}${result.entries.length > top ? `; top ${top} of ${result.entries.length}` : ''}`,
    ...(result.search === undefined ? [] : [searchLine(result)!]),
    ...(order && result.entries[0]?.trial !== undefined ? [`the best was tried at trial ${result.entries[0].trial} of ${result.search?.trials ?? ''}, round ${result.entries[0].round ?? ''}`] : []),
    '',
    ...(result.entries.length ? [...alignTable(rows, (c) => c < lead || c >= lead + names.length), `* ranked by this column (--rank-by ${result.rankBy})`] : ['(no successful runs)']),
  ];
  const problems = formatProblems(result.skipped, result.failed);
  const stopped = result.entries.filter((e) => e.firstFailure !== undefined);
  if (stopped.length) {
    const e = stopped[0]!;
    problems.push(`${stopped.length} combination(s) had the strategy stopped by a failure, ranked last (their figures are of a stopped run); e.g. ${valuesText(e.values)}: ${e.firstFailure}`);
  }
  // The strategy's log lines are not kept in a sweep: how many, and the first, say where to look.
  const logged = result.entries.filter((e) => e.logs > 0);
  if (logged.length) {
    const e = logged[0]!;
    const all = logged.reduce((n, x) => n + x.logs, 0);
    problems.push(`${logged.length} combination(s) logged ${all} line(s) from the strategy (run one alone for its log file); e.g. ${valuesText(e.values)}: ${e.firstLog ?? ''}`);
  }
  // A combination whose warmup the range never got past (run-notices.ts) ranks on an idle run.
  const warned = result.entries.filter((e) => e.notices !== undefined && e.notices.length > 0);
  if (warned.length) {
    const e = warned[0]!;
    problems.push(`Warning: ${warned.length} combination(s) never traded past the strategy's warmup (their figures are of an idle run); e.g. ${valuesText(e.values)}: ${e.notices?.[0] ?? ''}`);
  }
  const edge = edgeNote(result);
  if (edge !== undefined) problems.push(edge);
  if (problems.length) lines.push('', ...problems);
  return lines.join('\n');
}

/**
 * Where the best point sits on the first or last value of a numeric axis of three values or more:
 * the optimum may lie beyond the range swept (a wider range may do better, or the metric keeps
 * rising that way: an edge best is weak evidence). One note naming the axes, or undefined.
 *
 * Points tied with the best (the same score and net PnL; given `rankBy`) rank after it by grid
 * order alone: an axis counts only where they all sit on the same edge. When none does and there
 * are ties (often a strategy that traded at none of them), the note says the best is first by
 * grid order alone, rather than pointing at an edge the order picked.
 */
export function edgeNote(result: Pick<SweepResult, 'axes' | 'entries'> & { readonly rankBy?: RankMetric }): string | undefined {
  const best = result.entries[0];
  if (best === undefined) return undefined;
  const by = result.rankBy;
  const ties = by === undefined ? [] : result.entries.slice(1).filter((e) => score(e.metrics, by) === score(best.metrics, by) && e.metrics.netPnl === best.metrics.netPnl);
  const tied = [best, ...ties];
  const edges: string[] = [];
  for (const a of result.axes) {
    if (a.values.length < 3 || !a.values.every((v) => typeof v === 'number')) continue;
    const v = best.values[a.name];
    if (!tied.every((e) => e.values[a.name] === v)) continue;
    const nums = a.values as readonly number[];
    const low = Math.min(...nums);
    const high = Math.max(...nums);
    if (v === low) edges.push(`${a.name}=${valueText(v)} (its smallest)`);
    else if (v === high) edges.push(`${a.name}=${valueText(v)} (its largest)`);
  }
  const tie = ties[0];
  if (edges.length === 0) return by !== undefined && tie !== undefined ? `Note: the best ties with ${ties.length} other point(s) on ${by} and net PnL (e.g. ${valuesText(tie.values)}): it is first by the grid's order alone.` : undefined;
  return `Note: the best sits at the edge of the grid on ${edges.join(', ')}: the optimum may lie beyond the range swept; widen it that way before trusting the choice.`;
}

/** The top entry's swept values as `--param` arguments (what reruns it alone), or undefined with no entry that ran to the end. */
export function bestParamArgs(result: SweepResult): string | undefined {
  const top = result.entries[0];
  if (top === undefined || top.firstFailure !== undefined) return undefined;
  return result.axes.map((a) => `--param ${a.name}=${valueText(top.values[a.name])}`).join(' ');
}

export interface SweepJson {
  strategy: string;
  symbol: string;
  /** A sweep of several symbols in one account: their names (`symbol` joins them). */
  symbols?: string[];
  interval: string;
  rankBy: RankMetric;
  /** Each axis's values of its parameter's type, as the results' `values` hold them. */
  axes: TypedAxis[];
  /** `trial` and `round`: when a TPE search tried the point (absent otherwise). */
  results: ({ rank: number; values: Record<string, unknown>; params: Record<string, unknown>; metrics: JsonMetrics; bars: number; from: number; to: number; denials: number; strategyFailures: number; firstFailure?: string; logs: number; firstLog?: string; notices?: string[] } & Partial<TrialOrder>)[];
  failed: SweepFailure[];
  skipped: SkippedPoint[];
  /** A random or TPE search: how many points of the grid ran, with which seed, and for TPE its startup, batch and rounds (absent: the whole grid ran). */
  search?: SweepSearch;
}

export function sweepToJson(result: SweepResult): SweepJson {
  return {
    strategy: result.strategy,
    symbol: result.symbol,
    ...(result.symbols === undefined ? {} : { symbols: result.symbols }),
    interval: result.interval,
    rankBy: result.rankBy,
    axes: result.axes,
    results: result.entries.map((e) => ({
      rank: e.rank,
      ...(e.trial === undefined || e.round === undefined ? {} : { trial: e.trial, round: e.round }),
      values: e.values,
      params: e.params,
      metrics: metricsToJson(e.metrics),
      bars: e.barCount,
      from: e.from,
      to: e.to,
      denials: e.denials,
      strategyFailures: e.strategyFailures,
      ...(e.firstFailure === undefined ? {} : { firstFailure: e.firstFailure }),
      logs: e.logs,
      ...(e.firstLog === undefined ? {} : { firstLog: e.firstLog }),
      ...(e.notices === undefined ? {} : { notices: e.notices }),
    })),
    failed: result.failed,
    skipped: result.skipped,
    ...(result.search === undefined ? {} : { search: result.search }),
  };
}
