/**
 * Acceptance of the backtester (issue "Strategy plugins, the SQLite journal and the backtester",
 * deliverable 6): it reproduces an independent plain loop fill for fill over a year of 1-minute
 * bars; a strategy cannot reach a bar that has not closed; an order that breaks a filter is denied
 * before the simulated venue sees it and the strategy is told why; the same input gives a
 * byte-identical result.
 */
import { Decimal } from 'decimal.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../src/backtest/run/run-backtest.ts';
import type { BacktestOptions } from '../src/backtest/run/run-backtest.ts';
import { SpotEngine } from '../src/core/matching/index.ts';
import { defineStrategy, place, RunnerInputError, StrategyRunner } from '../src/strategy/index.ts';
import { FakeStateView, minuteYear, testInstrument, upThenDown } from '../src/strategy/testing/index.ts';
import grid from '../strategies/grid.ts';
import marketMaker from '../strategies/market-maker.ts';
import smaCrossover from '../strategies/sma-crossover.ts';

afterEach(() => vi.restoreAllMocks());

interface PlainFill {
  time: number;
  side: 'BUY' | 'SELL';
  price: string;
  qty: string;
  commission: string;
}

/**
 * The SMA crossover written out by hand, sharing nothing with the framework: its own SMA (running
 * integer sums: the prices are whole numbers, so every sum is exact and both SMAs are correctly
 * rounded quotients), its own cross rule (fast > slow now, fast <= slow a bar before; mirrored for
 * the exit), its own money with decimal.js. Long only: on a golden cross when flat, buy 1000 of
 * quote at the next bar's open (whole steps of 0.000001, commission 0.1% of the base received);
 * on a death cross when holding, sell the holding rounded down to the step at the next open
 * (commission 0.1% of the quote received). "Flat" is less than the 0.000001 minimum quantity.
 */
function plainLoop(openTimes: number[], opens: string[], closes: number[]): PlainFill[] {
  const FAST = 10;
  const SLOW = 30;
  const fee = new Decimal('0.001');
  const step = new Decimal('0.000001');
  const out: PlainFill[] = [];
  let fastSum = 0;
  let slowSum = 0;
  let prevFast: number | undefined;
  let prevSlow: number | undefined;
  let held = new Decimal(0);
  for (let i = 0; i < closes.length; i++) {
    const c = closes[i]!;
    fastSum += c - (i >= FAST ? closes[i - FAST]! : 0);
    slowSum += c - (i >= SLOW ? closes[i - SLOW]! : 0);
    const fast = i >= FAST - 1 ? fastSum / FAST : undefined;
    const slow = i >= SLOW - 1 ? slowSum / SLOW : undefined;
    if (fast !== undefined && slow !== undefined && prevFast !== undefined && prevSlow !== undefined && i + 1 < closes.length) {
      const flat = held.lte(0) || held.lt(step);
      const price = new Decimal(opens[i + 1]!);
      const time = openTimes[i + 1]!;
      if (fast > slow && prevFast <= prevSlow && flat) {
        const qty = new Decimal(1000).div(price).toDecimalPlaces(6, Decimal.ROUND_DOWN);
        const commission = qty.times(fee);
        held = held.plus(qty).minus(commission);
        out.push({ time, side: 'BUY', price: price.toFixed(), qty: qty.toFixed(), commission: commission.toFixed() });
      } else if (fast < slow && prevFast >= prevSlow && !flat) {
        const qty = held.toDecimalPlaces(6, Decimal.ROUND_DOWN);
        const commission = qty.times(price).times(fee);
        held = held.minus(qty);
        out.push({ time, side: 'SELL', price: price.toFixed(), qty: qty.toFixed(), commission: commission.toFixed() });
      }
    }
    prevFast = fast;
    prevSlow = slow;
  }
  return out;
}

const common = { symbol: 'BTCPHP', interval: '1m', instrument: testInstrument(), fees: { maker: '0.001', taker: '0.001' } } as const;

