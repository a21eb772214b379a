/**
 * A run says what it could not do: a strategy whose warmup is as long as the run or longer never
 * got to act, and the backtest says so in the run (warmup, notices: the JSON) and in the summary.
 * Warmup bars come from the run's own bars.
 */
import { describe, expect, it } from 'vitest';
import { instrument } from '../../core/orders/test-support.ts';
import { defineStrategy, place, z } from '../../strategy/index.ts';
import { candlesFromCloses } from '../../strategy/testing/index.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { runBacktest } from './run-backtest.ts';
import { runNotices, warmupBars, warmupLine } from './run-notices.ts';
import { formatSummary } from '../output/summary.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});

/** Buys on every bar onBar sees, recording how many bars its history held then. */
function buyer(warmup: number, seen: number[] = []) {
  return defineStrategy({
    name: 'buyer',
    params: z.object({}),
    symbols: ['BTCPHP'],
    warmup,
    onBar(ctx) {
      seen.push(ctx.bars().length);
      return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' })];
    },
  });
}

const closes = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);
const backtest = (warmup: number, bars: number, seen?: number[]) =>
  runBacktest({ strategy: buyer(warmup, seen), symbol: 'BTCPHP', interval: '1m', bars: candlesFromCloses(closes(bars)), instrument: inst, fees: { maker: '0', taker: '0' }, balances: { PHP: '10000' } });

describe('warmup', () => {
  it('comes from the run: onBar first runs on bar `warmup`, after warmup - 1 bars of history only', () => {
    const seen: number[] = [];
    const run = backtest(31, 40, seen);
    expect(seen).toEqual([31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect(run.warmup).toBe(31);
    expect(run.notices).toEqual([]);
    expect(run.fills).toHaveLength(9); // the last bar's order has no next open
    const text = formatSummary(run, computeMetrics(run));
    expect(text).toMatch(/^Range {5}.*\(40m, 40 bars\)\nWarmup {4}31 bars: the first 30 only filled the strategy's history, onBar ran on the other 10$/m);
    expect(text).not.toMatch(/^Warning/m);
  });

  it('warns when the run is shorter than the warmup: onBar never ran (5 bars, warmup 31)', () => {
    const seen: number[] = [];
    const run = backtest(31, 5, seen);
    expect(seen).toEqual([]);
    expect(run.fills).toEqual([]);
    expect(run.notices).toEqual([
      "the strategy's warmup is 31 bars and the run had 5: onBar never ran; warmup bars come from the run's own bars (nothing is loaded before the range): start the range earlier or run more bars",
    ]);
    const text = formatSummary(run, computeMetrics(run));
    expect(text).toMatch(/^Warmup {4}31 bars, more than the run's 5: onBar never ran$/m);
    expect(text).toMatch(/^Warning {3}the strategy's warmup is 31 bars and the run had 5: onBar never ran; warmup bars come from/m);
  });

  it('warns when the warmup is exactly the run: onBar ran on the last bar only, and nothing could fill', () => {
    const seen: number[] = [];
    const run = backtest(5, 5, seen);
    expect(seen).toEqual([5]);
    expect(run.fills).toEqual([]);
    expect(run.notices).toEqual([expect.stringMatching(/^the strategy's warmup is 5 bars and the run had 5: onBar ran only on the last bar, too late for its orders to fill; /)]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}5 bars, all of the run's: onBar ran on the last bar only$/m);
  });

  it('says nothing about a warmup of 0 or 1 (onBar from the first bar)', () => {
    for (const w of [0, 1]) {
      const run = backtest(w, 3);
      expect(run.warmup).toBe(w);
      expect(run.notices).toEqual([]);
      expect(formatSummary(run, computeMetrics(run))).not.toMatch(/^(Warmup|Warning)/m);
    }
    expect(warmupLine(undefined, 10)).toBeUndefined();
    expect(warmupBars(31, 5)).toBe(5);
    expect(warmupBars(31, 100)).toBe(30);
    expect(warmupBars(0, 100)).toBe(0);
    expect(runNotices({ warmup: 2, barCount: 3 })).toEqual([]);
  });

  it('keeps the JSON byte-identical for identical input', () => {
    expect(JSON.stringify(backtest(31, 5))).toBe(JSON.stringify(backtest(31, 5)));
  });
});
