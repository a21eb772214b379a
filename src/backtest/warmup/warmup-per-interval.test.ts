/**
 * A backtest of a strategy with a warmup per interval (define.ts): a 1m run of a strategy reading a
 * 1h SMA(3) decides nothing before the third hourly bar exists, from the run's own bars or from
 * history before the range; the run, its summary and its notices say what the warm-up took and
 * which interval lacked bars.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrument } from '../../core/orders/test-support.ts';
import { defineStrategy, resolveSetup } from '../../strategy/define.ts';
import { parseParams } from '../../strategy/params.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { runBacktest } from '../run/run-backtest.ts';
import { formatSummary } from '../output/summary.ts';
import type { BacktestBar } from '../types.ts';
import { warmupHistoryStart, warmupRunBars } from '../sources/warmup-span.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;
/** Minute bars from T0 + start minutes, closes 100 + (i % 50). */
const minutes = (n: number, start = 0): BacktestBar[] =>
  Array.from({ length: n }, (_, k) => {
    const i = start + k;
    const c = String(100 + (i % 50));
    return { openTime: T0 + i * MIN, closeTime: T0 + (i + 1) * MIN - 1, open: c, high: c, low: c, close: c, volume: '1' };
  });

/** Reads the 1h SMA(3) on each 1m bar; records when (minutes from T0) and what it read. */
function trend(seen: { at: number; sma: number | undefined }[], warmup: unknown = { '1h': 3 }) {
  return defineStrategy({
    name: 'trend',
    params: z.object({ period: z.number().int().default(3) }),
    symbols: ['BTCPHP'],
    intervals: ['1m', '1h'],
    warmup: warmup as never,
    onBar(ctx, bar) {
      if (bar.interval === '1m') seen.push({ at: (ctx.now() - T0) / MIN, sma: ctx.bars('BTCPHP', '1h').sma(ctx.params.period).at(0) });
    },
  });
}

const backtest = (strategy: ReturnType<typeof trend>, bars: BacktestBar[], history?: BacktestBar[]) =>
  runBacktest({ strategy, symbol: 'BTCPHP', interval: '1m', bars, instrument: inst, fees: { maker: '0', taker: '0' }, balances: { PHP: '10000' }, ...(history ? { history } : {}) });

