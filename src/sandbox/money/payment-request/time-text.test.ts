import { describe, expect, it } from 'vitest';
import { TIME_TEXT_PATTERN } from '../../../exchange/endpoints/areas/payment-request.ts';
import { futureTime, parseTimeText, pastTime } from './time-text.ts';

const NOW = Date.UTC(2025, 0, 15, 12);

describe('time text (spec 4.3 expires_at, 4.8 startDate)', () => {
  it('reads deltas, single and combined, forward for expiries and backward for history bounds', () => {
    expect(parseTimeText('1w')).toEqual({ kind: 'delta', ms: 604_800_000 });
    expect(parseTimeText('1w 3d 2h 32m 5s')).toEqual({ kind: 'delta', ms: 604_800_000 + 3 * 86_400_000 + 2 * 3_600_000 + 32 * 60_000 + 5_000 });
    expect(futureTime('2h', NOW)).toBe(NOW + 7_200_000);
    expect(pastTime('3d', NOW)).toBe(NOW - 3 * 86_400_000);
  });

  it('reads ISO 8601 as UTC without a zone, with any fraction length and offsets', () => {
    for (const text of ['2025-01-15T12:00:00Z', '2025-01-15T12:00:00.000000Z', '2025-01-15T12:00:00', '2025-01-15T12:00', '2025-01-15T14:00:00+02:00', '2025-01-15T14:00:00+0200', '2025-01-15T14:00:00+02']) {
      expect(TIME_TEXT_PATTERN.test(text)).toBe(true);
      expect(futureTime(text, 0)).toBe(NOW);
    }
    expect(futureTime('2025-01-15', 0)).toBe(Date.UTC(2025, 0, 15));
    expect(parseTimeText('tomorrow')).toBeUndefined();
  });

  it('refuses a day or time that does not exist instead of rolling it over (Date.parse reads 2025-02-30 as March 2)', () => {
    for (const text of ['2025-02-30', '2025-02-29T10:00:00Z', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '2025-01-01T24:00:00Z', '2025-01-01T12:60', '2025-01-01T12:00:60Z']) expect(parseTimeText(text), text).toBeUndefined();
    expect(futureTime('2024-02-29', 0)).toBe(Date.UTC(2024, 1, 29));
    expect(futureTime('2025-12-31T23:59:59.999Z', 0)).toBe(Date.UTC(2025, 11, 31, 23, 59, 59, 999));
  });
});
