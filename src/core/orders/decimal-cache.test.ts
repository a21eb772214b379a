import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import { decimalText, parsedDecimal } from './decimal-cache.ts';

describe('parsedDecimal', () => {
  it('parses like new D, and hands back the same value for the same text', () => {
    for (const t of ['0', '1', '1.50', '0.00000001', '123456789.123456789', '1000', '7']) expect(parsedDecimal(t).eq(new D(t))).toBe(true);
    const a = parsedDecimal('2512345.67');
    expect(parsedDecimal(`2512345.6${'7'}`)).toBe(a);
    // Colliding texts replace each other: still the right values.
    for (let i = 0; i < 500; i++) expect(parsedDecimal(String(i / 8)).toNumber()).toBe(i / 8);
    expect(parsedDecimal('2512345.67').toFixed()).toBe('2512345.67');
  });
});

describe('decimalText', () => {
  it("prints like toFixed and hands the printed text's parse back as the same Decimal", () => {
    const d = new D('1.23').times('4.5678');
    const t = decimalText(d);
    expect(t).toBe(d.toFixed());
    expect(parsedDecimal(t)).toBe(d);
    expect(decimalText(new D(0))).toBe('0');
  });
});
