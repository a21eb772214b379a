import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vwap, vwap } from './vwap.ts';
import type { Hlcv } from './vwap.ts';

/** Each full window's sum of typical price times volume over its volume, from the definition. */
const naive = (bars: readonly Hlcv[], n: number) =>
  bars.map((_, i) => {
    if (i + 1 < n) return undefined;
    let pv = 0;
    let v = 0;
    for (const b of bars.slice(i + 1 - n, i + 1)) {
      pv += ((b.high + b.low + b.close) / 3) * b.volume;
      v += b.volume;
    }
    return v === 0 ? undefined : pv / v;
  });

const bar = (high: number, low: number, close: number, volume: number): Hlcv => ({ high, low, close, volume });

describe('vwap', () => {
  it('weights the typical price by volume over the window', () => {
    // typical prices 10, 20, 30 with volumes 1, 3, 0, then 40 with 2
    const bars = [bar(12, 8, 10, 1), bar(22, 18, 20, 3), bar(33, 27, 30, 0), bar(41, 39, 40, 2)];
    expect(vwap(bars, 2)).toEqual([undefined, (10 + 60) / 4, 20, 40]);
    expect(vwap(bars, 3)).toEqual([undefined, undefined, 70 / 4, (60 + 80) / 5]);
    expect(vwap(bars, 1)).toEqual([10, 20, undefined, 40]);
  });

  it('is undefined while the window has no volume, and comes back when it has', () => {
    const v = new Vwap(2);
    expect(v.update(bar(11, 9, 10, 0))).toBeUndefined();
    expect(v.update(bar(11, 9, 10, 0))).toBeUndefined();
    expect(v.ready).toBe(false);
    expect(v.update(bar(21, 19, 20, 0.1))).toBeCloseTo(20, 12);
    expect(v.update(bar(21, 19, 20, 0))).toBeCloseTo(20, 12);
    // the 0.1 leaves the window: a running sum may leave a residue, the count of traded bars does not
    expect(v.update(bar(21, 19, 20, 0))).toBeUndefined();
    expect(v.value).toBeUndefined();
  });

  it('flat prices give the price', () => {
    expect(vwap([bar(5, 5, 5, 1), bar(5, 5, 5, 7), bar(5, 5, 5, 2)], 2)).toEqual([undefined, 5, 5]);
  });

  it('reset and bad periods', () => {
    const v = new Vwap(1);
    expect(v.update(bar(3, 3, 3, 1))).toBe(3);
    v.reset();
    expect(v.value).toBeUndefined();
    expect(v.update(bar(6, 6, 6, 1))).toBe(6);
    expect(() => new Vwap(0)).toThrow(/vwap: period must be an integer >= 1/);
  });

  it('matches the naive recomputation for any bars, zero volumes included', () => {
    const arbBar = fc
      .tuple(fc.double({ min: 1, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e3, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 1e4, noNaN: true })))
      .map(([low, range, at, volume]) => bar(low + range, low, low + range * at, volume));
    fc.assert(
      fc.property(fc.array(arbBar, { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), (bars, n) => {
        const got = vwap(bars, n);
        const want = naive(bars, n);
        got.forEach((g, i) => {
          const w = want[i];
          if (w === undefined) expect(g).toBeUndefined();
          else expect(Math.abs(g! - w)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(w)));
        });
      }),
    );
  });
});

describe('vwap after a huge bar leaves the window', () => {
  it('re-sums at once: a tiny window is not left with the rounding residue of the huge bar', () => {
    // fast-check's counterexample: a 7,785 x 1,178 bar, then a window of volume 0.001 at price 1.
    const bars = [bar(7785.038824310202, 6785.038825502226, 6785.038825502226, 1177.9977706860534), bar(1.2187847710037394, 1.2187847710037394, 1.2187847710037394, 6442.491145516349), bar(1, 1, 1, 0.001), bar(1, 1, 1, 0), bar(1, 1, 1, 0)];
    const got = vwap(bars, 3);
    expect(Math.abs(got[4]! - 1)).toBeLessThanOrEqual(1e-9);
    expect(got[4]).toBeCloseTo(naive(bars, 3)[4]!, 12);
  });
});
