import { describe, expect, it } from 'vitest';
import { zDec } from './common.ts';

describe('zDec: money as plain decimal strings, never exponent form (spec 1.4, notes 5.2)', () => {
  it('keeps plain text exactly as sent, trailing zeros included', () => {
    expect(zDec.parse('73247.300000000000000000')).toBe('73247.300000000000000000');
    expect(zDec.parse('-0.5')).toBe('-0.5');
  });
  it('rewrites exponent and other non-plain text, and numbers, to plain form', () => {
    expect(zDec.parse('1e-8')).toBe('0.00000001');
    expect(zDec.parse('1E-8')).toBe('0.00000001');
    expect(zDec.parse('2.5E+3')).toBe('2500');
    expect(zDec.parse('.5')).toBe('0.5');
    expect(zDec.parse(1e-8)).toBe('0.00000001');
    expect(zDec.parse(0.1)).toBe('0.1');
  });
  it('refuses what is not a number', () => {
    expect(zDec.safeParse('abc').success).toBe(false);
    expect(zDec.safeParse('1e').success).toBe(false);
  });
});
