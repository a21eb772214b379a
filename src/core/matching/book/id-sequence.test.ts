import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSequence } from './id-sequence.ts';

describe('IdSequence', () => {
  it('counts from a small first id like a plain counter', () => {
    const s = new IdSequence(1n);
    expect([0, 1, 9, 99].map((k) => s.text(k))).toEqual(['1', '2', '10', '100']);
    expect(s.position('1')).toBe(0);
    expect(s.position('100')).toBe(99);
  });

  it('formats ids above 2^53 exactly, across a billions carry', () => {
    const first = 1_767_225_600_000_000_000n;
    const s = new IdSequence(first + 999_999_998n);
    expect(s.text(0)).toBe('1767225600999999998');
    expect(s.text(2)).toBe('1767225601000000000');
    expect(s.text(3)).toBe('1767225601000000001');
    expect(s.position('1767225601000000001')).toBe(3);
  });

  it('gives the bigint text for any first id and position (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 2 ** 40 }), (first, k) => {
        const s = new IdSequence(first);
        const want = (first + BigInt(k)).toString();
        expect(s.text(k)).toBe(want);
        expect(s.position(want)).toBe(k);
      }),
    );
  });

  it('answers -1 for text that is not one of its ids', () => {
    const s = new IdSequence(1000n);
    for (const bad of ['', '999', '01000', '1e3', '-1000', ' 1000', '1000.0', 'x', '9'.repeat(40)]) expect(s.position(bad)).toBe(-1);
  });

  it('refuses a first id it cannot format exactly', () => {
    expect(() => new IdSequence(-1n)).toThrow(RangeError);
    expect(() => new IdSequence(10n ** 30n)).toThrow(RangeError);
  });
});
