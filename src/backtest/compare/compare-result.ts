/**
 * backtest/compare/: several strategies on the same bars, ranked. Imports the folders up to sweep/.
 *
 * A comparison of several strategies backtested alone on the same bars (`halyard backtest
 * --strategy a,b`, cli/commands/backtest/backtest-compare.ts): each run's metrics, setup and thinned curve
 * (run-overview.ts) and the files it wrote, ranked by one metric as the terminal table is
 * (sweep-rank.ts rankBy: the same order, ties to the higher net PnL, then the order run; a
 * strategy stopped by a failure after every one that ran to the end, as a sweep ranks its stopped
 * runs: its figures are of a stopped run, often an idle one, which outranks losers), and the
 * comparison's JSON document. Infinities (a profit factor without a losing trade) are left as
 * numbers here: the writer's replacer (metrics-json.ts jsonReplacer) writes them as "Infinity".
 */
import type { RunOverview } from './run-overview.ts';
import { rankBy } from '../sweep/sweep-rank.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import type { BacktestMetrics } from '../types.ts';

/** One strategy's run in a comparison. */
export interface ComparedStrategy {
  /** The strategy's name (its definition's). */
  readonly name: string;
  /** The `--param name=value` pairs it ran with (those its parameters include). */
  readonly paramArgs: readonly string[];
  readonly metrics: BacktestMetrics;
  readonly overview: RunOverview;
  /** Its JSON and HTML report, as the run printed them. */
  readonly files: { readonly json: string; readonly report: string };
}

export interface Comparison {
  readonly rankBy: RankMetric;
  /** In the order they ran (the order given); rankComparison orders them. */
  readonly strategies: readonly ComparedStrategy[];
}

/**
 * Best first by `by` (rankBy), those whose strategy a failure stopped after all the others (as
 * sweep.ts ranks a sweep's): the comparison's order, for its table, report and JSON alike.
 */
export function rankStoppedLast<T extends { metrics: BacktestMetrics }>(items: readonly T[], by: RankMetric, stopped: (item: T) => boolean): T[] {
  return [...rankBy(items.filter((x) => !stopped(x)), by), ...rankBy(items.filter(stopped), by)];
}

/** The strategies best first, each with its rank (1 is the best) and its place in the order run. */
export function rankComparison(c: Comparison): { rank: number; index: number; strategy: ComparedStrategy }[] {
  const ranked = rankStoppedLast(
    c.strategies.map((s, index) => ({ index, strategy: s, metrics: s.metrics })),
    c.rankBy,
    (x) => x.strategy.overview.firstFailure !== undefined,
  );
  return ranked.map((r, i) => ({ rank: i + 1, index: r.index, strategy: r.strategy }));
}

/** What the strategies share: the first run's market, range and costs (every run played the same bars with the same options). */
export function comparisonSetup(c: Comparison): RunOverview | undefined {
  return c.strategies[0]?.overview;
}

/**
 * The comparison's JSON document: the rank metric, the market, the range, the costs and starting
 * balances, then the strategies best first, each with its rank, name, parameters as run (defaults
 * filled in) and the `--param` pairs given, its metrics, end balances and files, and the failure
 * that stopped it, if one did.
 */
export function comparisonToJson(c: Comparison): object {
  const setup = comparisonSetup(c);
  return {
    rankBy: c.rankBy,
    market: setup === undefined ? null : { symbols: setup.symbols, interval: setup.interval, quoteAsset: setup.quoteAsset },
    range: setup === undefined ? null : { from: setup.from, to: setup.to, bars: setup.barCount },
    fees: setup?.fees ?? null,
    fillModel: setup?.fillModel ?? null,
    startBalances: setup?.startBalances ?? null,
    strategies: rankComparison(c).map(({ rank, strategy: s }) => ({
      rank,
      name: s.name,
      params: s.overview.params,
      paramArgs: s.paramArgs,
      metrics: s.metrics,
      endBalances: s.overview.endBalances,
      files: { json: s.files.json, report: s.files.report },
      ...(s.overview.firstFailure === undefined ? {} : { firstFailure: s.overview.firstFailure }),
      ...(s.overview.notices.length === 0 ? {} : { notices: s.overview.notices }),
    })),
  };
}
