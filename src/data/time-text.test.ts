import { describe, expect, it } from 'vitest';
import { formatTime, parseTimeText } from './time-text.ts';

describe('time text', () => {
  it('parses dates (UTC), date-times with and without zone, and epoch ms', () => {
    expect(parseTimeText('2024-03-01')).toBe(Date.UTC(2024, 2, 1));
    expect(parseTimeText('2024-03-01T12:30')).toBe(Date.UTC(2024, 2, 1, 12, 30));
    expect(parseTimeText('2024-03-01 12:30:15')).toBe(Date.UTC(2024, 2, 1, 12, 30, 15));
    expect(parseTimeText('2024-03-01T12:00+08:00')).toBe(Date.UTC(2024, 2, 1, 4));
    expect(parseTimeText('1709251200000')).toBe(1709251200000);
  });

  it('refuses anything else, including impossible dates', () => {
    for (const bad of ['', 'yesterday', '2024-02-31', '2024-13-01', '1709251200', '03/01/2024']) expect(parseTimeText(bad)).toBeUndefined();
  });

  it('formats at the coarsest exact resolution', () => {
    expect(formatTime(Date.UTC(2024, 2, 1))).toBe('2024-03-01T00:00Z');
    expect(formatTime(Date.UTC(2024, 2, 1, 0, 0, 59))).toBe('2024-03-01T00:00:59Z');
    expect(formatTime(1709251259999)).toBe('2024-03-01T00:00:59.999Z');
  });
});
