import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bollinger, bollinger } from './bollinger.ts';
import { sma } from './sma.ts';
import { stddev } from './stddev.ts';

describe('bollinger', () => {
  it('uses the population deviation of the window', () => {
    // [1,2,3]: mean 2, variance (1+0+1)/3 = 2/3
    const out = bollinger([1, 2, 3, 6], 3, 2);
    expect(out[1]).toBeUndefined();
    const b = out[2]!;
    const sigma = Math.sqrt(2 / 3);
    expect(b.middle).toBe(2);
    expect(b.sigma).toBeCloseTo(sigma, 12);
    expect(b.upper).toBeCloseTo(2 + 2 * sigma, 12);
    expect(b.lower).toBeCloseTo(2 - 2 * sigma, 12);
    // [2,3,6]: mean 11/3, variance ((5/3)^2 + (2/3)^2 + (7/3)^2)/3 = 78/27
    expect(out[3]!.middle).toBeCloseTo(11 / 3, 12);
    expect(out[3]!.sigma).toBeCloseTo(Math.sqrt(78 / 27), 12);
  });

  it('keeps precision at large prices with tiny moves', () => {
    const b = new Bollinger(2, 1);
    b.update(3_000_000.01);
    const v = b.update(3_000_000.03)!;
    expect(v.sigma).toBeCloseTo(0.01, 6);
  });

  it('rejects a negative k', () => {
    expect(() => new Bollinger(20, -1)).toThrow(/k must be/);
  });

  it('is the same whatever came before the window (computed from the window alone): two runs started at different bars agree to the bit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, skip, seed) => {
        let state = seed >>> 0;
        let price = 65000.12;
        const xs = Array.from({ length: 600 }, () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          return (price = Math.round((price + (state / 2 ** 32 - 0.5) * 4) * 100) / 100);
        });
        const all = bollinger(xs, n, 2);
        const late = bollinger(xs.slice(skip), n, 2);
        for (let i = skip + n - 1; i < xs.length; i++) expect(late[i - skip]).toEqual(all[i]);
      }),
      { numRuns: 40 },
    );
  });

  it('is the SMA and the standard deviation of the same period, to the bit, and NaN bands while a non-finite value is in the window', () => {
    let state = 7;
    let price = 3_000_000.01;
    const xs = Array.from({ length: 3000 }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return (price = Math.round((price + (state / 2 ** 32 - 0.5) * 2) * 100) / 100);
    });
    for (const n of [2, 20, 200]) {
      const bands = bollinger(xs, n, 2);
      const means = sma(xs, n);
      const sigmas = stddev(xs, n);
      for (let i = n - 1; i < xs.length; i++) {
        expect(bands[i]!.middle).toBe(means[i]);
        expect(bands[i]!.sigma).toBe(sigmas[i]);
        expect(bands[i]!.upper).toBe(means[i]! + 2 * sigmas[i]!);
      }
    }
    const b = new Bollinger(3, 2);
    for (const x of [1, 2, Number.NaN, 4, 5]) b.update(x);
    expect(Number.isNaN(b.value!.middle)).toBe(true);
    for (const x of [6, 7, 8]) b.update(x);
    // The NaN has left the window [6, 7, 8]: finite again.
    expect(b.value!.middle).toBe(7);
    expect(b.value!.sigma).toBeCloseTo(Math.sqrt(2 / 3), 15);
    expect(b.value!.upper).toBe(7 + 2 * b.value!.sigma);
  });
});
