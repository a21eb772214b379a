/**
 * A strategy's onTimer in a backtest fires at each due time, inside the bars too (play-bar.ts),
 * as a live host fires it; what it sends meets the rest of the bar's path. Before, a backtest
 * fired a timer only when a bar was delivered: a 15-second timer ran once a minute.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrument } from '../../core/orders/test-support.ts';
import { defineStrategy } from '../../strategy/define.ts';
import { place } from '../../strategy/intents/intents.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestBar } from '../types.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});
const T0 = Date.UTC(2024, 0, 1);
const bar = (i: number, open: string, high: string, low: string, close: string): BacktestBar => ({ openTime: T0 + i * 60_000, closeTime: T0 + (i + 1) * 60_000 - 1, open, high, low, close, volume: '100' });
const secs = (t: number) => (t - T0) / 1000;

function timed(timerMs: number, onTimer: (time: number, bars: number) => ReturnType<typeof place>[] | undefined, log: string[]) {
  return defineStrategy({
    name: 'timed',
    params: z.object({}),
    symbols: ['BTCPHP'],
    timerMs,
    state: () => ({ bars: 0 }),
    onBar: (ctx) => {
      ctx.state.bars++;
      log.push(`bar t+${secs(ctx.now())}s`);
    },
    onTimer: (ctx, time) => {
      log.push(`timer t+${secs(time)}s now t+${secs(ctx.now())}s after ${ctx.state.bars} bars`);
      return onTimer(time, ctx.state.bars);
    },
    onFill: (ctx, f) => void log.push(`fill ${f.side} ${f.qty.toFixed()}@${f.price.toFixed()} t+${secs(ctx.now())}s`),
  });
}

const run = (strategy: ReturnType<typeof timed>, bars: BacktestBar[]) =>
  runBacktest({ strategy, symbol: 'BTCPHP', interval: '1m', bars, instrument: inst, fees: { maker: '0', taker: '0' }, balances: { PHP: '10000' } });

describe('timers in a backtest', () => {
  it('fire at every due time inside the bars, on the clock of that time, the bar delivered after its close', () => {
    const log: string[] = [];
    run(timed(20_000, () => undefined, log), [bar(0, '100', '101', '99', '100'), bar(1, '100', '102', '99', '101')]);
    // The first tick is the first aligned time after the start (the first bar's open).
    expect(log).toEqual([
      'timer t+20s now t+20s after 0 bars',
      'timer t+40s now t+40s after 0 bars',
      'bar t+60s',
      'timer t+60s now t+60s after 1 bars',
      'timer t+80s now t+80s after 1 bars',
      'timer t+100s now t+100s after 1 bars',
      'bar t+120s',
      'timer t+120s now t+120s after 2 bars',
    ]);
  });

  it("a MARKET order a timer sends mid-bar fills at the next point of the bar's path, not at the next bar's open", () => {
    const log: string[] = [];
    // Bar 1 goes up: open 100 at t+60s, low 98 at t+80s, high 110 at t+100s, close 105 at t+119.999s.
    const strategy = timed(30_000, (time, bars) => (bars === 1 && secs(time) === 90 ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] : undefined), log);
    const r = run(strategy, [bar(0, '100', '101', '99', '100'), bar(1, '100', '110', '98', '105'), bar(2, '105', '106', '104', '105')]);
    expect(log).toContain('fill BUY 1@110 t+100s');
    expect(log.indexOf('timer t+90s now t+90s after 1 bars')).toBeLessThan(log.indexOf('fill BUY 1@110 t+100s'));
    expect(r.fills.map((f) => [f.price, secs(f.time)])).toEqual([['110', 100]]);
  });

  it('bars missing between two bars are one timer call at the next open with the latest due time (a host that fell behind fires once)', () => {
    const log: string[] = [];
    run(timed(60_000, () => undefined, log), [bar(0, '100', '101', '99', '100'), bar(5, '100', '101', '99', '100')]);
    expect(log.filter((l) => l.startsWith('timer'))).toEqual(['timer t+60s now t+60s after 1 bars', 'timer t+300s now t+300s after 1 bars', 'timer t+360s now t+360s after 2 bars']);
  });
});
