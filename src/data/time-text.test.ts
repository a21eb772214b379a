import { describe, expect, it } from 'vitest';
import { formatTime, notATimeReason, parseTimeText } from './time-text.ts';

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
    // With a zone too: Date.parse alone would read 2026-02-30T12:00Z as March 2 and 24:00 as the next day.
    for (const bad of ['2026-02-30T12:00Z', '2026-02-29T00:00:00+08:00', '2024-04-31 08:00Z', '2024-03-01T24:00Z', '2024-03-01T24:00']) expect(parseTimeText(bad), bad).toBeUndefined();
    expect(parseTimeText('2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
  });

  it('says what it accepts, and that 9 to 11 digits look like epoch seconds', () => {
    expect(notATimeReason('yesterday')).toBe('2024-03-01, 2024-03-01T12:00, 2024-03-01T12:00+08:00 or epoch ms');
    expect(notATimeReason('1709251200')).toBe('2024-03-01, 2024-03-01T12:00, 2024-03-01T12:00+08:00 or epoch ms; 1709251200 looks like epoch seconds: in ms that is 1709251200000');
    expect(parseTimeText('1709251200000')).toBe(Date.UTC(2024, 2, 1));
  });

  it('formats at the coarsest exact resolution', () => {
    expect(formatTime(Date.UTC(2024, 2, 1))).toBe('2024-03-01T00:00Z');
    expect(formatTime(Date.UTC(2024, 2, 1, 0, 0, 59))).toBe('2024-03-01T00:00:59Z');
    expect(formatTime(1709251259999)).toBe('2024-03-01T00:00:59.999Z');
  });
});
