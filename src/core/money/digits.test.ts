import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nineDigits } from './digits.ts';

describe('digits', () => {
  it('nineDigits pads to nine', () => {
    expect(nineDigits(0)).toBe('000000000');
    expect(nineDigits(5)).toBe('000000005');
    expect(nineDigits(999_999_999)).toBe('999999999');
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999 }), (v) => {
      expect(nineDigits(v)).toBe(String(v).padStart(9, '0'));
    }));
  });
});
