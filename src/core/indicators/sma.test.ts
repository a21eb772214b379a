import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ema } from './ema.ts';
import { Sma, sma } from './sma.ts';

const naive = (xs: readonly number[], n: number) => xs.map((_, i) => (i + 1 < n ? undefined : xs.slice(i + 1 - n, i + 1).reduce((a, b) => a + b, 0) / n));

describe('sma', () => {
  it('averages the last period values, undefined during warm-up', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([undefined, undefined, 2, 3, 4]);
    expect(sma([10, 20], 1)).toEqual([10, 20]);
  });

  it('exposes value and ready, and reset forgets', () => {
    const s = new Sma(2);
    expect(s.update(4)).toBeUndefined();
    expect(s.ready).toBe(false);
    expect(s.update(6)).toBe(5);
    expect(s.value).toBe(5);
    s.reset();
    expect(s.value).toBeUndefined();
    expect(s.update(1)).toBeUndefined();
  });

  it('rejects periods that are not whole positive numbers', () => {
    expect(() => new Sma(0)).toThrow(/sma: period must be an integer >= 1, got 0/);
    expect(() => new Sma(2.5)).toThrow(RangeError);
  });

  it('matches the naive mean for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 60 }), fc.integer({ min: 1, max: 10 }), (xs, n) => {
        const got = sma(xs, n);
        const want = naive(xs, n);
        got.forEach((g, i) => {
          const w = want[i];
          if (w === undefined) expect(g).toBeUndefined();
          else expect(g).toBeCloseTo(w, 6);
        });
      }),
    );
  });

  it('is the same whatever came before the window: two runs started at different bars agree to the bit once both windows are full', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, skip, seed) => {
        // Decimal prices (four places, as a venue prints them) on a random walk.
        let state = seed >>> 0;
        let price = 8.5;
        const xs = Array.from({ length: 1500 }, () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          price = Math.max(0.0001, Math.round((price + (state / 2 ** 32 - 0.5) * 0.01) * 1e4) / 1e4);
          return price;
        });
        const all = sma(xs, n);
        const late = sma(xs.slice(skip), n);
        for (let i = skip + n - 1; i < xs.length; i++) expect(late[i - skip]).toBe(all[i]);
      }),
      { numRuns: 60 },
    );
  });

  it('averages a window holding an infinity to it (as the mean does, not NaN), and recovers once it leaves', () => {
    const s = new Sma(2);
    const out = [1, Infinity, 4, 5, -Infinity, Infinity, 7, 9].map((x) => s.step(x));
    expect(out).toEqual([NaN, Infinity, Infinity, 4.5, -Infinity, NaN, Infinity, 8]);
    // A sum past the largest double is infinite, as a plain running sum is: not NaN.
    expect(sma([1e308, 1e308, 1, 1], 2)).toEqual([undefined, Infinity, 5e307, 1]);
  });

  it('is the window\'s exact sum rounded once, then divided (not the float sum in any order)', () => {
    // 0.1 + 0.2 + 0.3 in doubles is 0.6000000000000001 left to right; the exact sum of those doubles rounds to 0.6.
    const s = new Sma(3);
    for (const x of [5, 0.1, 0.2, 0.3]) s.update(x);
    expect(s.value).toBe(0.6 / 3);
  });

  it('does not drift over a long run (running sum is re-summed)', () => {
    const s = new Sma(20);
    let v: number | undefined;
    for (let i = 0; i < 200_000; i++) v = s.update(1_000_000 + (i % 7) * 0.01);
    const tail = Array.from({ length: 20 }, (_, k) => 1_000_000 + ((200_000 - 20 + k) % 7) * 0.01);
    expect(v).toBeCloseTo(tail.reduce((a, b) => a + b, 0) / 20, 8);
  });
});

describe('Sma.step / stepAt and Ema.stepAt', () => {
  it("give update's values, NaN while warming up, the last one in `out`", () => {
    const values = Float64Array.from([10, 11, 12.5, 9, 14, 13, 15.25, 16, 12, 11]);
    for (const make of [() => new Sma(3), () => new Ema(3)]) {
      const byUpdate = make();
      const byStep = make();
      const byStepAt = make();
      for (let i = 0; i < values.length; i++) {
        const u = byUpdate.update(values[i] as number);
        const s = byStep.step(values[i] as number);
        byStepAt.stepAt(values, i);
        expect(Number.isNaN(s) ? undefined : s).toBe(u);
        expect(Number.isNaN(byStepAt.out) ? undefined : byStepAt.out).toBe(u);
        expect(byStep.out).toBe(byStepAt.out);
      }
    }
  });
});
