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

/** x as m * 2^e, m and e integers, exactly (the double's own bits). */
function exactParts(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? [sign * fraction, -1074] : [sign * (fraction | (1n << 52n)), biased - 1075];
}

/**
 * Whether `got` is the population deviation of the window within `bits` bits, checked exactly:
 * |(got * n)^2 - (n * sum(x^2) - sum(x)^2)| <= 2^-bits * (n * sum(x^2) - sum(x)^2), in integers
 * (the window's values scaled to one exponent), so the reference itself has no rounding.
 */
function withinBits(got: number, window: readonly number[], bits: number): boolean {
  const parts = window.map(exactParts);
  const low = Math.min(...parts.map(([, e]) => e));
  const xs = parts.map(([m, e]) => m << BigInt(e - low));
  const n = BigInt(window.length);
  const sum = xs.reduce((a, b) => a + b, 0n);
  const scaled = n * xs.reduce((a, b) => a + b * b, 0n) - sum * sum; // n^2 variance, in units of 2^(2 low)
  if (scaled === 0n) return got === 0;
  const [gm, ge] = exactParts(got * window.length); // exact: got * n is checked as the double it is
  // (gm * 2^ge)^2 vs scaled * 2^(2 low): bring both to the exponent 2 * min(ge, low).
  const base = Math.min(ge, low);
  const g2 = (gm * gm) << BigInt(2 * (ge - base));
  const want = scaled << BigInt(2 * (low - base));
  const diff = g2 > want ? g2 - want : want - g2;
  return diff << BigInt(bits) <= want;
}

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

  it('a quiet window after a long stretch of values 1e15 times larger reads its own deviation, as a fresh one does', () => {
    // The large values' sums were not exact beside the small ones' (a span past the pairs'): what
    // they left must not stay in the sums once they are gone (it was 19% of the deviation here).
    let state = 11;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const small = (k: number) => Array.from({ length: k }, () => 1e-3 * next());
    const xs = [...small(300), ...Array.from({ length: 300 }, () => 1e12 + next()), ...small(300)];
    const all = stddev(xs, 20);
    const fresh = stddev(xs.slice(600), 20);
    for (let i = 619; i < xs.length; i++) expect(all[i]).toBe(fresh[i - 600]);
    // Flat after small values, then large ones, then a fall: 0 (it read 6.7e-5).
    const flat = [...small(30), ...Array.from({ length: 30 }, () => 1e12 + next()), ...Array.from({ length: 10 }, () => 0.001)];
    expect(stddev(flat, 10)[69]).toBe(0);
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

  it('is the exact deviation of the window rounded at most a few times, prices near 65000 moving by cents or by units in the last place', () => {
    // Exact reference: n * sum(x^2) - sum(x)^2 in integers. A float sum of squares loses them all
    // here: at 65000.12 its units in the last place are 1e-6, the cent moves' variance 1e-4.
    const scenarios = [
      { base: 65000.12, tick: 0.01 },
      { base: 65000.12, tick: 2 ** -37 }, // one unit in the last place at 65000
      { base: 3_000_000.01, tick: 0.01 },
      { base: 0.00012345, tick: 1e-8 },
      { base: 8.5, tick: 0.0001 },
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...scenarios),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        ({ base, tick }, moves, n) => {
          const xs = moves.map((k) => base + k * tick);
          const got = stddev(xs, n);
          got.forEach((g, i) => {
            if (i + 1 < n) return expect(g).toBeUndefined();
            // Within 2^-49 on the variance: a deviation a few units in the last place from the exact one.
            expect(withinBits(g!, xs.slice(i + 1 - n, i + 1), 49)).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is exact on a long low-variance run where a running sum of squares would cancel', () => {
    const s = new StdDev(20);
    const xs: number[] = [];
    let state = 7;
    let price = 65000.12;
    for (let i = 0; i < 20_000; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      price = Math.round((price + (state / 2 ** 32 - 0.5) * 0.04) * 100) / 100;
      xs.push(price);
      const v = s.update(price);
      if (i >= 19 && i % 97 === 0) expect(withinBits(v!, xs.slice(-20), 49)).toBe(true);
    }
  });

  it('is the same whatever came before the window: two runs started at different bars agree to the bit once both windows are full', () => {
    /** Price series: decimal prices on a random walk, the same at unit-in-the-last-place moves, and a line made from prices (an EMA, off any grid). */
    const series = (kind: number, seed: number): number[] => {
      let state = seed >>> 0;
      const next = () => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return state / 2 ** 32 - 0.5;
      };
      let price = kind === 0 ? 8.5 : 65000.12;
      let ema = price;
      return Array.from({ length: 1500 }, () => {
        if (kind === 0) return (price = Math.max(0.0001, Math.round((price + next() * 0.01) * 1e4) / 1e4));
        if (kind === 1) return 65000.12 + Math.round(next() * 6) * 2 ** -37;
        price = Math.round((price + next() * 20) * 100) / 100;
        return (ema += (price - ema) * (2 / 21));
      });
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 2, max: 60 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 2 ** 31 }), (kind, n, skip, seed) => {
        const xs = series(kind, seed);
        const all = stddev(xs, n);
        const late = stddev(xs.slice(skip), n);
        for (let i = skip + n - 1; i < xs.length; i++) expect(late[i - skip]).toBe(all[i]);
      }),
      { numRuns: 60 },
    );
  });

  it('a window holding an infinity or a NaN reads NaN (as the two-pass deviation), and the value comes back exact once it leaves', () => {
    const s = new StdDev(2);
    const out = [1, Infinity, 4, 5, NaN, 7, 9].map((x) => s.update(x));
    expect(out).toEqual([undefined, NaN, NaN, 0.5, NaN, NaN, 1]);
    const fresh = new StdDev(3);
    const xs = [65000.12, 65000.13, 65000.11];
    for (const x of xs) fresh.update(x);
    const after = new StdDev(3);
    for (const x of [1, -Infinity, 2, ...xs]) after.update(x);
    expect(after.value).toBe(fresh.value);
  });
});

