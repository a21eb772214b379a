import { describe, expect, it } from 'vitest';
import { comparisonToJson, rankComparison } from './compare-result.ts';
import type { Comparison } from './compare-result.ts';
import { jsonReplacer } from '../metrics/metrics-json.ts';
import { demoComparison } from '../report/compare-demo.ts';
import { demoMetrics } from '../report/sweep-demo.ts';

/** The demo comparison with each strategy's metrics replaced. */
function withMetrics(c: Comparison, metrics: Parameters<typeof demoMetrics>[0][], rankBy = c.rankBy): Comparison {
  return { rankBy, strategies: c.strategies.map((s, i) => ({ ...s, metrics: demoMetrics(metrics[i]) })) };
}

describe('rankComparison', () => {
  const base = demoComparison();

  it('ranks best first by the metric (lower drawdown is better), ties to the higher net PnL, then the order run', () => {
    const c = withMetrics(base, [{ sharpe: 1, maxDrawdownPct: 5, netPnl: 1 }, { sharpe: 2, maxDrawdownPct: 3, netPnl: 1 }, { sharpe: 1, maxDrawdownPct: 5, netPnl: 2 }]);
    expect(rankComparison(c).map((r) => [r.rank, r.strategy.name, r.index])).toEqual([
      [1, 'slow-cross', 1],
      [2, 'mid-cross', 2],
      [3, 'fast-cross', 0],
    ]);
    expect(rankComparison({ ...c, rankBy: 'maxDrawdownPct' }).map((r) => r.strategy.name)).toEqual(['slow-cross', 'mid-cross', 'fast-cross']);
    const tied = withMetrics(base, [{}, {}, {}]);
    expect(rankComparison(tied).map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('ranks a strategy stopped by a failure after those that ran to the end, as a sweep does, and the JSON says why', () => {
    // mid-cross stopped at once: its idle run's Sharpe of 0 would beat the others' losses.
    const c = withMetrics(base, [{ sharpe: -1, netPnl: -5 }, { sharpe: -2, netPnl: -9 }, { sharpe: 0, netPnl: 0 }]);
    const stopped: Comparison = { ...c, strategies: c.strategies.map((s) => (s.name === 'mid-cross' ? { ...s, overview: { ...s.overview, firstFailure: 'onBar at 2024-01-01 00:01 UTC: boom' } } : s)) };
    expect(rankComparison(c).map((r) => r.strategy.name)).toEqual(['mid-cross', 'fast-cross', 'slow-cross']);
    expect(rankComparison(stopped).map((r) => [r.rank, r.strategy.name])).toEqual([
      [1, 'fast-cross'],
      [2, 'slow-cross'],
      [3, 'mid-cross'],
    ]);
    const doc = comparisonToJson(stopped) as { strategies: { name: string; firstFailure?: string }[] };
    expect(doc.strategies.map((s) => [s.name, s.firstFailure])).toEqual([
      ['fast-cross', undefined],
      ['slow-cross', undefined],
      ['mid-cross', 'onBar at 2024-01-01 00:01 UTC: boom'],
    ]);
  });
});

describe('comparisonToJson', () => {
  it('the rank metric, market, range and costs, then each strategy best first with its params as run, metrics and files', () => {
    const c = withMetrics(demoComparison({ dir: 'runs' }), [{ sharpe: 0.5 }, { sharpe: 1.5, profitFactor: Infinity, trades: 2 }, { sharpe: -1 }]);
    const doc = JSON.parse(JSON.stringify(comparisonToJson(c), jsonReplacer)) as {
      rankBy: string;
      market: { symbols: string[]; interval: string; quoteAsset: string };
      range: { from: number; to: number; bars: number };
      fees: unknown;
      startBalances: unknown;
      strategies: { rank: number; name: string; params: Record<string, unknown>; paramArgs: string[]; metrics: Record<string, unknown>; endBalances: unknown; files: { json: string; report: string } }[];
    };
    const first = c.strategies[0]!.overview;
    expect(doc.rankBy).toBe('sharpe');
    expect(doc.market).toEqual({ symbols: ['BTCUSDT'], interval: '1m', quoteAsset: 'USDT' });
    expect(doc.range).toEqual({ from: first.from, to: first.to, bars: 600 });
    expect(doc.fees).toEqual({ maker: '0.001', taker: '0.001' });
    expect(doc.startBalances).toEqual({ USDT: '10000' });
    expect(doc.strategies.map((s) => [s.rank, s.name])).toEqual([
      [1, 'slow-cross'],
      [2, 'fast-cross'],
      [3, 'mid-cross'],
    ]);
    const slow = doc.strategies[0]!;
    expect(slow.params).toEqual({ fast: 20, slow: 80 });
    // No losing trade: the replacer writes the infinity as text, not null.
    expect(slow.metrics['profitFactor']).toBe('Infinity');
    expect(slow.files).toEqual({ json: 'runs/slow-cross.json', report: 'runs/slow-cross.html' });
    expect(slow.endBalances).toEqual(c.strategies[1]!.overview.endBalances);
    expect(doc.strategies[1]!.paramArgs).toEqual(['fast=5']);
  });
});
