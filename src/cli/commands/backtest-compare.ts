/**
 * `halyard backtest --strategy A --strategy B ...` (or `--strategy A,B`): several strategies, each
 * backtested on its own as `--strategy A` alone would be (the same bars, rules, fees, balances and
 * fill model; its summary, JSON and report under --out-dir), one after the other, then compared in
 * one table ranked by --rank-by (default sharpe), as Freqtrade's `--strategy-list` does.
 *
 * A `--param name=value` applies to every strategy whose parameters include `name` (a strategy
 * without it runs on its own default); one that no strategy has is refused, as a misspelt one is
 * for one strategy. Every strategy is loaded and its parameters checked before the first runs, so
 * a typo in the last one costs no run. What cannot apply to several runs is refused by name:
 * `--json` and `--report` name one file (the runs write theirs under --out-dir), and a sweep or a
 * walk-forward optimises one strategy.
 */
import { paramNames } from '../../backtest/cli-input.ts';
import { alignTable, fmtTime } from '../../backtest/metrics-format.ts';
import { metricColumns } from '../../backtest/sweep-format.ts';
import { rankBy, rankMetric } from '../../backtest/sweep-rank.ts';
import type { RankMetric } from '../../backtest/sweep-rank.ts';
import type { AnyStrategyDefinition } from '../../strategy/define.ts';
import { UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import type { BacktestArgs, BacktestFiles } from './backtest.ts';
import { strategyArg, strategyParams, symbolArgs, usage } from './backtest.ts';

/** One strategy's run of the comparison. */
export interface ComparedRun {
  readonly strategy: string;
  /** The `--param` pairs it ran with (those its parameters include). */
  readonly params: readonly string[];
  readonly files: BacktestFiles;
}

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

/** Options of one run that several runs cannot share, refused by name. */
function refuseSingleRunOptions(args: BacktestArgs, count: number): void {
  const why = `with ${count} strategies`;
  if ((args.sweep?.length ?? 0) > 0 || args.walkForward === true) throw new UsageError(`--sweep and --walk-forward optimise one strategy: run them for each strategy on its own, not ${why}`);
  if (args.json !== undefined) throw new UsageError(`--json names one file: ${why} each run writes its JSON under --out-dir (drop --json, or give --out-dir)`);
  if (args.report !== undefined) throw new UsageError(`--report names one file: ${why} each run writes its report under --out-dir (drop --report, or give --out-dir)`);
}

/** The comparison table: a row a strategy, ranked by `by` (that column first, marked). */
export function formatComparison(runs: readonly ComparedRun[], by: RankMetric, market: string): string[] {
  const ranked = rankBy(
    runs.map((r) => ({ ...r, metrics: r.files.metrics })),
    by,
  );
  const cols = metricColumns(by);
  const rows = [['#', 'Strategy', ...cols.map((c) => c.head)]];
  ranked.forEach((r, i) => rows.push([String(i + 1), r.strategy, ...cols.map((c) => c.fmt(r.metrics))]));
  const first = runs[0]?.files;
  const range = first === undefined ? '' : `, ${fmtTime(first.from)} -> ${fmtTime(first.to)}`;
  const lines = [`Comparison of ${runs.length} strategies on ${market}${range}, ranked by ${by}`, '', ...alignTable(rows, (c) => c > 1), `* ranked by this column (--rank-by ${by})`];
  const withParams = runs.filter((r) => r.params.length > 0);
  if (withParams.length > 0) lines.push(...withParams.map((r) => `${r.strategy} ran with ${r.params.map((p) => `--param ${p}`).join(' ')}`));
  return lines;
}

/**
 * Run each strategy as `halyard backtest --strategy NAME` would (`runOne`: backtest.ts's single
 * run, which prints its summary and writes its files), then print the comparison.
 */
export async function runCompareCommand(io: CliIo, args: BacktestArgs, names: readonly string[], runOne: (io: CliIo, args: BacktestArgs) => Promise<BacktestFiles | undefined>): Promise<ComparedRun[]> {
  refuseSingleRunOptions(args, names.length);
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
  const runs: ComparedRun[] = [];
  // The ranking is the comparison's: each run is a single run, which takes no --rank-by.
  const rest: BacktestArgs = { ...args, rankBy: undefined };
  for (let i = 0; i < names.length; i++) {
    if (i > 0) io.out('');
    io.out(`== ${i + 1} of ${names.length}: ${strategies[i]?.name ?? ''} ==`);
    const files = await runOne(io, { ...rest, strategy: names[i] as string, param: pairs[i] as string[] });
    if (files !== undefined) runs.push({ strategy: strategies[i]?.name ?? '', params: pairs[i] as string[], files });
  }
  io.out(['', ...formatComparison(runs, by, `${symbols.join(',')} ${args.interval ?? ''}`)].join('\n'));
  return runs;
}
