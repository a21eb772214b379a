/**
 * A hand-built comparison for the comparison report's tests (no backtest loop): demo-run.ts's toy
 * SMA crossover on the same seeded bars with different averages, one strategy name each, as the
 * CLI hands its runs to compare-result.ts. Not part of the public surface.
 */
import path from 'node:path';
import type { Comparison, ComparedStrategy } from '../compare/compare-result.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { runOverview } from '../compare/run-overview.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import { demoBars, demoRun } from './demo-run.ts';

export interface DemoComparisonOptions {
  /** Bars every strategy plays (default 600). */
  bars?: number;
  seed?: number;
  /** Each strategy's name and averages; default three. */
  strategies?: { name: string; fast: number; slow: number; paramArgs?: string[] }[];
  rankBy?: RankMetric;
  /** Where the runs' files are said to be (default 'out'). */
  dir?: string;
}

export const DEMO_STRATEGIES = [
  { name: 'fast-cross', fast: 5, slow: 20, paramArgs: ['fast=5'] },
  { name: 'slow-cross', fast: 20, slow: 80 },
  { name: 'mid-cross', fast: 10, slow: 40 },
];

export function demoComparison(o: DemoComparisonOptions = {}): Comparison {
  const bars = demoBars(o.bars ?? 600, o.seed ?? 11);
  const dir = o.dir ?? 'out';
  const strategies = (o.strategies ?? DEMO_STRATEGIES).map((s): ComparedStrategy => {
    const run = demoRun({ barsData: bars, fast: s.fast, slow: s.slow });
    run.strategy = s.name;
    return { name: s.name, paramArgs: s.paramArgs ?? [], metrics: computeMetrics(run), overview: runOverview(run), files: { json: path.join(dir, `${s.name}.json`), report: path.join(dir, `${s.name}.html`) } };
  });
  return { rankBy: o.rankBy ?? 'sharpe', strategies };
}
