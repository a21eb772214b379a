import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import pairRotation from '../../../strategies/pair-rotation.ts';
import smaCrossover from '../../../strategies/sma-crossover.ts';
import { defineStrategy } from '../define.ts';
import { place } from '../intents/intents.ts';
import { runOnRegime } from './run-on-regime.ts';
import { candlesFromCloses } from './test-candles.ts';
import { testInstrument } from './test-instrument.ts';

const sides = (intents: readonly { intent: { kind: string; side?: string } }[]) => intents.map((r) => (r.intent.kind === 'place' ? r.intent.side : r.intent.kind));

describe('runOnRegime', () => {
  it('runs a strategy on a canned market through the backtester: intents, fills, run', () => {
    const { intents, fills, run } = runOnRegime(smaCrossover, 'upThenDown', { fast: 10, slow: 30 });
    expect(run.barCount).toBe(1000);
    expect(run.strategyFailures).toEqual([]);
    expect(intents.length).toBeGreaterThan(1);
    sides(intents).forEach((side, i) => expect(side).toBe(i % 2 === 0 ? 'BUY' : 'SELL'));
    // every intent filled at the next bar's open, one bar (60 s) after it was decided
    expect(fills.map((f) => f.time)).toEqual(intents.slice(0, fills.length).map((r) => r.time));
    expect(fills.every((f) => !f.isMaker && f.commission !== '0')).toBe(true);
    expect(run.trades.length).toBe(Math.floor(fills.length / 2));
  });

  it("gives the run's metrics, as the backtest summary prints them", () => {
    const { run, metrics } = runOnRegime(smaCrossover, 'upThenDown', { fast: 10, slow: 30 });
    expect(metrics.trades).toBe(run.trades.length);
    expect(metrics.fills).toBe(run.fills.length);
    const won = run.trades.filter((t) => Number(t.pnl) > 0).length;
    expect(metrics.winRatePct).toBeCloseTo((100 * won) / run.trades.length, 9);
    expect(metrics.startEquity).toBe(100_000);
    expect(metrics.netPnl).toBeCloseTo(metrics.endEquity - metrics.startEquity, 6);
    expect(metrics.marketReturnPct).not.toBe(0); // the run knows its market: buy and hold is there
  });

  it('returns what the strategy logged, at the backtest\'s times', () => {
    const chatty = defineStrategy({
      name: 'chatty',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ n: 0 }),
      onBar(ctx, bar) {
        if (++ctx.state.n % 250 === 0) ctx.log(`bar ${ctx.state.n}`, { close: bar.close });
      },
    });
    const { logs, run } = runOnRegime(chatty, 'flat');
    expect(logs.map((l) => l.message)).toEqual(['bar 250', 'bar 500', 'bar 750', 'bar 1000']);
    expect(logs.every((l) => l.strategy === 'chatty' && typeof l.data?.['close'] === 'number')).toBe(true);
    // stamped with the virtual clock: just after the 250th bar closed
    expect(logs[0]!.time).toBe(run.from + 250 * 60_000);
  });

  it('on a sharp rise a trend follower is in most of the time; on a sharp fall it ends flat', () => {
    const up = runOnRegime(smaCrossover, 'sharpUp', { fast: 5, slow: 20 }, { seed: 3 });
    const held = up.run.equity.filter((p) => p.position > 0).length / up.run.equity.length;
    expect(held).toBeGreaterThan(0.5);
    const down = runOnRegime(smaCrossover, 'sharpDown', { fast: 5, slow: 20 }, { seed: 3 });
    expect(down.run.equity.at(-1)?.position ?? 0).toBeLessThan(0.001);
    for (const r of [up, down]) expect(r.run.strategyFailures).toEqual([]);
  });

  it('is deterministic per seed and differs across seeds', () => {
    const a = JSON.stringify(runOnRegime(smaCrossover, 'flat', {}, { seed: 7 }).run);
    expect(JSON.stringify(runOnRegime(smaCrossover, 'flat', {}, { seed: 7 }).run)).toBe(a);
    expect(JSON.stringify(runOnRegime(smaCrossover, 'flat', {}, { seed: 8 }).run)).not.toBe(a);
  });

  it('a LIMIT order rests until a bar trades through it, and fills as maker at its price', () => {
    const dip = defineStrategy({
      name: 'dip',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ placed: false }),
      onBar(ctx, bar) {
        if (ctx.state.placed) return;
        ctx.state.placed = true;
        return [place({ symbol: ctx.symbol, side: 'BUY', type: 'LIMIT', quantity: '0.5', price: ctx.instrument().roundPrice(bar.close * 0.97), tag: 'dip' })];
      },
    });
    const { fills, intents } = runOnRegime(dip, 'sharpDown', {}, { bars: 300 });
    expect(fills).toHaveLength(1);
    const limit = intents[0]!.intent as { price: string };
    expect(fills[0]).toMatchObject({ side: 'BUY', qty: '0.5', price: limit.price, isMaker: true });
    expect(fills[0]!.time).toBeGreaterThan(intents[0]!.time);
  });

  it("trades a symbol named like ETHUSDT in ETH and USDT (the instrument's assets follow the name), funded in USDT", () => {
    const { fills, run } = runOnRegime(smaCrossover, 'upThenDown', { symbol: 'ETHUSDT', fast: 10, slow: 30 });
    expect(run.strategyFailures).toEqual([]);
    expect(Object.keys(run.startBalances)).toEqual(['USDT']);
    expect([run.baseAsset, run.quoteAsset]).toEqual(['ETH', 'USDT']);
    expect(fills.length).toBeGreaterThan(0);
  });

  it('runs several symbols in one account, each on its own market: the seed + i per symbol, the symbols handed to the strategy', () => {
    const { run, fills, intents, metrics } = runOnRegime(pairRotation, { BTCPHP: 'sharpUp', ETHPHP: 'sharpDown' }, { lookback: 12, rebalance: 6, interval: '1m' }, { bars: 400 });
    expect(run.symbol).toBe('BTCPHP,ETHPHP');
    expect(run.params['symbols']).toEqual(['BTCPHP', 'ETHPHP']);
    expect(run.symbols?.map((s) => [s.symbol, s.barCount])).toEqual([
      ['BTCPHP', 400],
      ['ETHPHP', 400],
    ]);
    expect(Object.keys(run.startBalances)).toEqual(['PHP']);
    expect(run.strategyFailures).toEqual([]);
    // The rising symbol is the one held.
    expect(fills.length).toBeGreaterThan(0);
    expect(fills[0]).toMatchObject({ symbol: 'BTCPHP', side: 'BUY' });
    expect(intents.length).toBeGreaterThanOrEqual(fills.length);
    expect(metrics.trades).toBe(run.trades.length);
    // The first symbol's market is the one-symbol call's (seed 1); the second's is seed 2.
    const alone = runOnRegime(smaCrossover, 'sharpUp', { interval: '1m' }, { bars: 400 });
    expect(run.symbols?.[0]?.market).toEqual(alone.run.market);
    const same = runOnRegime(pairRotation, { BTCPHP: 'flat', ETHPHP: 'flat' }, { interval: '1m' }, { bars: 50 });
    expect(same.run.symbols?.[0]?.market).not.toEqual(same.run.symbols?.[1]?.market);
  });

  it('takes candles of its own per symbol, and each symbol\'s rules', () => {
    const HOUR = 3_600_000;
    const eth = testInstrument({ symbol: 'ETHPHP', minQty: '0.01', stepSize: '0.01' });
    const { run } = runOnRegime(
      pairRotation,
      { BTCPHP: candlesFromCloses([100, 110, 120, 130], { intervalMs: HOUR }), ETHPHP: candlesFromCloses([100, 100, 100, 100], { intervalMs: HOUR }) },
      { lookback: 1, rebalance: 1 },
      { instruments: { ETHPHP: eth }, balances: { PHP: '1000' } },
    );
    expect(run.barCount).toBe(4);
    expect(run.symbols?.[1]?.lot).toEqual({ minQty: '0.01', stepSize: '0.01' });
    expect(run.fills.map((f) => `${f.symbol} ${f.side}`)).toEqual(['BTCPHP BUY']);
  });
});
