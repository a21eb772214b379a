import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Adx, adx } from './adx.ts';
import type { Hlc } from './candle.ts';

/**
 * TA-Lib's ADX / PLUS_DI / MINUS_DI laid out over arrays: directional movement and true range per
 * bar from the second, Wilder sums seeded with the first n - 1, DI from index n, ADX the mean of
 * the first n DX at index 2n - 1, then smoothed (a DX that does not exist skips a step).
 */
function naive(bars: readonly Hlc[], n: number) {
  const len = bars.length;
  const pdm = new Array<number>(len).fill(0);
  const mdm = new Array<number>(len).fill(0);
  const tr = new Array<number>(len).fill(0);
  for (let i = 1; i < len; i++) {
    const b = bars[i]!;
    const p = bars[i - 1]!;
    const up = b.high - p.high;
    const down = p.low - b.low;
    if (up > 0 && up > down) pdm[i] = up;
    if (down > 0 && down > up) mdm[i] = down;
    tr[i] = Math.max(b.high - b.low, Math.abs(b.high - p.close), Math.abs(b.low - p.close));
  }
  const plus: (number | undefined)[] = new Array<number | undefined>(len).fill(undefined);
  const minus = [...plus];
  const dx = [...plus];
  const out = [...plus];
  let sp = 0;
  let sm = 0;
  let st = 0;
  for (let i = 1; i < Math.min(n, len); i++) {
    sp += pdm[i]!;
    sm += mdm[i]!;
    st += tr[i]!;
  }
  for (let i = n; i < len; i++) {
    sp = sp - sp / n + pdm[i]!;
    sm = sm - sm / n + mdm[i]!;
    st = st - st / n + tr[i]!;
    plus[i] = st === 0 ? 0 : (100 * sp) / st;
    minus[i] = st === 0 ? 0 : (100 * sm) / st;
    const sum = plus[i]! + minus[i]!;
    if (st !== 0 && sum !== 0) dx[i] = (100 * Math.abs(plus[i]! - minus[i]!)) / sum;
  }
  if (2 * n - 1 < len) {
    let a = 0;
    for (let i = n; i <= 2 * n - 1; i++) a += dx[i] ?? 0;
    a /= n;
    out[2 * n - 1] = a;
    for (let i = 2 * n; i < len; i++) out[i] = a = dx[i] === undefined ? a : (a * (n - 1) + dx[i]!) / n;
  }
  return { plus, minus, adx: out };
}

const bar = (high: number, low: number, close: number): Hlc => ({ high, low, close });

describe('adx', () => {
  it('matches hand-computed values (period 2)', () => {
    const bars = [bar(10, 8, 9), bar(12, 9, 11), bar(11, 7, 8), bar(13, 10, 12)];
    // bar 1: +DM 2, -DM 0, TR 3 (seed sums: period - 1 = 1 value)
    // bar 2: up -1, down 2: -DM 2; TR max(4, 0, 4) = 4. sums: +DM 2 - 1 + 0 = 1, -DM 0 + 2 = 2, TR 3 - 1.5 + 4 = 5.5
    //   +DI 100/5.5, -DI 200/5.5, DX 100 * 1/3
    // bar 3: up 2, down -3: +DM 2; TR max(3, 5, 2) = 5. sums: +DM 1 - 0.5 + 2 = 2.5, -DM 2 - 1 = 1, TR 5.5 - 2.75 + 5 = 7.75
    //   +DI 250/7.75, -DI 100/7.75, DX 100 * 1.5/3.5; ADX = mean of the two DX
    const out = adx(bars, 2);
    expect(out.slice(0, 2)).toEqual([undefined, undefined]);
    expect(out[2]!.plusDi).toBeCloseTo(100 / 5.5, 12);
    expect(out[2]!.minusDi).toBeCloseTo(200 / 5.5, 12);
    expect(out[2]!.adx).toBeUndefined();
    expect(out[3]!.plusDi).toBeCloseTo(250 / 7.75, 12);
    expect(out[3]!.minusDi).toBeCloseTo(100 / 7.75, 12);
    expect(out[3]!.adx).toBeCloseTo((100 / 3 + (100 * 1.5) / 3.5) / 2, 12);
  });

  it('warm-up: DIs from bar period + 1, ADX from bar 2 * period (defaults: indexes 14 and 27)', () => {
    const bars = Array.from({ length: 40 }, (_, i) => bar(101 + Math.sin(i) + i / 10, 99 + Math.sin(i), 100 + Math.cos(i)));
    const out = adx(bars);
    expect(out.findIndex((v) => v !== undefined)).toBe(14);
    expect(out.findIndex((v) => v?.adx !== undefined)).toBe(27);
  });

  it('flat prices: DIs and ADX 0 (no range, as TA-Lib)', () => {
    const out = adx(Array.from({ length: 8 }, () => bar(5, 5, 5)), 3);
    expect(out.slice(3)).toEqual([
      { plusDi: 0, minusDi: 0, adx: undefined },
      { plusDi: 0, minusDi: 0, adx: undefined },
      { plusDi: 0, minusDi: 0, adx: 0 },
      { plusDi: 0, minusDi: 0, adx: 0 },
      { plusDi: 0, minusDi: 0, adx: 0 },
    ]);
  });

  it('a steady rise: +DI only, ADX 100', () => {
    const out = adx(Array.from({ length: 10 }, (_, i) => bar(11 + i, 9 + i, 10 + i)), 3);
    expect(out[9]!.minusDi).toBe(0);
    expect(out[9]!.plusDi).toBeCloseTo(50, 12); // +DM 1 a bar, TR 2 a bar
    expect(out[9]!.adx).toBeCloseTo(100, 12);
  });

  it('value, ready, reset and bad periods', () => {
    const a = new Adx(1);
    expect(a.update(bar(2, 1, 1.5))).toBeUndefined();
    expect(a.update(bar(3, 2, 2.5))).toEqual({ plusDi: 100 / 1.5, minusDi: 0, adx: 100 }); // +DM 1, TR 3 - 1.5
    expect(a.ready).toBe(true);
    a.reset();
    expect(a.value).toBeUndefined();
    expect(a.update(bar(3, 2, 2.5))).toBeUndefined();
    expect(() => new Adx(0)).toThrow(/adx: period must be an integer >= 1/);
  });

  it('matches the naive recomputation for any bars', () => {
    const arbBar = fc
      .tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 20 }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([low, range, at]) => bar(low + range, low, low + range * at));
    fc.assert(
      fc.property(fc.array(arbBar, { maxLength: 60 }), fc.integer({ min: 1, max: 10 }), (bars, n) => {
        const got = adx(bars, n);
        const want = naive(bars, n);
        got.forEach((g, i) => {
          if (want.plus[i] === undefined) return expect(g).toBeUndefined();
          expect(g!.plusDi).toBeCloseTo(want.plus[i]!, 6);
          expect(g!.minusDi).toBeCloseTo(want.minus[i]!, 6);
          if (want.adx[i] === undefined) expect(g!.adx).toBeUndefined();
          else expect(g!.adx).toBeCloseTo(want.adx[i]!, 6);
        });
      }),
    );
  });
});
