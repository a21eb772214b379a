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
});
