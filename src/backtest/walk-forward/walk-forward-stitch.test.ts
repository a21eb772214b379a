import { describe, expect, it } from 'vitest';
import { aggregateFolds } from './walk-forward.ts';
import type { FoldResult } from './walk-forward.ts';
import { stitchFolds } from './walk-forward-stitch.ts';
import type { BacktestMetrics } from '../types.ts';

function metrics(over: Partial<BacktestMetrics>): BacktestMetrics {
  return { startEquity: 0, endEquity: 0, netPnl: 0, returnPct: 0, marketReturnPct: 0, cagrPct: 0, maxDrawdownPct: 0, calmar: 0, sharpe: 0, sortino: 0, winRatePct: 0, profitFactor: 0, exposurePct: 0, feesPaid: 0, trades: 0, fills: 0, ...over };
}

/** A fold whose test run returned `equity` (start first), its metrics read off it as a run's are. */
function fold(index: number, equity: [number, number][] | undefined, over: Partial<BacktestMetrics> = {}): FoldResult {
  const start = equity?.[0]?.[1] ?? 0;
  const end = equity?.[equity.length - 1]?.[1] ?? 0;
  const returnPct = equity ? (end / start - 1) * 100 : 0;
  return {
    index,
    train: { skip: 0, take: 10 },
    test: { skip: 10 * index, take: 10 },
    chosen: { values: {}, params: {}, trainMetrics: metrics({}) },
    testResult: { metrics: metrics({ startEquity: start, endEquity: end, returnPct, netPnl: end - start, ...over }), from: equity?.[0]?.[0] ?? 0, to: equity?.[equity.length - 1]?.[0] ?? 0, barCount: 3, ...(equity ? { equity } : {}) },
    trainRuns: 1,
    trainFailures: 0,
    trainSkipped: 0,
  };
}

// Fold 1: 1000 -> 1100 -> 990 -> 1050 (+5%, its own drawdown 10%).
const one: [number, number][] = [[0, 1000], [10, 1100], [20, 990], [30, 1050]];
// Fold 2 after a gap, from its own start of 2100: -> 1890 -> 2520 (+20%, its own drawdown 10%).
const two: [number, number][] = [[100, 2100], [110, 1890], [120, 2520]];

describe('stitchFolds', () => {
  it('chains the test curves by their returns: fold 2 scaled to start where fold 1 ended, the gap a flat step', () => {
    const o = stitchFolds([fold(1, one), fold(2, two)]);
    expect(o.equity).toEqual([[0, 1000], [10, 1100], [20, 990], [30, 1050], [100, 1050], [110, 945], [120, 1260]]);
    expect(o.returnPct).toBeCloseTo(26, 12);
    // 1100 (fold 1's peak) down to 945 in fold 2: deeper than either fold's own 10%.
    expect(o.maxDrawdownPct).toBeCloseTo((155 / 1100) * 100, 12);
  });

  it('its return is the aggregate\'s compounded one, a failed fold and a curve-less run (a fake runner) included', () => {
    const failed: FoldResult = { ...fold(2, two), testResult: undefined, error: 'test run failed: boom' };
    const bare = fold(3, undefined, { startEquity: 500, returnPct: -4 });
    bare.testResult = { ...bare.testResult!, from: 200, to: 300 };
    const folds = [fold(1, one), failed, bare, fold(4, two)];
    const o = stitchFolds(folds);
    const a = aggregateFolds(folds, 'sharpe');
    expect(o.returnPct).toBeCloseTo(a.compoundedReturnPct, 10);
    expect(o.returnPct).toBeCloseTo((1.05 * 0.96 * 1.2 - 1) * 100, 10);
    // The curve-less fold is its start and its end.
    expect(o.equity.slice(4, 6)).toEqual([[200, 1050], [300, 1050 * 0.96]]);
  });

  it('is empty, with no return and no drawdown, when no test window ran', () => {
    expect(stitchFolds([{}, {}])).toEqual({ equity: [], returnPct: 0, maxDrawdownPct: 0 });
  });
});
