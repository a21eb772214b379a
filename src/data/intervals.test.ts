import { describe, expect, it } from 'vitest';
import { barsBetween, closeTimeOf, intervalOfSpacing, isKlineInterval, nextOpenTime } from './intervals.ts';

describe('intervals', () => {
  it('steps fixed intervals by their length and 1M by the UTC calendar', () => {
    expect(nextOpenTime(0, '1m')).toBe(60_000);
    expect(closeTimeOf(1709251200000, '1m')).toBe(1709251259999);
    expect(nextOpenTime(Date.UTC(2024, 0, 1), '1M')).toBe(Date.UTC(2024, 1, 1));
    expect(nextOpenTime(Date.UTC(2024, 1, 1), '1M')).toBe(Date.UTC(2024, 2, 1));
    expect(closeTimeOf(Date.UTC(2024, 11, 1), '1M')).toBe(Date.UTC(2025, 0, 1) - 1);
  });

  it('counts bars in [from, to)', () => {
    expect(barsBetween(0, 60_000 * 10, '1m')).toBe(10);
    expect(barsBetween(0, 60_000 * 10 + 1, '1m')).toBe(11);
    expect(barsBetween(5, 5, '1h')).toBe(0);
    expect(barsBetween(Date.UTC(2024, 0, 1), Date.UTC(2025, 0, 1), '1M')).toBe(12);
  });

  it('names intervals by spacing', () => {
    expect(intervalOfSpacing(60_000)).toBe('1m');
    expect(intervalOfSpacing(4 * 3_600_000)).toBe('4h');
    expect(intervalOfSpacing(31 * 86_400_000)).toBe('1M');
    expect(intervalOfSpacing(90_000)).toBeUndefined();
    expect(isKlineInterval('1M')).toBe(true);
    expect(isKlineInterval('7m')).toBe(false);
  });
});
