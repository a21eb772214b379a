/**
 * A backtest over the journal equals the same backtest over the same bars in memory, byte for
 * byte: the journal's replay hands out reused candles whose texts are cut when read and kept by
 * reference (candle.ts ReusedCandleText), and the run reads a bar's close only when an order is
 * checked or the venue moves (run-backtest.ts, play-bar.ts); none of that may change a result.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { minuteYear } from '../../core/synthetic/index.ts';
import { openJournal } from '../../journal/journal.ts';
import type { Journal } from '../../journal/journal.ts';
import { defineStrategy } from '../../strategy/define.ts';
import { place } from '../../strategy/intents/intents.ts';
import { testInstrument } from '../../strategy/testing/test-instrument.ts';
import grid from '../../../strategies/grid.ts';
import sma from '../../../strategies/sma-crossover.ts';
import { runBacktest } from '../run/run-backtest.ts';
import type { BacktestOptions } from '../run/run-backtest.ts';
import { journalBars } from './sources.ts';

const instrument = testInstrument({ maxQty: '100', minNotional: '50' });

// 2,500 bars: two packed blocks of 1024 and rows not packed yet.
const candles = [...minuteYear(7)].slice(0, 2_500).map((c) => ({ ...c, exact: { ...c.exact } }));
let dir: string;
let journal: Journal;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-replay-'));
  journal = openJournal(join(dir, 'j.db'));
  journal.klines.insertKlines(candles.map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
});
afterAll(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Buys at market every 40th bar; sells what it got, at market, as soon as it hears of the fill (an order checked mid-bar, on the fill's price). */
const reactive = defineStrategy({
  name: 'reactive',
  params: z.object({}),
  symbols: ['BTCPHP'],
  state: () => ({ i: 0 }),
  onBar: (ctx) => (ctx.state.i++ % 40 === 0 ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '500', tag: 'in' })] : undefined),
  onFill: (ctx, f) => (f.side === 'BUY' ? [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: ctx.instrument().roundQty(f.qty.minus(f.commission)), tag: 'out' })] : undefined),
});

describe('a backtest over the journal', () => {
  const setups: [string, Partial<BacktestOptions>][] = [
    ['sma crossover 2/5', { strategy: sma, params: { fast: 2, slow: 5 } }],
    ['grid (resting limit orders)', { strategy: grid, params: { lower: String(Math.round(candles[0]!.close * 0.99)), upper: String(Math.round(candles[0]!.close * 1.01)), quantity: '0.1' }, balances: { PHP: '100000', BTC: '5' } }],
    ['reacting to fills', { strategy: reactive }],
  ];
  it.each(setups)('%s: the same run as over the bars in memory, byte for byte', (_name, over) => {
    const opts = { symbol: 'BTCPHP', interval: '1m', instrument, fees: { maker: '0.001', taker: '0.001' }, balances: { PHP: '100000' }, ...over } as BacktestOptions;
    const memory = runBacktest({ ...opts, bars: candles });
    const replay = runBacktest({ ...opts, bars: journalBars(journal, 'BTCPHP', '1m') });
    expect(memory.fills.length).toBeGreaterThan(10);
    expect(JSON.stringify(replay)).toBe(JSON.stringify(memory));
  });
});
