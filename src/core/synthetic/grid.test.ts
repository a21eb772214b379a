import { describe, expect, it } from 'vitest';
import { formatUnits, toUnits, unitGrid } from './grid.ts';

describe('unit grid', () => {
  it('parses steps into integer units', () => {
    expect(unitGrid('0.05')).toEqual({ decimals: 2, scale: 100, step: 5, value: 0.05 });
    expect(unitGrid('5')).toEqual({ decimals: 0, scale: 1, step: 5, value: 5 });
    expect(unitGrid('0.010')).toMatchObject({ decimals: 2, step: 1 });
    expect(unitGrid('0.00000001')).toMatchObject({ decimals: 8, step: 1 });
  });

  it('rejects what is not a plain positive decimal', () => {
    expect(() => unitGrid('0')).toThrow(/must be > 0/);
    expect(() => unitGrid('-1')).toThrow(/not a plain positive decimal/);
    expect(() => unitGrid('1e-2')).toThrow(RangeError);
    expect(() => unitGrid('0.0000000000001')).toThrow(/more than 12 decimals/);
  });

  it('rounds to the nearest step, never below one step', () => {
    const g = unitGrid('0.05');
    expect(toUnits(1.024, g)).toBe(100);
    expect(toUnits(1.026, g)).toBe(105);
    expect(toUnits(0.001, g)).toBe(5);
  });

  it('formats units with fixed decimals', () => {
    expect(formatUnits(12345, 2)).toBe('123.45');
    expect(formatUnits(5, 2)).toBe('0.05');
    expect(formatUnits(100, 2)).toBe('1.00');
    expect(formatUnits(7, 0)).toBe('7');
    expect(formatUnits(1, 8)).toBe('0.00000001');
  });
});
