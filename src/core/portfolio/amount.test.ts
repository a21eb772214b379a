import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../money/decimal.ts';
import { AMOUNT_ONE, formatAmount, parseAmount } from './amount.ts';

describe('parseAmount / formatAmount', () => {
  it('parses plain decimals into 1e-18 units', () => {
    expect(parseAmount('1')).toBe(AMOUNT_ONE);
    expect(parseAmount('0.000000000000000001')).toBe(1n);
    expect(parseAmount('12.5')).toBe(12n * AMOUNT_ONE + AMOUNT_ONE / 2n);
    expect(parseAmount('.5')).toBe(AMOUNT_ONE / 2n);
    expect(parseAmount('5.')).toBe(5n * AMOUNT_ONE);
    expect(parseAmount('+3')).toBe(3n * AMOUNT_ONE);
  });

  it('accepts exponent notation and trailing zeros beyond 18 decimals', () => {
    expect(parseAmount('1e-8')).toBe(10n ** 10n);
    expect(parseAmount('1.0000000000000000000000')).toBe(AMOUNT_ONE);
  });

  it('rejects negatives, garbage and precision it cannot hold', () => {
    expect(() => parseAmount('-1')).toThrow(RangeError);
    expect(() => parseAmount('abc')).toThrow(TypeError);
    expect(() => parseAmount('')).toThrow(TypeError);
    expect(() => parseAmount('0.0000000000000000001')).toThrow(RangeError);
  });

  it('formats without exponent or trailing zeros', () => {
    expect(formatAmount(0n)).toBe('0');
    expect(formatAmount(1n)).toBe('0.000000000000000001');
    expect(formatAmount(10n ** 10n)).toBe('0.00000001');
    expect(formatAmount(AMOUNT_ONE * 1000n)).toBe('1000');
    expect(formatAmount(-AMOUNT_ONE / 4n)).toBe('-0.25');
  });

  it('round-trips any 18-decimal value, agreeing with decimal.js', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (units) => {
        const text = formatAmount(units);
        expect(parseAmount(text)).toBe(units);
        expect(dec(text).times('1e18').toFixed()).toBe(units.toString());
      }),
    );
  });
});
