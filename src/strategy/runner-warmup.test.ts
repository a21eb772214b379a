/**
 * The runner with a warmup per interval: onBar of a symbol is held until every declared series of
 * it has its count (a 1m strategy reading a 1h SMA waits for the hourly bars); a number keeps
 * gating each series on its own.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Candle } from '../core/indicators/candle.ts';
import { defineStrategy } from './define.ts';
import { StrategyRunner } from './runner.ts';
import { FakeStateView } from './testing/fake-state.ts';
import { candlesFromCloses } from './testing/test-candles.ts';
import { testInstrument } from './testing/test-instrument.ts';
import type { Interval } from './types.ts';

const HOUR = 3_600_000;
const minutes = candlesFromCloses(Array.from({ length: 4 * 60 }, (_, i) => 100 + (i % 7)), { startTime: 0 });
const hours = candlesFromCloses([101, 102, 103, 104], { startTime: 0, intervalMs: HOUR });

function host(warmup: unknown, symbols = ['BTCPHP']) {
  const view = new FakeStateView({ now: 0, instruments: [testInstrument()], balances: { PHP: '1000' } });
  const seen: string[] = [];
  const def = defineStrategy({
    name: 'mtf',
    params: z.object({}),
    symbols,
    intervals: ['1m', '1h'],
    warmup: warmup as never,
    onBar: (ctx, bar) => void seen.push(`${bar.interval}@${ctx.now() / 60_000}m h=${ctx.bars(bar.symbol, '1h').count}`),
  });
  const runner = new StrategyRunner(def, { state: view });
  const feed = (interval: Interval, c: Candle, symbol = 'BTCPHP') => {
    view.time = Math.max(view.time, c.closeTime + 1);
    return runner.bar(symbol, interval, c);
  };
  /** Minute i, with the hour it completes delivered first (as a backtest does). */
  const minute = (i: number, symbol = 'BTCPHP') => {
    const m = minutes[i] as Candle;
    if ((i + 1) % 60 === 0) feed('1h', hours[(i + 1) / 60 - 1] as Candle, symbol);
    feed('1m', m, symbol);
  };
  return { runner, seen, minute, view };
}

describe('StrategyRunner: warmup per interval', () => {
  it('holds onBar of the 1m series until the 1h series has its 3 bars, then lets both through', () => {
    const { runner, seen, minute } = host({ '1m': 2, '1h': 3 });
    runner.start();
    for (let i = 0; i < 179; i++) minute(i);
    expect(seen).toEqual([]);
    expect(runner.warmupShort('BTCPHP')).toEqual([{ interval: '1h', needs: 3, has: 2 }]);
    expect(runner.warmedAt('BTCPHP')).toBeUndefined();
    minute(179); // closes hour 3: the 1h bar opens the gate, then the 1m bar
    expect(seen).toEqual(['1h@180m h=3', '1m@180m h=3']);
    expect(runner.warmedAt('BTCPHP')).toBe(3 * HOUR);
    expect(runner.warmupShort('BTCPHP')).toEqual([]);
    minute(180);
    expect(seen.at(-1)).toBe('1m@181m h=3');
    // The history kept every bar before: the strategy's indicators saw them.
    expect(runner.series('BTCPHP', '1m')?.count).toBe(181);
  });

  it('an interval the record does not name needs nothing; bars before start() only fill the history', () => {
    const { runner, seen, minute } = host({ '1h': 1 });
    for (let i = 0; i < 60; i++) minute(i); // before start: the first hour is in, no handler runs
    runner.start();
    expect(seen).toEqual([]);
    minute(60);
    expect(seen).toEqual(['1m@61m h=1']);
  });

  it('a number still gates each series on its own: 1m bars from the 3rd, 1h bars from the 3rd hour', () => {
    const { runner, seen, minute } = host(3);
    runner.start();
    for (let i = 0; i < 3; i++) minute(i);
    expect(seen).toEqual(['1m@3m h=0']);
    for (let i = 3; i < 180; i++) minute(i);
    expect(seen.filter((s) => s.startsWith('1h'))).toEqual(['1h@180m h=3']);
    expect(runner.warmedAt('BTCPHP')).toBeUndefined(); // only the per-interval form records it
  });

  it('gates each symbol on its own series', () => {
    const { runner, seen, minute } = host({ '1h': 1 }, ['BTCPHP', 'ETHPHP']);
    runner.start();
    for (let i = 0; i < 60; i++) minute(i, 'BTCPHP');
    minute(0, 'ETHPHP');
    expect(seen).toEqual(['1h@60m h=1', '1m@60m h=1']);
    expect(runner.warmupShort('ETHPHP')).toEqual([{ interval: '1h', needs: 1, has: 0 }]);
  });
});
