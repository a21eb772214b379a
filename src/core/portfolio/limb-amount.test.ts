import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount } from './amount.ts';
import { AmountRangeError, LimbAmount } from './limb-amount.ts';

const POW = (s: number): bigint => 10n ** BigInt(18 - s);
const delta = fc.record({
  n: fc.oneof(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.maxSafeInteger(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 999_999_999, 1)),
  s: fc.integer({ min: 0, max: 18 }),
});

describe('LimbAmount', () => {
  it('adds exactly like bigint units, and formats and compares the same', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.array(delta, { maxLength: 20 }), (start, deltas) => {
        const x = new LimbAmount();
        x.units = start;
        let ref = start;
        for (const { n, s } of deltas) {
          const d = BigInt(n) * POW(s);
          const beyond = ref + d;
          if (beyond / 10n ** 18n > BigInt(Number.MAX_SAFE_INTEGER) - 1n || beyond / 10n ** 18n < -BigInt(Number.MAX_SAFE_INTEGER) + 1n) continue;
          expect(x.covers(n, s)).toBe(ref >= d);
          x.add(n, s);
          ref = beyond;
          expect(x.a).toBeGreaterThanOrEqual(0);
          expect(x.a).toBeLessThan(1e9);
          expect(x.b).toBeGreaterThanOrEqual(0);
          expect(x.b).toBeLessThan(1e9);
        }
        expect(x.units).toBe(ref);
        expect(x.format()).toBe(formatAmount(ref));
        expect(x.isZero()).toBe(ref === 0n);
      }),
      { numRuns: 500 },
    );
  });

  it('moves exactly like two bigint additions, and changes neither side when one would leave the range', () => {
    const MAX = BigInt(Number.MAX_SAFE_INTEGER);
    // Whole part within the limbs' range, with a margin of 2 so floor and truncation agree.
    const inRange = (v: bigint) => v / 10n ** 18n < MAX - 2n && v / 10n ** 18n > -MAX + 2n;
    const outOfRange = (v: bigint) => v / 10n ** 18n > MAX + 2n || v / 10n ** 18n < -MAX - 2n;
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.array(delta, { maxLength: 20 }), (a0, b0, deltas) => {
        const from = new LimbAmount();
        const to = new LimbAmount();
        from.units = a0;
        to.units = b0;
        let ra = a0;
        let rb = b0;
        for (const { n, s } of deltas) {
          const d = BigInt(n) * POW(s);
          const na = ra - d;
          const nb = rb + d;
          if (inRange(na) && inRange(nb)) {
            from.moveTo(to, n, s);
            ra = na;
            rb = nb;
          } else if (outOfRange(na) || outOfRange(nb)) {
            expect(() => from.moveTo(to, n, s)).toThrow(AmountRangeError);
          }
          expect(from.units).toBe(ra);
          expect(to.units).toBe(rb);
          expect(from.a >= 0 && from.a < 1e9 && from.b >= 0 && from.b < 1e9).toBe(true);
          expect(to.a >= 0 && to.a < 1e9 && to.b >= 0 && to.b < 1e9).toBe(true);
        }
        expect(from.format()).toBe(formatAmount(ra));
        expect(to.format()).toBe(formatAmount(rb));
      }),
      { numRuns: 500 },
    );
  });

  it('floors to a scale as bigint division does, or says -1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 9n * 10n ** 33n }), fc.integer({ min: 0, max: 18 }), (units, s) => {
        const x = new LimbAmount();
        x.units = units;
        const q = units / 10n ** BigInt(18 - s);
        const expected = units < 0n || q > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(q);
        expect(x.floorAt(s)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('formats the usual shapes', () => {
    const x = new LimbAmount();
    expect(x.format()).toBe('0');
    x.add(150, 2);
    expect(x.format()).toBe('1.5');
    x.add(1, 18);
    expect(x.format()).toBe('1.500000000000000001');
    x.add(-1, 18);
    x.add(-2, 0);
    expect(x.format()).toBe('-0.5');
  });

  it('formats every count of trailing zeros as formatAmount does (render strips them from the limbs)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 18 }), (digits, zeros) => {
        const units = digits * 10n ** BigInt(zeros);
        const x = new LimbAmount();
        x.units = units;
        expect(x.format()).toBe(formatAmount(units));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what it cannot hold exactly', () => {
    const x = new LimbAmount();
    expect(() => x.add(0.5, 2)).toThrow(AmountRangeError);
    expect(() => x.add(1, 19)).toThrow(RangeError);
    expect(() => x.add(2 ** 53, 0)).toThrow(RangeError);
    x.add(Number.MAX_SAFE_INTEGER, 0);
    expect(() => x.add(1, 0)).toThrow(RangeError);
    expect(x.units).toBe(BigInt(Number.MAX_SAFE_INTEGER) * 10n ** 18n);
    expect(() => {
      x.units = 10n ** 40n;
    }).toThrow(RangeError);
  });
});
