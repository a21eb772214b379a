import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bollinger, bollinger } from './bollinger.ts';

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
});
