import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bollinger } from './bollinger.ts';
import { StdDev, stddev } from './stddev.ts';

/** Population deviation of each full window, straight from the definition. */
const naive = (xs: readonly number[], n: number) =>
  xs.map((_, i) => {
    if (i + 1 < n) return undefined;
    const w = xs.slice(i + 1 - n, i + 1);
    const mean = w.reduce((a, b) => a + b, 0) / n;
    return Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  });

describe('stddev', () => {
  it('is the population deviation of the window, undefined for the first period-1', () => {
    // [2,4,4,4]: mean 3.5, squares 2.25+0.25*3 = 3, /4 = 0.75; [4,4,4,5]: mean 4.25, (0.0625*3 + 0.5625)/4 = 0.1875
    const out = stddev([2, 4, 4, 4, 5], 4);
    expect(out.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(out[3]).toBeCloseTo(Math.sqrt(0.75), 12);
    expect(out[4]).toBeCloseTo(Math.sqrt(0.1875), 12);
    expect(stddev([7, 8], 1)).toEqual([0, 0]);
  });

  it('gives 0 on a flat window, and Bollinger sigma on any window', () => {
    expect(stddev([5, 5, 5, 5, 5], 3)).toEqual([undefined, undefined, 0, 0, 0]);
    const s = new StdDev(5);
    const b = new Bollinger(5, 2);
    for (let i = 0; i < 200; i++) {
      const x = 100 + Math.sin(i) * 3;
      const v = s.update(x);
      const bb = b.update(x);
      if (bb === undefined) expect(v).toBeUndefined();
      else expect(v).toBeCloseTo(bb.sigma, 9);
    }
  });

  it('keeps precision at large prices with tiny moves, over a long run', () => {
    const s = new StdDev(2);
    s.update(3_000_000.01);
    expect(s.update(3_000_000.03)).toBeCloseTo(0.01, 6);
    const t = new StdDev(20);
    let v: number | undefined;
    const xs: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const x = 1_000_000 + (i % 7) * 0.01;
      xs.push(x);
      v = t.update(x);
    }
    expect(v).toBeCloseTo(naive(xs.slice(-20), 20)[19]!, 8);
  });

  it('a flat window after a spike reads 0, not the rounding residue of the spike', () => {
    expect(stddev([-432.35889504671513, 0, 0, 0, 0, 0], 5)[5]).toBe(0);
    expect(stddev([1e9, 3, 3, 3, 3], 3).slice(3)).toEqual([0, 0]);
  });

  it('value, ready, reset and bad periods', () => {
    const s = new StdDev(2);
    expect(s.update(1)).toBeUndefined();
    expect(s.ready).toBe(false);
    expect(s.update(3)).toBe(1);
    expect(s.value).toBe(1);
    s.reset();
    expect(s.value).toBeUndefined();
    expect(s.update(10)).toBeUndefined();
    expect(s.update(10)).toBe(0);
    expect(() => new StdDev(0)).toThrow(/stddev: period must be an integer >= 1/);
  });

  it('matches the naive recomputation for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), (xs, n) => {
        const got = stddev(xs, n);
        const want = naive(xs, n);
        got.forEach((g, i) => {
          const w = want[i];
          if (w === undefined) expect(g).toBeUndefined();
          else expect(Math.abs(g! - w)).toBeLessThanOrEqual(1e-6 * Math.max(1, w));
        });
      }),
    );
  });
});
