import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/synthetic/index.ts';
import { expandBar } from './bar-path.ts';

const bar = { open: 1000, high: 1040, low: 980, close: 1030 };

describe('expandBar', () => {
  it('starts at the open, ends at the close, visits both extremes and stays within them', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (const steps of [4, 5, 8, 30]) {
        const { prices, weights } = expandBar(bar, steps, mulberry32(seed));
        expect(prices).toHaveLength(steps);
        expect(prices[0]).toBe(1000);
        expect(prices.at(-1)).toBe(1030);
        expect(prices).toContain(1040);
        expect(prices).toContain(980);
        expect(prices.every((p) => Number.isInteger(p) && p >= 980 && p <= 1040)).toBe(true);
        expect(weights.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
        expect(weights.every((w) => w > 0)).toBe(true);
      }
    }
  });

  it('orders the extremes by seed, usually against the bar direction first', () => {
    const lowFirst = Array.from({ length: 200 }, (_, seed) => {
      const p = expandBar(bar, 4, mulberry32(seed)).prices;
      return p[1] === 980;
    }).filter(Boolean).length;
    expect(lowFirst).toBeGreaterThan(120);
    expect(lowFirst).toBeLessThan(190);
  });

  it('is deterministic per seed', () => {
    expect(expandBar(bar, 12, mulberry32('a'))).toEqual(expandBar(bar, 12, mulberry32('a')));
    expect(expandBar(bar, 12, mulberry32('a')).prices).not.toEqual(expandBar(bar, 12, mulberry32('b')).prices);
  });

  it('handles a flat bar and repairs a bar whose extremes do not cover open and close', () => {
    expect(expandBar({ open: 5, high: 5, low: 5, close: 5 }, 6, mulberry32(1)).prices).toEqual([5, 5, 5, 5, 5, 5]);
    const p = expandBar({ open: 10, high: 9, low: 8, close: 7 }, 4, mulberry32(1)).prices;
    expect(Math.max(...p)).toBe(10);
    expect(Math.min(...p)).toBe(7);
  });

  it('refuses fewer than four steps', () => {
    expect(() => expandBar(bar, 3, mulberry32(1))).toThrow(/steps/);
  });
});
