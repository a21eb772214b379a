import { describe, expect, it } from 'vitest';
import { isOnStep } from '../money/rounding.ts';
import { CANNED_MARKETS, MINUTES_PER_YEAR, crash, flat, minuteYear, sharpUp, slowDown, slowUp, upThenDown } from './canned.ts';
import { DEFAULT_START_TIME, generateCandles, generateSeries } from './generate.ts';
import type { SyntheticCandle } from './generate.ts';

function expectConsistent(bars: readonly SyntheticCandle[], tick: string, intervalMs = 60_000): void {
  bars.forEach((b, i) => {
    expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
    expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
    expect(b.low).toBeGreaterThan(0);
    expect(b.volume).toBeGreaterThan(0);
    expect(b.closeTime).toBe(b.openTime + intervalMs - 1);
    for (const k of ['open', 'high', 'low', 'close'] as const) {
      expect(Number(b.exact[k])).toBe(b[k]);
      expect(isOnStep(b.exact[k], tick)).toBe(true);
    }
    expect(Number(b.exact.volume)).toBe(b.volume);
    const prev = bars[i - 1];
    if (prev) {
      expect(b.open).toBe(prev.close);
      expect(b.exact.open).toBe(prev.exact.close);
      expect(b.openTime).toBe(prev.openTime + intervalMs);
    }
  });
}

describe('generateCandles', () => {
  it('produces internally consistent bars on the tick grid for every canned market', () => {
    for (const [name, market] of Object.entries(CANNED_MARKETS)) {
      for (const seed of [1, 2, 'x']) {
        const bars = market(seed, 150);
        expect(bars, name).toHaveLength(150);
        expectConsistent(bars, '0.01');
      }
    }
  });

  it('honours tick, start price, start time and interval', () => {
    const bars = generateCandles({ seed: 3, tick: '0.05', startPrice: '2500000', startTime: 0, intervalMs: 300_000, segments: [{ regime: 'sharpDown', bars: 200 }] });
    expect(bars[0]!.open).toBe(2_500_000);
    expect(bars[0]!.exact.open).toBe('2500000.00');
    expect(bars[0]!.openTime).toBe(0);
    expectConsistent(bars, '0.05', 300_000);
  });

  it('same seed, same bars; another seed, other bars', () => {
    const a = upThenDown(42, 500);
    const b = upThenDown(42, 500);
    expect(b).toEqual(a);
    expect(b.map((x) => x.exact)).toEqual(a.map((x) => x.exact));
    expect(upThenDown(43, 500).map((x) => x.close)).not.toEqual(a.map((x) => x.close));
  });

  it('starts at 2024-01-01T00:00Z by default and labels the regime', () => {
    const bars = slowUp(1, 3);
    expect(bars[0]!.openTime).toBe(DEFAULT_START_TIME);
    expect(bars.every((b) => b.regime === 'slowUp')).toBe(true);
    expect(upThenDown(1, 10).map((b) => b.regime)).toEqual(Array(10).fill('custom'));
  });

  it('regimes have their character', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const change = (bars: SyntheticCandle[]) => bars.at(-1)!.close / bars[0]!.open - 1;
      expect(change(slowUp(seed))).toBeGreaterThan(0.1);
      expect(change(slowDown(seed))).toBeLessThan(-0.1);
      expect(change(sharpUp(seed))).toBeGreaterThan(change(slowUp(seed)) + 0.5);
      const f = flat(seed);
      expect(Math.max(...f.map((b) => b.high)) / Math.min(...f.map((b) => b.low))).toBeLessThan(1.06);
      const c = crash(seed);
      const peak = Math.max(...c.slice(0, 450).map((b) => b.close));
      expect(Math.min(...c.slice(450).map((b) => b.close)) / peak).toBeLessThan(0.8);
      const u = upThenDown(seed);
      const top = u.reduce((best, b, i) => (b.close > u[best]!.close ? i : best), 0);
      expect(top).toBeGreaterThan(350);
      expect(top).toBeLessThan(650);
      expect(u.at(-1)!.close).toBeLessThan(u[top]!.close * 0.85);
    }
  });

  it('gives a 4-point path with the nearer extreme first', () => {
    const bars = generateCandles({ seed: 9, withPath: true, segments: [{ regime: 'sharpUp', bars: 100 }] });
    for (const b of bars) {
      const [o, x, y, c] = b.path!;
      expect(o).toBe(b.open);
      expect(c).toBe(b.close);
      expect([x, y].sort()).toEqual([b.high, b.low].sort());
      expect(Math.abs(x! - b.open)).toBeLessThanOrEqual(Math.abs(y! - b.open));
    }
    expect(slowUp(1, 2)[0]!.path).toBeUndefined();
  });

  it('rejects bad options with the option named', () => {
    expect(() => generateCandles({ segments: [] })).toThrow(/at least one segment/);
    expect(() => generateCandles({ segments: [{ regime: 'flat', bars: 0 }] })).toThrow(/segments\[0\]\.bars/);
    expect(() => generateCandles({ segments: [{ regime: 'sideways' as 'flat', bars: 5 }] })).toThrow(/unknown regime 'sideways'/);
    expect(() => generateCandles({ tick: 'abc', segments: [{ regime: 'flat', bars: 5 }] })).toThrow(/tick/);
    expect(() => generateCandles({ startPrice: '-1', segments: [{ regime: 'flat', bars: 5 }] })).toThrow(/startPrice/);
    expect(() => generateCandles({ segments: [{ regime: { drift: 0.05, volatility: 0 }, bars: 2000 }] })).toThrow(/price grew past/);
  });
});

describe('generateSeries', () => {
  it('materialises the same bars as generateCandles, and undefined out of range', () => {
    const opts = { seed: 5, segments: [{ regime: 'flat' as const, bars: 50 }] };
    const s = generateSeries(opts);
    expect([...s]).toEqual(generateCandles(opts));
    expect(s.at(50)).toBeUndefined();
    expect(s.at(-1)).toBeUndefined();
    expect(Array.from(s.closes())).toEqual(generateCandles(opts).map((b) => b.close));
  });

  it('generates a year of 1-minute bars fast and deterministically', () => {
    const t0 = performance.now();
    const year = minuteYear(7);
    const ms = performance.now() - t0;
    expect(year.length).toBe(MINUTES_PER_YEAR);
    // The goal is < 1 s; the bound leaves room for a loaded CI machine.
    expect(ms).toBeLessThan(2500);
    const closes = year.closes();
    expect(closes.every((c) => c > 0)).toBe(true);
    expect(minuteYear(7).closes()).toEqual(closes);
    const last = year.at(MINUTES_PER_YEAR - 1)!;
    expect(last.openTime).toBe(DEFAULT_START_TIME + (MINUTES_PER_YEAR - 1) * 60_000);
    expectConsistent([year.at(1000)!, year.at(1001)!, year.at(1002)!], '0.01');
  });
});
