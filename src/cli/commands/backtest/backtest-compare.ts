/**
 * `halyard backtest --strategy A --strategy B ...` (or `--strategy A,B`): several strategies, each
 * backtested on its own as `--strategy A` alone would be (the same bars, rules, fees, balances and
 * fill model; its summary, JSON and report under --out-dir), one after the other, then compared in
 * one table ranked by --rank-by (default sharpe), as Freqtrade's `--strategy-list` does; a
 * strategy stopped by a failure after the others, as a sweep ranks its stopped runs.
 *
 * A `--param name=value` applies to every strategy whose parameters include `name` (a strategy
 * without it runs on its own default); one that no strategy has is refused, as a misspelt one is
 * for one strategy. Every strategy is loaded and its parameters checked before the first runs, so
 * a typo in the last one costs no run. A sweep or a walk-forward optimises one strategy: refused
 * with several.
 *
 * The comparison is also written, as a JSON document (compare-result.ts) and an HTML report
 * (report/compare-report.ts: the table with links to each run's files, the equity curves and
 * drawdowns overlaid): where `--json` and `--report` say, else under --out-dir named
 * `compare-<strategies>-<symbols>-<interval>-<from>-<to>` as a run's files are (backtest.ts
 * writeRunFiles). The runs write theirs under --out-dir. Made from what each run handed back (its
 * metrics and overview: run-overview.ts), not from its files read back.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { paramNames } from '../../../backtest/sources/cli-input.ts';
import { comparisonSetup, comparisonToJson, rankComparison } from '../../../backtest/compare/compare-result.ts';
import type { ComparedStrategy, Comparison } from '../../../backtest/compare/compare-result.ts';
import { jsonReplacer } from '../../../backtest/metrics/metrics-json.ts';
import { writeCompareReport } from '../../../backtest/report/compare-report.ts';
import { writeJsonFile } from '../../../data/json-file.ts';
import { formatTime } from '../../../data/time-text.ts';
import { makeDirs } from '../../../fs/make-dirs.ts';
import { checkOutputFile, ioStep } from '../../paths.ts';
import { alignTable, fmtTime } from '../../../backtest/metrics/metrics-format.ts';
import { metricColumns } from '../../../backtest/sweep/sweep-format.ts';
import { rankMetric } from '../../../backtest/sweep/sweep-rank.ts';
import type { AnyStrategyDefinition } from '../../../strategy/define.ts';
import { UsageError } from '../../errors.ts';
import type { CliIo } from '../../io.ts';
import type { BacktestArgs, BacktestFiles } from './backtest.ts';
import { strategyArg, strategyParams, symbolArgs, usage } from './backtest.ts';

/** The name of a `--param name=value` pair (the text before its first `=`). */
const paramName = (pair: string): string => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();

/**
 * Each strategy's `--param` pairs: those its parameters include. A pair no strategy has is bad
 * input, named with what each strategy does take.
 */
export function paramsPerStrategy(strategies: readonly AnyStrategyDefinition[], pairs: readonly string[]): string[][] {
  const names = strategies.map((s) => paramNames(s.params));
  for (const pair of pairs) {
    const name = paramName(pair);
    if (name === '') throw new UsageError(`--param ${JSON.stringify(pair)}: write it as name=value, e.g. --param fast=10`);
    if (!names.some((n) => n.includes(name))) {
      const takes = strategies.map((s, i) => `${s.name}: ${(names[i] as string[]).join(', ') || 'none'}`).join('; ');
      throw new UsageError(`--param ${pair}: none of the strategies has a parameter '${name}' (${takes})`);
    }
  }
  return names.map((n) => pairs.filter((p) => n.includes(paramName(p))));
}

/** A --json or --report naming a file a run just wrote, refused before the comparison overwrites it. */
function refuseRunFiles(args: Pick<BacktestArgs, 'json' | 'report'>, runs: readonly ComparedStrategy[]): void {
  for (const [flag, file] of [['--json', args.json], ['--report', args.report]] as const) {
    if (file === undefined) continue;
    const run = runs.find((r) => [r.files.json, r.files.report].some((f) => path.resolve(f) === path.resolve(file)));
    if (run !== undefined) throw new UsageError(`${flag} ${file} is a file the run of ${run.name} wrote: name another for the comparison (the runs write theirs under --out-dir)`);
  }
}