describe('backtest acceptance', () => {
  it('SMA crossover over a year of 1-minute bars reproduces an independent plain loop, fill for fill', () => {
    const year = minuteYear(1, { tick: '1', startPrice: '100000' });
    expect(year.length).toBe(525_600);
    const openTimes: number[] = [];
    const opens: string[] = [];
    const closes: number[] = [];
    for (const c of year) {
      openTimes.push(c.openTime);
      opens.push(c.exact.open);
      closes.push(c.close);
    }
    const expected = plainLoop(openTimes, opens, closes);
    const run = runBacktest({ ...common, strategy: smaCrossover, bars: year, balances: { PHP: '1000000' } });
    const got = run.fills.map((f) => ({ time: f.time, side: f.side, price: f.price, qty: f.qty, commission: f.commission }));
    expect(expected.length).toBeGreaterThan(1000);
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
    expect(run.barCount).toBe(525_600);
    expect(run.denials).toEqual([]);
    expect(run.strategyFailures).toEqual([]);
  }, 180_000);

  it('a strategy cannot reach a bar that has not closed', () => {
    const bars = upThenDown(5, 300);
    const seen: { openTime: number; now: number; lastClose: number; newestVisible: number; highs: number[]; ahead: unknown[] }[] = [];
    const peek = defineStrategy({
      name: 'peek',
      params: z.object({}),
      symbols: ['BTCPHP'],
      history: 5000,
      onBar(ctx, bar) {
        const series = ctx.bars();
        const last = series.last!;
        seen.push({
          openTime: bar.openTime,
          now: ctx.now(),
          lastClose: last.closeTime,
          newestVisible: Math.max(...series.bars().map((b) => b.openTime)),
          highs: [...series.highs()],
          ahead: [series.at(-1), series.close(-1), series.sma(2).at(-1), ctx.book(), ctx.lastTrade()],
        });
      },
    });
    runBacktest({ ...common, strategy: peek, bars, balances: { PHP: '1000' } });
    expect(seen).toHaveLength(bars.length);
    seen.forEach((s, n) => {
      expect(s.openTime).toBe(bars[n]!.openTime);
      expect(s.lastClose).toBeLessThan(s.now); // bars().last.closeTime < now()
      expect(s.now).toBe(bars[n]!.closeTime + 1); // delivered at its close, which is when bar N+1 opens
      expect(s.newestVisible).toBe(bars[n]!.openTime); // nothing of bar N+1 is in the history
      expect(s.highs).toEqual(bars.slice(0, n + 1).map((b) => b.high));
      expect(s.ahead).toEqual([undefined, undefined, undefined, undefined, undefined]);
    });
    // And the runner refuses a bar before it has closed: that would be lookahead.
    const view = new FakeStateView({ instruments: [testInstrument()] });
    const runner = new StrategyRunner(peek, { state: view });
    runner.start();
    view.time = bars[0]!.closeTime; // its last millisecond: still forming
    expect(() => runner.bar('BTCPHP', '1m', bars[0]!)).toThrow(RunnerInputError);
  });

  it('an order that breaks a filter is denied before the venue sees it, and the strategy gets the reasons', () => {
    const placed = vi.spyOn(SpotEngine.prototype, 'placeOrder');
    const updates: string[] = [];
    const offTick = defineStrategy({
      name: 'off-tick',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ done: false }),
      onBar(ctx) {
        if (ctx.state.done) return;
        ctx.state.done = true;
        return [
          place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '500.005', tag: 'bad' }),
          place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '500', tag: 'good' }),
        ];
      },
      onOrderUpdate: (_ctx, u) => void updates.push(`${u.tag} ${u.status}: ${u.reason ?? ''}`),
    });
    const run = runBacktest({ ...common, strategy: offTick, bars: upThenDown(1, 50), balances: { PHP: '1000' } });
    const sent = placed.mock.calls.map(([, req]) => req.clientOrderId ?? '');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/good-1$/);
    const reason = 'Filter failure: PRICE_FILTER: price 500.005 is not a multiple of tickSize 0.01 above minPrice 0.01';
    // The strategy gets the reasons and the context helper that avoids them; the run's record keeps the reasons alone.
    expect(updates[0]).toBe(`bad DENIED: ${reason} (hint: ctx.instrument().roundPrice() puts a price on the tick)`);
    expect(updates[1]).toBe('good NEW: ');
    expect(run.denials).toEqual([{ time: run.from + 60_000, symbol: 'BTCPHP', tag: 'bad', reasons: [reason] }]);
  });

  it('the same input gives a byte-identical result', () => {
    const cases: [string, Omit<BacktestOptions, 'bars'>, () => Iterable<never>][] = [
      ['sma-crossover', { ...common, strategy: smaCrossover, balances: { PHP: '100000' }, fillModel: { slippageBps: 3 } }, () => minuteYear(2).toArray().slice(0, 100_000) as never],
      ['grid', { ...common, strategy: grid, params: { lower: '900', upper: '1700', levels: 17, quantity: '0.2' }, balances: { PHP: '100000', BTC: '2' } }, () => upThenDown(3, 2000) as never],
      ['market-maker', { ...common, strategy: marketMaker, params: { quantity: '0.2', maxInventory: '1' }, balances: { PHP: '100000' }, fillModel: { limitFill: 'touch', volumeShare: 0.5 } }, () => upThenDown(3, 2000) as never],
    ];
    for (const [name, opts, bars] of cases) {
      const a = JSON.stringify(runBacktest({ ...opts, bars: bars() }));
      const b = JSON.stringify(runBacktest({ ...opts, bars: bars() }));
      expect(a.length, name).toBeGreaterThan(1000);
      expect(b === a, `${name} differs between two runs`).toBe(true);
      expect((JSON.parse(a) as { fills: unknown[] }).fills.length, `${name} trades`).toBeGreaterThan(5);
    }
  }, 120_000);
});
