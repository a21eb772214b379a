/**
 * Gaps in the replayed bars: the run counts the interval's bars missing between its first bar and
 * its last (BacktestRun.missingBars, in the JSON) and the summary's Range line says so, as the
 * sandbox's demo journal has minutes without trades and so without a kline.
 */
import { describe, expect, it } from 'vitest';
import { instrument } from '../../core/orders/test-support.ts';
import { defineStrategy, z } from '../../strategy/index.ts';
import type { Interval } from '../../strategy/index.ts';
import { candlesFromCloses } from '../../strategy/testing/index.ts';
import { gapSpacing, missingBetween } from '../sources/bar-input.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestBar } from '../types.ts';
import { formatSummary } from '../output/summary.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});

const idle = (interval: Interval) => defineStrategy({ name: 'idle', params: z.object({}), symbols: ['BTCPHP'], intervals: [interval], onBar: () => [] });
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function run(bars: Iterable<BarInput>, interval: Interval = '1m', range: { from?: number; to?: number } = {}) {
  return runBacktest({ strategy: idle(interval), symbol: 'BTCPHP', interval, bars, instrument: inst, fees: { maker: '0', taker: '0' }, balances: { PHP: '1000' }, ...range });
}

describe('missingBetween', () => {
  it('counts the bars of the interval between two open times', () => {
    expect(missingBetween(T0, T0 + MIN, '1m')).toBe(0);
    expect(missingBetween(T0, T0 + 4 * MIN, '1m')).toBe(3);
    expect(missingBetween(T0, T0 + 3 * 3_600_000, '1h')).toBe(2);
    expect(missingBetween(T0, T0 + 14 * 86_400_000, '1w')).toBe(1);
    // Months by the calendar: January to February is no gap, January to April two.
    expect(missingBetween(Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1), '1M')).toBe(0);
    expect(missingBetween(Date.UTC(2024, 0, 1), Date.UTC(2024, 3, 1), '1M')).toBe(2);
    expect(missingBetween(Date.UTC(2023, 11, 1), Date.UTC(2024, 1, 1), '1M')).toBe(1);
    // Bars closer than the interval (not the venue's alignment) are no gap, never a negative count.
    expect(missingBetween(T0, T0 + MIN, '5m')).toBe(0);
  });

  it('is asked only past one bar of spacing (the longest month for 1M)', () => {
    expect(gapSpacing('1m')).toBe(MIN);
    expect(gapSpacing('1M')).toBe(31 * 86_400_000);
  });
});

describe('a run over bars with gaps', () => {
  const closes = Array.from({ length: 10 }, (_, i) => 100 + i);

  it('counts the missing bars and says so in the Range line', () => {
    const all = candlesFromCloses(closes, { startTime: T0 });
    const holed = all.filter((_, i) => i !== 3 && i !== 4 && i !== 7);
    const r = run(holed);
    expect(r.barCount).toBe(7);
    expect(r.missingBars).toBe(3);
    expect(formatSummary(r, computeMetrics(r))).toMatch(/^Range {5}2024-01-01 00:00 UTC -> 2024-01-01 00:10 UTC \(10m, 7 bars, 3 missing: the data has gaps\)$/m);
    // Nothing missing: no word of it.
    const whole = run(all);
    expect(whole.missingBars).toBe(0);
    expect(formatSummary(whole, computeMetrics(whole))).toMatch(/^Range {5}.*\(10m, 10 bars\)$/m);
  });

  it('counts only between the first and the last bar of the range run', () => {
    const holed = candlesFromCloses(closes, { startTime: T0 }).filter((_, i) => i !== 1 && i !== 6);
    // [T0 + 2m, T0 + 6m): bars 2..5, none missing inside; the holes at 1 and 6 are outside.
    expect(run(holed, '1m', { from: T0 + 2 * MIN, to: T0 + 6 * MIN }).missingBars).toBe(0);
    expect(run(holed, '1m', { from: T0 + 2 * MIN }).missingBars).toBe(1);
  });

  it('reads BacktestBars from a generator and monthly bars by the calendar', () => {
    const month = (y: number, m: number): BacktestBar => ({ openTime: Date.UTC(y, m, 1), closeTime: Date.UTC(y, m + 1, 1) - 1, open: '1', high: '1', low: '1', close: '1', volume: '1' });
    function* months() {
      yield month(2024, 0);
      yield month(2024, 1);
      yield month(2024, 4); // March and April missing
      yield month(2024, 5);
    }
    expect(run(months(), '1M').missingBars).toBe(2);
  });
});
