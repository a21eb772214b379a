/**
 * Ranking by one metric. Higher is better except for drawdown and fees. Ties go to the higher net
 * PnL, then to grid order, so a ranking is deterministic.
 */
import type { BacktestMetrics } from '../types.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';

export type RankMetric = keyof BacktestMetrics;

export const RANK_METRICS: readonly RankMetric[] = [
  'sharpe',
  'sortino',
  'netPnl',
  'returnPct',
  'cagrPct',
  'calmar',
  'maxDrawdownPct',
  'winRatePct',
  'profitFactor',
  'exposurePct',
  'feesPaid',
  'trades',
  'endEquity',
];

export const DEFAULT_RANK_METRIC: RankMetric = 'sharpe';

const LOWER_IS_BETTER = new Set<RankMetric>(['maxDrawdownPct', 'feesPaid']);

export function isRankMetric(name: string): name is RankMetric {
  return (RANK_METRICS as readonly string[]).includes(name);
}

/** Validate a --rank-by value, naming the choices. */
export function rankMetric(name: string | undefined): RankMetric {
  if (name === undefined) return DEFAULT_RANK_METRIC;
  if (!isRankMetric(name)) throw new HalyardError('SWEEP_RANK', `unknown --rank-by '${name}'; one of ${RANK_METRICS.join(', ')}`);
  return name;
}

/** Score where higher is better, for comparisons. */
export function score(m: BacktestMetrics, by: RankMetric): number {
  const v = m[by];
  return LOWER_IS_BETTER.has(by) ? -v : v;
}

/** Descending order of two numbers, infinities included (Infinity - Infinity is NaN). */
const desc = (a: number, b: number): number => (a === b ? 0 : a > b ? -1 : 1);

/** Sort a copy, best first. */
export function rankBy<T extends { metrics: BacktestMetrics }>(items: readonly T[], by: RankMetric): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => desc(score(a.item.metrics, by), score(b.item.metrics, by)) || desc(a.item.metrics.netPnl, b.item.metrics.netPnl) || a.i - b.i)
    .map((x) => x.item);
}
