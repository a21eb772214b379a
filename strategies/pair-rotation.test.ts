import { describe, expect, it } from 'vitest';
import { runBacktest } from '../src/backtest/run-backtest.ts';
import type { SeveralBacktestOptions } from '../src/backtest/run-backtest.ts';
import { computeMetrics } from '../src/backtest/metrics.ts';
import { StrategyParamsError } from '../src/strategy/index.ts';
import { candlesFromCloses, generateCandles, testInstrument } from '../src/strategy/testing/index.ts';
import pairRotation from './pair-rotation.ts';

// The testing kit runs one symbol (runOnRegime): two are run through runBacktest itself.
const HOUR = 3_600_000;
const btc = testInstrument({ symbol: 'BTCPHP' });
const eth = testInstrument({ symbol: 'ETHPHP' });

function options(a: readonly number[], b: readonly number[], params: Record<string, unknown>): SeveralBacktestOptions {
  return {
    strategy: pairRotation,
    params,
    interval: '1h',
    symbols: [
      { symbol: 'BTCPHP', bars: candlesFromCloses(a, { intervalMs: HOUR }), instrument: btc },
      { symbol: 'ETHPHP', bars: candlesFromCloses(b, { intervalMs: HOUR }), instrument: eth },
    ],
    fees: { maker: '0.001', taker: '0.001' },
    balances: { PHP: '10000' },
  };
}

describe('pair-rotation', () => {
  it('holds the symbol with the stronger momentum, selling one before buying the other, once a period', () => {
    // BTC rises then falls; ETH is flat then rises: hold BTC, then rotate into ETH.
    const a = [1000, 1100, 1200, 1300, 1400, 1500, 1400, 1300, 1200, 1100, 1000, 1000];
    const b = [1000, 1000, 1000, 1000, 1000, 1000, 1100, 1200, 1300, 1400, 1500, 1600];
    const run = runBacktest(options(a, b, { lookback: 2, rebalance: 1 }));
    expect(run.fills.map((f) => `${f.symbol} ${f.side} ${f.tag}`)).toEqual(['BTCPHP BUY rotate-in', 'BTCPHP SELL rotate-out', 'ETHPHP BUY rotate-in']);
    // Bought at the open after the first decision (hour 2's close), sold at the open after ETH's
    // momentum led (hour 6's close); ETH is bought once that sale filled, at its next bar's open
    // (hour 8: the sale filled during hour 7's bars, after ETH's bar of hour 7 had begun).
    expect(run.fills.map((f) => `${(f.time - run.from) / HOUR}h@${f.price}`)).toEqual(['3h@1200', '7h@1400', '8h@1200']);
    expect(run.trades.map((t) => [t.symbol, t.entryPrice, t.exitPrice])).toEqual([['BTCPHP', '1200', '1400']]);
    expect(run.symbols?.[1]?.openTrade?.symbol).toBe('ETHPHP');
    expect(run.denials).toEqual([]);
    expect(run.strategyFailures).toEqual([]);
    const m = computeMetrics(run);
    expect(m.endEquity).toBeGreaterThan(m.startEquity);
  });

  it('holds nothing while both symbols fell over the lookback, and waits `rebalance` bars between rotations', () => {
    const down = [1000, 990, 980, 970, 960, 950, 940, 930];
    expect(runBacktest(options(down, down, { lookback: 2, rebalance: 1 })).fills).toEqual([]);
    // Leadership flips every bar: with rebalance 4 it rotates at most every 4 decided periods.
    const a = [1000, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000];
    const b = [1000, 1000, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100, 1000, 1100];
    const often = runBacktest(options(a, b, { lookback: 1, rebalance: 1 })).fills.length;
    const rarely = runBacktest(options(a, b, { lookback: 1, rebalance: 4 })).fills.length;
    expect(rarely).toBeLessThan(often);
  });

  it('runs on generated markets without denials or failures, the same result every time', () => {
    const gen = (seed: number) => generateCandles({ seed, intervalMs: HOUR, segments: [{ regime: 'slowUp', bars: 300 }, { regime: 'slowDown', bars: 300 }] });
    const opts = (): SeveralBacktestOptions => ({ ...options([], [], {}), symbols: [
      { symbol: 'BTCPHP', bars: gen(1), instrument: btc },
      { symbol: 'ETHPHP', bars: gen(2), instrument: eth },
    ] });
    const run = runBacktest(opts());
    expect(run.fills.length).toBeGreaterThan(0);
    expect(run.denials).toEqual([]);
    expect(run.strategyFailures).toEqual([]);
    expect(JSON.stringify(runBacktest(opts()))).toBe(JSON.stringify(run));
  });

  it('refuses the same symbol twice', () => {
    expect(() => runBacktest(options([1], [1], { symbols: ['BTCPHP', 'BTCPHP'] }))).toThrow(StrategyParamsError);
  });
});