/** A sweep or walk-forward of several strategies, refused by name. */
function refuseSweeps(args: BacktestArgs, count: number): void {
  if ((args.sweep?.length ?? 0) > 0 || args.walkForward === true) throw new UsageError(`--sweep and --walk-forward optimise one strategy: run them for each strategy on its own, not with ${count} strategies`);
}

/** The comparison table: a row a strategy, in the comparison's order (compare-result.ts rankComparison: the report's and the JSON's), the rank metric's column first, marked. */
export function formatComparison(c: Comparison, market: string): string[] {
  const by = c.rankBy;
  const ranked = rankComparison(c).map((r) => r.strategy);
  const cols = metricColumns(by);
  const rows = [['#', 'Strategy', ...cols.map((col) => col.head)]];
  ranked.forEach((s, i) => rows.push([String(i + 1), s.name, ...cols.map((col) => col.fmt(s.metrics))]));
  const setup = comparisonSetup(c);
  const range = setup === undefined ? '' : `, ${fmtTime(setup.from)} -> ${fmtTime(setup.to)}`;
  const lines = [`Comparison of ${c.strategies.length} strategies on ${market}${range}, ranked by ${by}`, '', ...alignTable(rows, (col) => col > 1), `* ranked by this column (--rank-by ${by})`];
  for (const s of c.strategies) if (s.paramArgs.length > 0) lines.push(`${s.name} ran with ${s.paramArgs.map((p) => `--param ${p}`).join(' ')}`);
  for (const s of ranked) if (s.overview.firstFailure !== undefined) lines.push(`${s.name} was stopped by a failure, ranked last (its figures are of a stopped run): ${s.overview.firstFailure}`);
  // Each run's warnings (a warmup it never got past...), which its own summary printed far above.
  for (const s of ranked) for (const notice of s.overview.notices) lines.push(`${s.name}: ${notice}`);
  return lines;
}

/**
 * Run each strategy as `halyard backtest --strategy NAME` would (`runOne`: backtest.ts's single
 * run, which prints its summary and writes its files), then print the comparison.
 */
export async function runCompareCommand(io: CliIo, args: BacktestArgs, names: readonly string[], runOne: (io: CliIo, args: BacktestArgs) => Promise<BacktestFiles | undefined>): Promise<Comparison> {
  refuseSweeps(args, names.length);
  // Where the comparison goes, checked before any run (a folder given as --json fails only at the end otherwise).
  if (args.json !== undefined) checkOutputFile(args.json, '--json');
  if (args.report !== undefined) checkOutputFile(args.report, '--report');
  const by = usage(() => rankMetric(args.rankBy));
  // Every strategy loaded and its parameters read before any runs (its run checks them again, with the series).
  const strategies: AnyStrategyDefinition[] = [];
  for (const name of names) strategies.push(await strategyArg(name));
  const twice = strategies.find((s, i) => strategies.findIndex((t) => t.name === s.name) !== i);
  if (twice !== undefined) throw new UsageError(`--strategy: two of the strategies are named '${twice.name}' (their files would overwrite each other): give each once`);
  const pairs = paramsPerStrategy(strategies, args.param ?? []);
  const symbols = symbolArgs(args.symbol);
  // As each run reads them (a bad value, or a strategy that does not trade these symbols, is refused now).
  strategies.forEach((s, i) => strategyParams(s, { param: pairs[i] as string[] }, symbols, args.interval ?? ''));
  const runs: ComparedStrategy[] = [];
  // The ranking is the comparison's: each run is a single run, which takes no --rank-by.
  // --json and --report name the comparison's files: each run writes its own under --out-dir.
  const rest: BacktestArgs = { ...args, rankBy: undefined, json: undefined, report: undefined, overview: true };
  for (let i = 0; i < names.length; i++) {
    if (i > 0) io.out('');
    io.out(`== ${i + 1} of ${names.length}: ${strategies[i]?.name ?? ''} ==`);
    const files = await runOne(io, { ...rest, strategy: names[i] as string, param: pairs[i] as string[] });
    if (files !== undefined) runs.push(comparedStrategy(strategies[i]?.name ?? '', pairs[i] as string[], files));
  }
  const comparison: Comparison = { rankBy: by, strategies: runs };
  io.out(['', ...formatComparison(comparison, `${symbols.join(',')} ${args.interval ?? ''}`)].join('\n'));
  refuseRunFiles(args, runs);
  // The table first: a file that cannot be written fails after it.
  if (runs.length > 0) io.out(['', ...(await writeComparison(comparison, args, symbols))].join('\n'));
  return comparison;
}

