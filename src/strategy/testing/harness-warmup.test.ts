/**
 * The testing kit with a warmup per interval: the harness holds onBar until the hourly series the
 * strategy reads has its bars (and says what is short), and runOnRegime reports what the warm-up took.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../define.ts';
import { place } from '../intents/intents.ts';
import { StrategyHarness } from './harness.ts';
import { runOnRegime } from './run-on-regime.ts';
import { candlesFromCloses } from './test-candles.ts';

const HOUR = 3_600_000;
/** Buys once, on its first 1m bar, if the 1h SMA(2) it reads is there. */
const buyer = defineStrategy({
  name: 'hourly-buyer',
  params: z.object({}),
  symbols: ['BTCPHP'],
  intervals: ['1m', '1h'],
  warmup: { '1h': 2 },
  state: () => ({ done: false }),
  onBar(ctx, bar) {
    if (bar.interval !== '1m' || ctx.state.done) return;
    ctx.state.done = true;
    if (ctx.bars('BTCPHP', '1h').sma(2).at(0) === undefined) return;
    return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'in' })];
  },
});

describe('testing kit: warmup per interval', () => {
  it('the harness holds onBar until the 1h series has its 2 bars, and says what is short', () => {
    const h = new StrategyHarness(buyer, { balances: { PHP: '100000' } });
    h.start();
    const minutes = candlesFromCloses(Array.from({ length: 121 }, () => '100'), { startTime: 0 });
    const hours = candlesFromCloses(['100', '100'], { startTime: 0, intervalMs: HOUR });
    expect(h.bars(minutes.slice(0, 60))).toEqual([]);
    h.bar(hours[0]!, 'BTCPHP', '1h');
    expect(h.warmupShort()).toEqual([{ interval: '1h', needs: 2, has: 1 }]);
    expect(h.bars(minutes.slice(60, 120))).toEqual([]);
    h.bar(hours[1]!, 'BTCPHP', '1h');
    expect(h.warmupShort()).toEqual([]);
    expect(h.bar(minutes[120]!)).toEqual([place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'in' })]);
    expect(h.fills).toHaveLength(1);
  });

  it('runOnRegime: the first order comes once two hours of the run have closed, and the run says so', () => {
    const { intents, run } = runOnRegime(buyer, 'flat', {}, { bars: 300, market: { startTime: 0 } });
    expect(intents[0]?.time).toBe(2 * HOUR);
    expect(run.warmupByInterval).toEqual({ '1m': 0, '1h': 2 });
    expect(run.warmupIdleBars).toBe(119);
  });
});
