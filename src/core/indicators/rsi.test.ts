import { describe, expect, it } from 'vitest';
import { Rsi, rsi } from './rsi.ts';

describe('rsi (Wilder)', () => {
  it('matches hand-computed values', () => {
    // changes +1 +1 -1 +2 -1
    // first averages over 3 changes: gain 2/3, loss 1/3 -> RS 2 -> 66.67
    // then gain (2/3*2+2)/3 = 10/9, loss (1/3*2)/3 = 2/9 -> RS 5 -> 83.33
    // then gain (10/9*2)/3 = 20/27, loss (2/9*2+1)/3 = 13/27 -> RS 20/13 -> 60.61
    const out = rsi([10, 11, 12, 11, 13, 12], 3);
    expect(out.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(out[3]).toBeCloseTo(200 / 3, 10);
    expect(out[4]).toBeCloseTo(500 / 6, 10);
    expect(out[5]).toBeCloseTo(100 - 1300 / 33, 10);
  });

  it('is 100 with only gains, 0 with only losses, 50 on a flat line', () => {
    expect(rsi([1, 2, 3, 4], 3)[3]).toBe(100);
    expect(rsi([4, 3, 2, 1], 3)[3]).toBe(0);
    expect(rsi([5, 5, 5, 5], 3)[3]).toBe(50);
  });

  it('stays within [0, 100] and resets', () => {
    const r = new Rsi(14);
    for (let i = 0; i < 500; i++) {
      const v = r.update(100 + Math.sin(i / 3) * 10 + (i % 5));
      if (v !== undefined) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
    }
    r.reset();
    expect(r.value).toBeUndefined();
  });
});
