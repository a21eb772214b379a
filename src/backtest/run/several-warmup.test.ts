/**
 * A warmup per interval in a run of several symbols (run-several.ts): onBar of each symbol waits
 * until every declared series of that symbol has its count, from the run's bars or the history
 * given before the range, as in a one-symbol run (warmup-per-interval.test.ts). Before, such a
 * run was refused.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../strategy/define.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestSymbol } from './run-several.ts';
import { formatSummary } from '../output/summary.ts';
import type { BacktestBar } from '../types.ts';
import { btc, eth, MIN, T0 } from './several-test-support.ts';


/** Minute bars from T0 + start minutes, closes base + (i % 50). */
const minutes = (n: number, start = 0, base = 100): BacktestBar[] =>
  Array.from({ length: n }, (_, k) => {
    const i = start + k;
    const c = String(base + (i % 50));
    return { openTime: T0 + i * MIN, closeTime: T0 + (i + 1) * MIN - 1, open: c, high: c, low: c, close: c, volume: '1' };
  });

type Seen = Record<string, { at: number; sma: number | undefined }[]>;

/** Reads its symbol's 1h SMA(3) on each 1m bar; records per symbol when (minutes from T0) and what it read. */
function trend(seen: Seen, warmup: unknown = { '1h': 3 }) {
  return defineStrategy({
    name: 'trend',
    params: z.object({}),
    symbols: ['BTCPHP', 'ETHPHP'],
    intervals: ['1m', '1h'],
    warmup: warmup as never,
    onBar(ctx, bar) {
      if (bar.interval === '1m') (seen[bar.symbol] ??= []).push({ at: (ctx.now() - T0) / MIN, sma: ctx.bars(bar.symbol, '1h').sma(3).at(0) });
    },
  });
}

const backtest = (strategy: ReturnType<typeof trend>, b: Omit<BacktestSymbol, 'instrument' | 'symbol'>, e: Omit<BacktestSymbol, 'instrument' | 'symbol'>) =>
  runBacktest({
    strategy,
    interval: '1m',
    symbols: [
      { symbol: 'BTCPHP', instrument: btc, ...b },
      { symbol: 'ETHPHP', instrument: eth, ...e },
    ],
    fees: { maker: '0', taker: '0' },
    balances: { PHP: '10000' },
  });

describe('a run of several symbols: warmup per interval', () => {
  it("holds each symbol's onBar until its own series have their counts: a symbol starting an hour later starts an hour later", () => {
    const seen: Seen = {};
    const run = backtest(trend(seen), { bars: minutes(300) }, { bars: minutes(240, 60, 50) });
    // BTCPHP's third hour closes at 03:00, ETHPHP's (its hours 01:00 .. 04:00) at 04:00.
    expect([seen['BTCPHP']?.[0]?.at, seen['ETHPHP']?.[0]?.at]).toEqual([180, 240]);
    expect([seen['BTCPHP']?.length, seen['ETHPHP']?.length]).toEqual([300 - 179, 300 - 239]);
    expect(Object.values(seen).every((s) => s.every((x) => x.sma !== undefined))).toBe(true);
    expect(run.warmupByInterval).toEqual({ '1m': 0, '1h': 3 });
    expect('warmup' in run).toBe(false);
    // The run: periods until every symbol's onBar ran; each symbol: its own bars.
    expect(run.warmupIdleBars).toBe(239);
    expect(run.symbols?.map((s) => [s.symbol, s.barCount, s.warmupIdleBars])).toEqual([
      ['BTCPHP', 300, 179],
      ['ETHPHP', 240, 179],
    ]);
    expect(run.notices).toEqual([]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}1h 3 bars: the first 239 of the run's bars only filled the strategy's history, onBar ran on the other 61$/m);
  });

  it('takes the history before the range per symbol: onBar from the first bar, or from where the short one had its hours, said for that symbol', () => {
    const seen: Seen = {};
    const run = backtest(trend(seen), { bars: minutes(120, 180), history: minutes(180) }, { bars: minutes(120, 180, 50), history: minutes(120, 60, 50) });
    expect([seen['BTCPHP']?.[0]?.at, seen['ETHPHP']?.[0]?.at]).toEqual([181, 240]);
    expect(seen['ETHPHP']?.[0]?.sma).toBeDefined();
    expect([run.startupBars, run.warmupIdleBars]).toEqual([180, 59]);
    expect(run.symbols?.map((s) => s.warmupIdleBars)).toEqual([0, 59]);
    expect(run.notices).toEqual(["ETHPHP: the 120 1m bars before the range did not cover the strategy's warmup (1h 3 bars): 1h had 2 of its 3 bars at the first bar; onBar first ran on bar 60 of 120"]);
  });

  it('says a warmup never reached once for the symbols it held back alike', () => {
    const run = backtest(trend({}, { '1m': 5, '1h': 3 }), { bars: minutes(100) }, { bars: minutes(100, 0, 50) });
    expect([run.warmupIdleBars, run.symbols?.map((s) => s.warmupIdleBars)]).toEqual([100, [100, 100]]);
    expect(run.notices).toEqual([
      "BTCPHP, ETHPHP: the strategy's warmup (1m 5, 1h 3 bars) was not reached in the run's 100 bars: at the end 1h had 1 of its 3 bars: onBar never ran; warmup bars come from the run's own bars (nothing is loaded before the range): start the range earlier or run more bars",
    ]);
    expect(formatSummary(run, computeMetrics(run))).toMatch(/^Warmup {4}1m 5, 1h 3 bars: onBar never ran$/m);
  });

  it('a numeric warmup reads as before: no per-symbol counts', () => {
    const run = backtest(trend({}, 31), { bars: minutes(60) }, { bars: minutes(60, 0, 50) });
    expect([run.warmup, 'warmupByInterval' in run, run.symbols?.some((s) => 'warmupIdleBars' in s)]).toEqual([31, false, false]);
  });
});
