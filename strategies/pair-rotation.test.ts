import { describe, expect, it } from 'vitest';
import { StrategyParamsError } from '../src/strategy/index.ts';
import { candlesFromCloses, runOnRegime } from '../src/strategy/testing/index.ts';
import type { RegimeRunOptions } from '../src/strategy/testing/index.ts';
import pairRotation from './pair-rotation.ts';

// Two symbols in one account through the testing kit: runOnRegime with each symbol's market.
const HOUR = 3_600_000;
const OPTIONS: RegimeRunOptions = { balances: { PHP: '10000' } };

/** Both symbols on candles of their own: hourly bars closing at `a` and `b`. */
function onCloses(a: readonly number[], b: readonly number[], params: Record<string, unknown>) {
  return runOnRegime(pairRotation, { BTCPHP: candlesFromCloses(a, { intervalMs: HOUR }), ETHPHP: candlesFromCloses(b, { intervalMs: HOUR }) }, params, OPTIONS);
}

describe('pair-rotation', () => {
  it('holds the symbol with the stronger momentum, selling one before buying the other, once a period', () => {
    // BTC rises then falls; ETH is flat then rises: hold BTC, then rotate into ETH.
    const a = [1000, 1100, 1200, 1300, 1400, 1500, 1400, 1300, 1200, 1100, 1000, 1000];
    const b = [1000, 1000, 1000, 1000, 1000, 1000, 1100, 1200, 1300, 1400, 1500, 1600];
    const { run, metrics } = onCloses(a, b, { lookback: 2, rebalance: 1 });
    expect(run.fills.map((f) => `${f.symbol} ${f.side} ${f.tag}`)).toEqual(['BTCPHP BUY rotate-in', 'BTCPHP SELL rotate-out', 'ETHPHP BUY rotate-in']);
    // Bought at the open after the first decision (hour 2's close), sold at the open after ETH's
    // momentum led (hour 6's close); ETH is bought once that sale filled, at its next bar's open
    // (hour 8: the sale filled during hour 7's bars, after ETH's bar of hour 7 had begun).
    expect(run.fills.map((f) => `${(f.time - run.from) / HOUR}h@${f.price}`)).toEqual(['3h@1200', '7h@1400', '8h@1200']);
    expect(run.trades.map((t) => [t.symbol, t.entryPrice, t.exitPrice])).toEqual([['BTCPHP', '1200', '1400']]);
    expect(run.symbols?.[1]?.openTrade?.symbol).toBe('ETHPHP');
    expect(run.denials).toEqual([]);
    expect(run.strategyFailures).toEqual([]);
    expect(metrics.endEquity).toBeGreaterThan(metrics.startEquity);
  });

  it('holds nothing while both symbols fell over the lookback, and waits `rebalance` bars between rotations', () => {
    const down = [1000, 990, 980, 970, 960, 950, 940, 930];
    expect(onCloses(down, down, { lookback: 2, rebalance: 1 }).fills).toEqual([]);
    // Leadership flips every bar: with rebalance 4 it rotates at most every 4 decided periods.
    const a = [1000, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000];
    const b = [1000, 1000, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100];
    const often = onCloses(a, b, { lookback: 1, rebalance: 1 }).fills.length;
    const rarely = onCloses(a, b, { lookback: 1, rebalance: 4 }).fills.length;
    expect(rarely).toBeLessThan(often);
  });

  it('runs on generated markets without denials or failures, the same result every time', () => {
    // A rise then a fall each, seeds 1 and 2 (the kit's seed + i per symbol).
    const markets = { BTCPHP: 'upThenDown', ETHPHP: 'upThenDown' } as const;
    const { run } = runOnRegime(pairRotation, markets, {}, { ...OPTIONS, bars: 600 });
    expect(run.fills.length).toBeGreaterThan(0);
    expect(run.denials).toEqual([]);
    expect(run.strategyFailures).toEqual([]);
    expect(JSON.stringify(runOnRegime(pairRotation, markets, {}, { ...OPTIONS, bars: 600 }).run)).toBe(JSON.stringify(run));
  });

  it('refuses the same symbol twice', () => {
    expect(() => onCloses([1], [1], { symbols: ['BTCPHP', 'BTCPHP'] })).toThrow(StrategyParamsError);
  });
});
