import { describe, expect, it } from 'vitest';
import { KLINE_INTERVALS, isKlineInterval, periodClose, periodOpen } from './intervals.ts';

const utc = (s: string) => Date.parse(s);

describe('kline interval periods (spec 2.1)', () => {
  it('knows the 15 intervals', () => {
    expect(KLINE_INTERVALS).toHaveLength(15);
    expect(isKlineInterval('1M')).toBe(true);
    expect(isKlineInterval('1mo')).toBe(false);
  });

  it('aligns minutes and hours to UTC, closing 1 ms before the next open', () => {
    const t = utc('2024-03-13T10:47:31.123Z');
    expect(periodOpen('1m', t)).toBe(utc('2024-03-13T10:47:00Z'));
    expect(periodOpen('15m', t)).toBe(utc('2024-03-13T10:45:00Z'));
    expect(periodOpen('4h', t)).toBe(utc('2024-03-13T08:00:00Z'));
    expect(periodOpen('1d', t)).toBe(utc('2024-03-13T00:00:00Z'));
    expect(periodClose('1h', utc('2024-03-13T10:00:00Z'))).toBe(utc('2024-03-13T10:59:59.999Z'));
    // Exactly on a boundary the new period opens.
    expect(periodOpen('5m', utc('2024-03-13T10:50:00Z'))).toBe(utc('2024-03-13T10:50:00Z'));
    expect(periodOpen('5m', utc('2024-03-13T10:49:59.999Z'))).toBe(utc('2024-03-13T10:45:00Z'));
  });

  it('starts weeks on Monday 00:00 UTC', () => {
    // 2024-03-13 is a Wednesday; 2024-03-11 the Monday before; Sunday night stays in that week.
    expect(periodOpen('1w', utc('2024-03-13T10:00:00Z'))).toBe(utc('2024-03-11T00:00:00Z'));
    expect(periodOpen('1w', utc('2024-03-17T23:59:59.999Z'))).toBe(utc('2024-03-11T00:00:00Z'));
    expect(periodOpen('1w', utc('2024-03-18T00:00:00Z'))).toBe(utc('2024-03-18T00:00:00Z'));
    expect(periodClose('1w', utc('2024-03-11T00:00:00Z'))).toBe(utc('2024-03-17T23:59:59.999Z'));
    expect(new Date(periodOpen('1w', 0)).getUTCDay()).toBe(1);
  });

  it('uses calendar months, including February of a leap year and the year turn', () => {
    expect(periodOpen('1M', utc('2024-02-29T12:00:00Z'))).toBe(utc('2024-02-01T00:00:00Z'));
    expect(periodClose('1M', utc('2024-02-01T00:00:00Z'))).toBe(utc('2024-02-29T23:59:59.999Z'));
    expect(periodClose('1M', utc('2023-12-01T00:00:00Z'))).toBe(utc('2023-12-31T23:59:59.999Z'));
    expect(periodOpen('1M', utc('2024-01-01T00:00:00Z'))).toBe(utc('2024-01-01T00:00:00Z'));
  });

  it('aligns 3d to the epoch', () => {
    const t = utc('2024-03-13T10:00:00Z');
    expect(periodOpen('3d', t) % (3 * 86_400_000)).toBe(0);
    expect(t - periodOpen('3d', t)).toBeLessThan(3 * 86_400_000);
  });
});
