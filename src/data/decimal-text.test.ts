import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../core/money/decimal.ts';
import { compareDecimalText, isPlainDecimal } from './decimal-text.ts';

/** Plain non-negative decimals with leading and trailing zeros, long digit runs included. */
const plain = fc
  .tuple(fc.stringMatching(/^\d{1,25}$/), fc.option(fc.stringMatching(/^\d{0,25}$/), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

describe('decimal text', () => {
  it('accepts plain non-negative decimals only', () => {
    for (const ok of ['0', '61126.0', '0.00012', '.5', '5.', '000123.4500']) expect(isPlainDecimal(ok)).toBe(true);
    for (const bad of ['', '-1', '+1', '1e-5', '1.2.3', ' 1', '1,5', 'NaN', '.', 'Infinity']) expect(isPlainDecimal(bad)).toBe(false);
  });

  it('compares exactly like decimal.js', () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        expect(compareDecimalText(a, b)).toBe(new D(a).cmp(new D(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles the tricky cases', () => {
    expect(compareDecimalText('61126.0', '61126')).toBe(0);
    expect(compareDecimalText('0.5', '0.50')).toBe(0);
    expect(compareDecimalText('0.5', '0.51')).toBe(-1);
    expect(compareDecimalText('0010', '9.99')).toBe(1);
    expect(compareDecimalText('123456789012345678.1', '123456789012345678.09')).toBe(1);
    expect(compareDecimalText('.5', '0.5')).toBe(0);
  });
});
