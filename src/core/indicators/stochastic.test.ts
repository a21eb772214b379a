import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hlc } from './candle.ts';
import { Stochastic, stochastic } from './stochastic.ts';

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Raw %K per full window (50 when flat), %K its mean over `smooth`, %D the mean of %K over d. */
function naive(bars: readonly Hlc[], k: number, d: number, smooth: number) {
  const raw = bars.map((b, i) => {
    if (i + 1 < k) return undefined;
    const w = bars.slice(i + 1 - k, i + 1);
    const hh = Math.max(...w.map((x) => x.high));
    const ll = Math.min(...w.map((x) => x.low));
    return hh === ll ? 50 : (100 * (b.close - ll)) / (hh - ll);
  });
  const avg = (xs: readonly (number | undefined)[], n: number) =>
    xs.map((_, i) => {
      const w = xs.slice(Math.max(0, i + 1 - n), i + 1);
      return w.length === n && w.every((x) => x !== undefined) ? mean(w as number[]) : undefined;
    });
  const kLine = avg(raw, smooth);
  return { k: kLine, d: avg(kLine, d) };
}

const bar = (high: number, low: number, close: number): Hlc => ({ high, low, close });

describe('stochastic', () => {
  it('matches hand-computed values', () => {
    const bars = [bar(10, 8, 9), bar(12, 9, 11), bar(11, 7, 8), bar(13, 10, 13), bar(12, 11, 11)];
    // k = 3: windows [8..12] close 8 -> 20; [7..13] close 13 -> 100; [7..13] close 11 -> 4/6*100
    const fast = stochastic(bars, 3, 2, 1);
    expect(fast.slice(0, 2)).toEqual([undefined, undefined]);
    expect(fast[2]).toEqual({ k: 20, d: undefined });
    expect(fast[3]).toEqual({ k: 100, d: 60 });
    expect(fast[4]!.k).toBeCloseTo(200 / 3, 12);
    expect(fast[4]!.d).toBeCloseTo((100 + 200 / 3) / 2, 12);
    // smooth 2: %K 60 then (100 + 200/3) / 2; %D (d 2) from the second
    const slow = stochastic(bars, 3, 2, 2);
    expect(slow.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(slow[3]).toEqual({ k: 60, d: undefined });
    expect(slow[4]!.d).toBeCloseTo((60 + (100 + 200 / 3) / 2) / 2, 12);
  });

  it('a flat window gives 50 (TA-Lib gives 0)', () => {
    const flat = stochastic([bar(5, 5, 5), bar(5, 5, 5), bar(5, 5, 5)], 2, 2);
    expect(flat).toEqual([undefined, { k: 50, d: undefined }, { k: 50, d: 50 }]);
  });

  it('warm-up: %K from bar k + smooth - 1, %D from bar k + smooth + d - 2 (defaults: 14 and 16)', () => {
    const bars = Array.from({ length: 30 }, (_, i) => bar(101 + Math.sin(i), 99 + Math.sin(i), 100 + Math.cos(i)));
    const out = stochastic(bars);
    expect(out.findIndex((v) => v !== undefined)).toBe(13);
    expect(out.findIndex((v) => v?.d !== undefined)).toBe(15);
    const slow = stochastic(bars, 5, 3, 3);
    expect(slow.findIndex((v) => v !== undefined)).toBe(6);
    expect(slow.findIndex((v) => v?.d !== undefined)).toBe(8);
  });

  it('value, ready, reset and bad periods', () => {
    const s = new Stochastic(1, 1);
    expect(s.update(bar(4, 2, 3))).toEqual({ k: 50, d: 50 });
    expect(s.ready).toBe(true);
    s.reset();
    expect(s.value).toBeUndefined();
    expect(() => new Stochastic(0)).toThrow(/stochastic k: period must be an integer >= 1/);
    expect(() => new Stochastic(14, 3, 0)).toThrow(/stochastic smooth: period/);
  });

  it('matches the naive recomputation for any bars', () => {
    const arbBar = fc
      .tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 50 }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([low, range, at]) => bar(low + range, low, low + range * at));
    const periods = fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }));
    fc.assert(
      fc.property(fc.array(arbBar, { maxLength: 60 }), periods, (bars, [k, d, smooth]) => {
        const got = stochastic(bars, k, d, smooth);
        const want = naive(bars, k, d, smooth);
        got.forEach((g, i) => {
          const wk = want.k[i];
          const wd = want.d[i];
          if (wk === undefined) return expect(g).toBeUndefined();
          expect(g!.k).toBeCloseTo(wk, 9);
          if (wd === undefined) expect(g!.d).toBeUndefined();
          else expect(g!.d).toBeCloseTo(wd, 9);
        });
      }),
    );
  });
});
