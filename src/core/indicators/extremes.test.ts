import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Highest, highest, lowest } from './extremes.ts';

describe('highest / lowest', () => {
  it('track the window extremes', () => {
    expect(highest([1, 3, 2, 5, 4, 1, 0], 3)).toEqual([undefined, undefined, 3, 5, 5, 5, 4]);
    expect(lowest([1, 3, 2, 5, 4, 1, 0], 3)).toEqual([undefined, undefined, 1, 2, 2, 1, 0]);
  });

  it('match the naive max/min for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), (xs, n) => {
        const hi = highest(xs, n);
        const lo = lowest(xs, n);
        xs.forEach((_, i) => {
          if (i + 1 < n) return;
          const w = xs.slice(i + 1 - n, i + 1);
          expect(hi[i]).toBe(Math.max(...w));
          expect(lo[i]).toBe(Math.min(...w));
        });
      }),
    );
  });

  it('stays correct past the deque compaction', () => {
    const h = new Highest(5);
    let v: number | undefined;
    for (let i = 0; i < 10_000; i++) v = h.update(i % 100);
    expect(v).toBe(99);
    h.update(0);
    expect(h.value).toBe(99);
  });
});