describe('backtest: warmup per interval', () => {
  it('a 1m run reading a 1h SMA(3) decides first when the third hour closes, and the SMA is there every time', () => {
    const seen: { at: number; sma: number | undefined }[] = [];
    const run = backtest(trend(seen), minutes(300));
    expect(seen[0]?.at).toBe(180); // the minute closing 03:00, after the 1h bar it completed
    expect(seen).toHaveLength(300 - 179);
    expect(seen.every((s) => s.sma !== undefined)).toBe(true);
    expect(run.warmupByInterval).toEqual({ '1m': 0, '1h': 3 });
    expect(run.warmupIdleBars).toBe(179);
    expect('warmup' in run).toBe(false);
    expect(run.notices).toEqual([]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}1h 3 bars: the first 179 of the run's bars only filled the strategy's history, onBar ran on the other 121$/m);
  });

  it('with a number instead, the same strategy reads no SMA for its first hours (what the per-interval form fixes)', () => {
    const seen: { at: number; sma: number | undefined }[] = [];
    const run = backtest(trend(seen, 31), minutes(300));
    expect(seen[0]).toEqual({ at: 31, sma: undefined });
    expect(run.warmup).toBe(31);
    expect('warmupByInterval' in run).toBe(false);
  });

  it('history before the range from where warmupHistoryStart says: onBar from the first bar', () => {
    const seen: { at: number; sma: number | undefined }[] = [];
    const strategy = trend(seen);
    const setup = resolveSetup(strategy, parseParams('trend', strategy.params, {}));
    const from = T0 + 3 * HOUR;
    expect(warmupHistoryStart(setup, '1m', from)).toBe(T0);
    const run = backtest(strategy, minutes(120, 180), minutes(180));
    expect(seen[0]?.at).toBe(181);
    expect(seen[0]?.sma).toBeDefined();
    expect([run.startupBars, run.warmupIdleBars, run.notices]).toEqual([180, 0, []]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}1h 3 bars, 180 1m bars of it from before the range: onBar ran from the first bar$/m);
  });

  it('says which interval the history before the range fell short for, and from which bar onBar ran', () => {
    const seen: { at: number; sma: number | undefined }[] = [];
    const run = backtest(trend(seen), minutes(300, 180), minutes(120, 60));
    expect(seen[0]?.at).toBe(240);
    expect(run.warmupIdleBars).toBe(59);
    expect(run.notices).toEqual(["the 120 1m bars before the range did not cover the strategy's warmup (1h 3 bars): 1h had 2 of its 3 bars at the first bar; onBar first ran on bar 60 of 300"]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warning {3}the 120 1m bars before the range did not cover/m);
  });

  it('warns, naming the interval, when the run never got past it', () => {
    const run = backtest(trend([], { '1m': 5, '1h': 3 }), minutes(100));
    expect(run.warmupIdleBars).toBe(100);
    expect(run.notices).toEqual([
      "the strategy's warmup (1m 5, 1h 3 bars) was not reached in the run's 100 bars: at the end 1h had 1 of its 3 bars: onBar never ran; warmup bars come from the run's own bars (nothing is loaded before the range): start the range earlier or run more bars",
    ]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}1m 5, 1h 3 bars: onBar never ran$/m);
    const last = backtest(trend([]), minutes(180));
    expect(last.notices).toEqual([expect.stringMatching(/^the strategy's warmup \(1h 3 bars\) was reached on the last of the run's 180 bars: onBar ran only on the last bar, too late for its orders to fill; /)]);
  });

  it('the same options give the same run', () => {
    expect(JSON.stringify(backtest(trend([]), minutes(300, 180), minutes(120, 60)))).toBe(JSON.stringify(backtest(trend([]), minutes(300, 180), minutes(120, 60))));
  });
});

describe('warmup-span', () => {
  const setupOf = (warmup: unknown, intervals = ['1m', '1h']) => {
    const def = defineStrategy({ name: 's', params: z.object({}), symbols: ['BTCPHP'], intervals: intervals as never, warmup: warmup as never, onBar: () => [] });
    return resolveSetup(def, parseParams('s', def.params, {}));
  };

  it('warmupHistoryStart: the run interval needs its count less one, a longer one its count of whole periods before the one `from` is in', () => {
    const from = T0 + 3 * HOUR + 30 * MIN;
    expect(warmupHistoryStart(setupOf({ '1m': 31 }), '1m', from)).toBe(from - 30 * MIN);
    expect(warmupHistoryStart(setupOf({ '1m': 31, '1h': 2 }), '1m', from)).toBe(T0 + HOUR);
    expect(warmupHistoryStart(setupOf({ '1m': 1 }), '1m', from)).toBeUndefined();
    expect(warmupHistoryStart(setupOf({}), '1m', from)).toBeUndefined();
    expect(warmupHistoryStart(setupOf(31), '1m', from)).toBeUndefined(); // a number: from the run's own bars, as before
    expect(warmupHistoryStart(setupOf({ '1M': 2 }, ['1d', '1M']), '1d', Date.UTC(2024, 2, 15))).toBe(Date.UTC(2024, 0, 1));
  });

  it('warmupRunBars: a number as it is; a record in the run\'s bars, a longer interval with one period to spare', () => {
    expect(warmupRunBars(setupOf(31), '1m')).toBe(31);
    expect(warmupRunBars(setupOf({ '1m': 31, '1h': 3 }), '1m')).toBe(240);
    expect(warmupRunBars(setupOf({ '1m': 300, '1h': 3 }), '1m')).toBe(300);
    expect(warmupRunBars(setupOf({ '1h': 3 }, ['1h']), '1h')).toBe(3);
    expect(warmupRunBars(setupOf({}), '1m')).toBe(0);
  });
});
