import { describe, expect, it } from 'vitest';
import { fullJitterDelay, seededRandom } from './backoff.ts';

const settings = { baseMs: 1000, maxMs: 30_000 };

describe('fullJitterDelay (full jitter)', () => {
  it('is uniform below min(max, base * 2^attempt): the ceiling doubles, then stays at max', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => fullJitterDelay(n, settings, () => 0.999999))).toEqual([999, 1999, 3999, 7999, 15_999, 29_999, 29_999]);
    expect(fullJitterDelay(3, settings, () => 0)).toBe(0);
    expect(fullJitterDelay(3, settings, () => 0.5)).toBe(4000);
  });

  it('stays bounded for huge attempt counts and clamps a bad random source', () => {
    expect(fullJitterDelay(10_000, settings, () => 0.5)).toBe(15_000);
    expect(fullJitterDelay(2, settings, () => 7)).toBe(4000);
    expect(fullJitterDelay(2, settings, () => -1)).toBe(0);
    expect(fullJitterDelay(2, settings, () => Number.NaN)).toBe(2000);
  });

  it('a seeded source repeats its sequence', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBe(5);
  });
});
