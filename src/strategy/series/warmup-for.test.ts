import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adx, atr, ema, rsi, sma } from '../../core/indicators/index.ts';
import type { Hlc } from '../../core/indicators/index.ts';
import { WARMUP_TOLERANCE, warmupFor } from './warmup-for.ts';

/** A seeded random walk of bars around 100 (a small LCG: the same bars every run). */
function walk(n: number, seed: number): Hlc[] {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  let close = 100;
  const bars: Hlc[] = [];
  for (let i = 0; i < n; i++) {
    close *= 1 + (next() - 0.5) * 0.02;
    const high = close * (1 + next() * 0.01);
    const low = close * (1 - next() * 0.01);
    bars.push({ high, low, close });
  }
  return bars;
}

/** Relative difference at the last bar between a series fed every bar and one fed only the last `warmup`. */
function lastDifference<T>(all: readonly T[], warmup: number, run: (xs: readonly T[]) => (number | undefined)[]): number {
  const full = run(all).at(-1) as number;
  const late = run(all.slice(all.length - warmup)).at(-1);
  expect(late).toBeTypeOf('number');
  return Math.abs((late as number) - full) / Math.abs(full);
}

describe('warmupFor', () => {
  it('gives the period for windowed indicators and more for recursive ones', () => {
    expect([warmupFor.sma(30), warmupFor.highest(20), warmupFor.lowest(20), warmupFor.stddev(20), warmupFor.bollinger(20)]).toEqual([30, 20, 20, 20, 20]);
    expect(warmupFor.rsi(14)).toBe(233);
    expect(warmupFor.ema(20)).toBe(182);
    expect(warmupFor.atr(14)).toBe(232);
    expect(warmupFor.adx(14)).toBe(323);
    expect(warmupFor.macd()).toBe(244);
    // A signal slower than the slow EMA decays slowest: it sets the count.
    expect(warmupFor.macd(12, 26, 50)).toBe(26 + 50 - 1 + warmupFor.ema(50) - 50);
    // A looser tolerance needs fewer bars.
    expect(warmupFor.rsi(14, 1e-3)).toBeLessThan(warmupFor.rsi(14));
  });

  it('is enough: a series started that many bars before the end agrees with one fed every bar, within the tolerance', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), (period, seed) => {
        const bars = walk(2000, seed);
        const closes = bars.map((b) => b.close);
        expect(lastDifference(closes, warmupFor.rsi(period), (xs) => rsi(xs, period))).toBeLessThan(WARMUP_TOLERANCE);
        expect(lastDifference(closes, warmupFor.ema(period), (xs) => ema(xs, period))).toBeLessThan(WARMUP_TOLERANCE);
        expect(lastDifference(bars, warmupFor.atr(period), (xs) => atr(xs, period))).toBeLessThan(WARMUP_TOLERANCE);
        expect(lastDifference(bars, warmupFor.adx(period), (xs) => adx(xs, period).map((v) => v?.adx))).toBeLessThan(WARMUP_TOLERANCE);
        expect(lastDifference(closes, warmupFor.sma(period), (xs) => sma(xs, period))).toBeLessThan(1e-12);
      }),
      { numRuns: 40 },
    );
  });

  it('is not padded: RSI fed its first value only (period + 2 bars) is far off', () => {
    const closes = walk(2000, 7).map((b) => b.close);
    expect(lastDifference(closes, 16, (xs) => rsi(xs, 14))).toBeGreaterThan(1e-3);
  });

  it('refuses a period that is not a whole number >= 1 and a tolerance outside (0, 1), naming the helper', () => {
    expect(() => warmupFor.rsi(0)).toThrow('warmupFor.rsi: period must be an integer >= 1, got 0');
    expect(() => warmupFor.sma(2.5)).toThrow('warmupFor.sma: period must be an integer >= 1, got 2.5');
    expect(() => warmupFor.ema(10, 0)).toThrow('warmupFor.ema: tolerance must be in (0, 1), got 0');
    expect(() => warmupFor.macd(12, 26, Number.NaN)).toThrow('warmupFor.macd: period must be an integer >= 1, got NaN');
  });
});