/** A run of the comparison as the comparison takes it: its name, the `--param` pairs it ran with, its figures, overview and files. */
function comparedStrategy(name: string, paramArgs: readonly string[], files: BacktestFiles): ComparedStrategy {
  const overview = files.overview;
  // Asked of every run (`overview: true` above): its absence is a bug, not bad input.
  if (overview === undefined) throw new Error(`the run of ${name} returned no overview`);
  return { name, paramArgs, metrics: files.metrics, overview, files: { json: files.json, report: files.report } };
}

/** Characters kept in a file name; any other run of them is one '-'. */
const safeName = (s: string): string => s.replace(/[^A-Za-z0-9._+-]+/g, '-');

/** The strategies' part of the comparison's file names past which it is shortened. */
export const MAX_STRATEGIES_NAME = 80;

/**
 * The comparison's files' name without extension, as a run's (backtest.ts writeRunFiles:
 * `<strategy>-<symbols>-<interval>-<from date>-<to date>`, several symbols joined by '+'): the
 * strategies joined by '_' for the strategy, each made filesystem-safe. Past MAX_STRATEGIES_NAME
 * characters, the first strategy, how many more, and a hash of the whole list, so another list
 * never shares the name.
 */
export function comparisonBase(strategies: readonly string[], symbols: readonly string[], interval: string, from: number, to: number): string {
  const joined = strategies.map(safeName).join('_');
  const names = joined.length <= MAX_STRATEGIES_NAME ? joined : `${safeName(strategies[0] ?? '').slice(0, 40)}_and_${strategies.length - 1}_more-${createHash('sha256').update(strategies.join('\n')).digest('hex').slice(0, 8)}`;
  return `compare-${names}-${symbols.map(safeName).join('+')}-${safeName(interval)}-${formatTime(from).slice(0, 10)}-${formatTime(to).slice(0, 10)}`;
}

/** Write the comparison's JSON and report under `outDir`; their `json` and `report` lines. */
async function writeComparison(c: Comparison, args: Pick<BacktestArgs, 'json' | 'report' | 'outDir' | 'interval'>, symbols: readonly string[]): Promise<string[]> {
  const outDir = args.outDir ?? 'backtest/out';
  const interval = args.interval ?? '';
  const first = c.strategies[0]?.overview;
  const base = comparisonBase(
    c.strategies.map((s) => s.name),
    symbols,
    interval,
    first?.from ?? 0,
    first?.to ?? 0,
  );
  const jsonFile = args.json ?? path.join(outDir, `${base}.json`);
  const reportFile = args.report ?? path.join(outDir, `${base}.html`);
  for (const file of new Set([jsonFile, reportFile])) {
    const dir = path.dirname(path.resolve(file));
    await ioStep('create the folder', dir, () => makeDirs(dir));
  }
  await ioStep('write the JSON file', jsonFile, () => writeJsonFile(jsonFile, comparisonToJson(c), { replacer: jsonReplacer, onlyNonFinite: true }));
  await ioStep('write the HTML report', reportFile, () => writeCompareReport(reportFile, c));
  return [`json    ${jsonFile}`, `report  ${reportFile}`];
}
