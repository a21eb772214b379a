import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/synthetic/prng.ts';
import { bandwidth, decodePoint, encodePoint, goodCount, logNormalMass, proposePoints, untriedPoint } from './sweep-tpe.ts';
import type { TpeAxis } from './sweep-tpe.ts';

const square: TpeAxis[] = [
  { size: 20, ordinal: true },
  { size: 20, ordinal: true },
];

/** Points ranked by an objective: best first. */
const rankedBy = (points: number[][], f: (at: number[]) => number): number[][] => [...points].sort((a, b) => f(b) - f(a));

describe('grid positions', () => {
  it('encodePoint and decodePoint are inverse, first axis slowest as buildGrid walks it', () => {
    const axes: TpeAxis[] = [
      { size: 3, ordinal: true },
      { size: 4, ordinal: false },
      { size: 2, ordinal: true },
    ];
    for (let i = 0; i < 24; i++) expect(encodePoint(axes, decodePoint(axes, i))).toBe(i);
    expect(decodePoint(axes, 0)).toEqual([0, 0, 0]);
    expect(decodePoint(axes, 1)).toEqual([0, 0, 1]);
    expect(decodePoint(axes, 23)).toEqual([2, 3, 1]);
  });
});

describe('the normal mass and the bandwidth', () => {
  it('logNormalMass matches known masses and stays finite far in either tail', () => {
    expect(Math.exp(logNormalMass(-1, 1))).toBeCloseTo(0.682689, 5);
    expect(Math.exp(logNormalMass(0, 1))).toBeCloseTo(0.341345, 5);
    expect(Math.exp(logNormalMass(-2, -1))).toBeCloseTo(0.135905, 5);
    // P(40 < Z < 41) is about 1e-350: below a double, but its log is ordinary.
    const far = logNormalMass(40, 41);
    expect(Number.isFinite(far)).toBe(true);
    expect(far).toBeCloseTo(-0.5 * 40 * 40 - Math.log(40 * Math.sqrt(2 * Math.PI)), 1);
    expect(logNormalMass(-41, -40)).toBeCloseTo(far, 8);
  });

  it('narrows as points accumulate, within [0.5, the axis]', () => {
    expect(bandwidth(20, 2, 2)).toBeGreaterThan(bandwidth(20, 30, 2));
    for (const [size, k] of [[1, 1], [2, 5], [20, 1], [20, 1000], [10000, 3]] as const) {
      expect(bandwidth(size, k, 2)).toBeGreaterThanOrEqual(Math.min(size, 0.5));
      expect(bandwidth(size, k, 2)).toBeLessThanOrEqual(size);
    }
  });

  it('good points: a quarter rounded up, at most 25, never a failed one', () => {
    expect(goodCount(10, 10)).toBe(3);
    expect(goodCount(1, 1)).toBe(1);
    expect(goodCount(400, 400)).toBe(25);
    expect(goodCount(10, 1)).toBe(1);
    expect(goodCount(10, 0)).toBe(0);
  });
});

describe('proposePoints', () => {
  it('proposes distinct points of the grid never tried before, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 40 }), (a, b, ordinal, seed, want) => {
        const axes: TpeAxis[] = [
          { size: a, ordinal },
          { size: b, ordinal: !ordinal },
        ];
        const size = a * b;
        const rng = mulberry32(seed);
        const tried = [...new Set(Array.from({ length: Math.min(size - 1, 1 + (seed % size)) }, () => rng.int(0, size - 1)))];
        const ranked = tried.map((i) => decodePoint(axes, i));
        const propose = () => proposePoints(axes, ranked, ranked.length, new Set(tried), want, mulberry32(seed));
        const out = propose();
        const indices = out.map((p) => encodePoint(axes, p));
        expect(out.length).toBe(Math.min(want, size - tried.length));
        expect(new Set(indices).size).toBe(indices.length);
        expect(indices.some((i) => tried.includes(i))).toBe(false);
        expect(out.every((p) => p.every((x, k) => Number.isInteger(x) && x >= 0 && x < axes[k]!.size))).toBe(true);
        expect(propose()).toEqual(out);
      }),
      { numRuns: 200 },
    );
  });

  it('exhausts a grid: every point once, then nothing', () => {
    const axes: TpeAxis[] = [
      { size: 3, ordinal: true },
      { size: 3, ordinal: false },
    ];
    const tried = new Set([0, 4]);
    const out = proposePoints(axes, [decodePoint(axes, 0), decodePoint(axes, 4)], 2, tried, 20, mulberry32(1));
    expect(out.map((p) => encodePoint(axes, p)).sort()).toEqual([1, 2, 3, 5, 6, 7, 8]);
    const all = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(proposePoints(axes, [], 0, all, 3, mulberry32(1))).toEqual([]);
    expect(untriedPoint(axes, all, mulberry32(1))).toBeUndefined();
  });

  it('proposes near the good points on ordinal axes', () => {
    // 30 points tried at random on a bowl peaking at (15, 4).
    const f = (at: number[]): number => -((at[0]! - 15) ** 2 + (at[1]! - 4) ** 2);
    const distance = (at: number[]): number => Math.hypot(at[0]! - 15, at[1]! - 4);
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const seed of [1, 2, 3, 9]) {
      const rng = mulberry32(seed);
      const tried = new Set<number>();
      while (tried.size < 30) tried.add(rng.int(0, 399));
      const ranked = rankedBy([...tried].map((i) => decodePoint(square, i)), f);
      const out = proposePoints(square, ranked, ranked.length, tried, 20, mulberry32(seed));
      // The points tried sit ~10 positions from the peak on average; the proposals ~3.
      expect(mean(out.map(distance))).toBeLessThan(0.5 * mean(ranked.map(distance)));
      expect(mean(out.map(distance))).toBeLessThan(4.5);
    }
  });

  it('proposes the good category on a categorical axis, and steers away from failed points', () => {
    const axes: TpeAxis[] = [
      { size: 5, ordinal: false },
      { size: 40, ordinal: true },
    ];
    // Category 3 did well at every position tried; the rest badly.
    const good = [0, 10, 20, 30].map((x) => [3, x]);
    const bad = [0, 1, 2, 4].flatMap((c) => [5, 15, 25, 35].map((x) => [c, x]));
    const tried = new Set([...good, ...bad].map((p) => encodePoint(axes, p)));
    const out = proposePoints(axes, [...good, ...bad], good.length, tried, 10, mulberry32(4));
    expect(out.filter((p) => p[0] === 3).length).toBeGreaterThanOrEqual(8);
    // Nothing eligible (every run failed, at even positions of category 0 below 20): proposals
    // still come, and avoid the failed region's untried odd positions (uniform draws would put
    // about 4 of 80 there).
    const failed = Array.from({ length: 10 }, (_, x) => [0, 2 * x]);
    const away = [1, 2, 3, 4].flatMap((seed) => proposePoints(axes, failed, 0, new Set(failed.map((p) => encodePoint(axes, p))), 20, mulberry32(seed)));
    expect(away).toHaveLength(80);
    expect(away.filter((p) => p[0] === 0 && p[1]! < 20)).toHaveLength(0);
  });
});
