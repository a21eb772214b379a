import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Macd, macd } from './macd.ts';

/** TA-Lib's EMA over xs from index `from`: seeded with the mean of the n values starting there. */
function emaFrom(xs: readonly (number | undefined)[], n: number, from: number): (number | undefined)[] {
  const out: (number | undefined)[] = xs.map(() => undefined);
  if (from + n > xs.length) return out;
  let e = 0;
  for (let i = from; i < from + n; i++) e += xs[i]!;
  e /= n;
  out[from + n - 1] = e;
  for (let i = from + n; i < xs.length; i++) out[i] = e = e + (2 / (n + 1)) * (xs[i]! - e);
  return out;
}

/** MACD the way TA-Lib lays it out: both EMAs seeded at index slow - 1, the signal over the macd values. */
function naive(xs: readonly number[], fast: number, slow: number, signal: number) {
  const s = emaFrom(xs, slow, 0);
  const f = emaFrom(xs, fast, slow - fast);
  const m = xs.map((_, i) => (i >= slow - 1 ? f[i]! - s[i]! : undefined));
  const sig = emaFrom(m, signal, slow - 1);
  return { m, sig };
}

describe('macd', () => {
  it('matches hand-computed values (TA-Lib seeding: the fast EMA starts slow - fast inputs late)', () => {
    // slow 3 (alpha 1/2): 2, 3, 4.5 at indexes 2..4; fast 2 (alpha 2/3) from index 1: 2.5, 3.5, 5.1667
    // macd 0.5, 0.5, 0.6667; signal 2 (alpha 2/3): seed 0.5 at index 3, then 0.5 + 2/3 * (2/3 - 0.5)
    const out = macd([1, 2, 3, 4, 6], 2, 3, 2);
    expect(out.slice(0, 2)).toEqual([undefined, undefined]);
    expect(out[2]).toEqual({ macd: 0.5, signal: undefined, histogram: undefined });
    expect(out[3]!.macd).toBeCloseTo(0.5, 12);
    expect(out[3]!.signal).toBeCloseTo(0.5, 12);
    expect(out[3]!.histogram).toBeCloseTo(0, 12);
    expect(out[4]!.macd).toBeCloseTo(2 / 3, 12);
    expect(out[4]!.signal).toBeCloseTo(0.5 + (2 / 3) * (2 / 3 - 0.5), 12);
    expect(out[4]!.histogram).toBeCloseTo(2 / 3 - 0.5 - (2 / 3) * (2 / 3 - 0.5), 12);
  });

  it('warms up: macd from input slow, signal and histogram from input slow + signal - 1 (defaults 26 and 34)', () => {
    const xs = Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 3) * 5);
    const out = macd(xs);
    expect(out.findIndex((v) => v !== undefined)).toBe(25);
    expect(out.findIndex((v) => v?.signal !== undefined)).toBe(33);
    expect(out.findIndex((v) => v?.histogram !== undefined)).toBe(33);
  });

  it('a flat input gives 0 everywhere', () => {
    for (const v of macd(Array<number>(20).fill(7), 3, 5, 4).slice(7)) expect(v).toEqual({ macd: 0, signal: 0, histogram: 0 });
  });

  it('value, ready, reset and bad periods', () => {
    const m = new Macd(1, 2, 1);
    expect(m.update(1)).toBeUndefined();
    expect(m.ready).toBe(false);
    expect(m.update(3)).toEqual({ macd: 1, signal: 1, histogram: 0 }); // fast 3, slow 2
    expect(m.value).toEqual({ macd: 1, signal: 1, histogram: 0 });
    m.reset();
    expect(m.value).toBeUndefined();
    expect(m.update(5)).toBeUndefined();
    expect(() => new Macd(26, 12, 9)).toThrow(/fast \(26\) must not exceed slow \(12\)/);
    expect(() => new Macd(12, 26, 0)).toThrow(/macd signal: period must be an integer >= 1/);
  });

  it('matches the naive recomputation for any input', () => {
    const periods = fc
      .tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 6 }))
      .map(([fast, extra, signal]) => ({ fast, slow: fast + extra, signal }));
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e5, noNaN: true }), { maxLength: 60 }), periods, (xs, { fast, slow, signal }) => {
        const got = macd(xs, fast, slow, signal);
        const want = naive(xs, fast, slow, signal);
        got.forEach((g, i) => {
          const wm = want.m[i];
          const ws = want.sig[i];
          if (wm === undefined) return expect(g).toBeUndefined();
          expect(g!.macd).toBeCloseTo(wm, 6);
          if (ws === undefined) return expect(g!.signal).toBeUndefined();
          expect(g!.signal).toBeCloseTo(ws, 6);
          expect(g!.histogram).toBeCloseTo(wm - ws, 6);
        });
      }),
    );
  });
});
