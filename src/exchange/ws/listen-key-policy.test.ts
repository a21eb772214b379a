import { describe, expect, it } from 'vitest';
import { RateLimitedError, VenueRejectedError } from '../errors/errors.ts';
import { DEFAULT_LISTEN_KEY_POLICY, isListenKeyGone, listenKeyRetryFloor } from './listen-key-policy.ts';
import { StreamUpgradeRejectedError } from './stream-errors.ts';

const rejected = (venueCode: number) =>
  new VenueRejectedError('VENUE_REJECTED', `code ${venueCode}`, { endpoint: 'userStream.startUserDataStream', httpStatus: 400, venueCode, outcome: 'rejected', category: 'bad-request' });
const limited = (banned: boolean, retryAfterMs: number | undefined) =>
  new RateLimitedError('rate limited', { endpoint: 'userStream.startUserDataStream', httpStatus: banned ? 418 : 429, outcome: 'rate-limited', category: 'rate', banned, retryAfterMs });

describe('listen-key policy (notes 4.1, spec 7.1)', () => {
  it('-1125 (from REST or a refused upgrade) means the key is gone', () => {
    expect(isListenKeyGone(rejected(-1125))).toBe(true);
    expect(isListenKeyGone(new StreamUpgradeRejectedError(400, -1125, '{"code":-1125}'))).toBe(true);
    expect(isListenKeyGone(rejected(-1126))).toBe(false);
    expect(isListenKeyGone(new Error('x'))).toBe(false);
  });

  it('waits at least the floor after -1126, -1026, 429 and 418 (never hammers)', () => {
    const p = DEFAULT_LISTEN_KEY_POLICY;
    expect(listenKeyRetryFloor(rejected(-1126), p)).toBe(p.createFailedMs);
    expect(listenKeyRetryFloor(rejected(-1026), p)).toBe(p.createLimitedMs);
    expect(listenKeyRetryFloor(limited(false, undefined), p)).toBe(p.rateLimitedMs);
    expect(listenKeyRetryFloor(limited(false, 7000), p)).toBe(7000);
    expect(listenKeyRetryFloor(limited(true, undefined), p)).toBe(120_000);
    expect(listenKeyRetryFloor(limited(true, 600_000), p)).toBe(600_000);
    expect(listenKeyRetryFloor(new Error('ECONNREFUSED'), p)).toBeUndefined();
  });

  it('a 418 with a Retry-After waits what it says, not the 2-minute floor (spec 8.6: until the ban is lifted)', () => {
    const p = DEFAULT_LISTEN_KEY_POLICY;
    expect(listenKeyRetryFloor(limited(true, 30_000), p)).toBe(30_000);
    expect(listenKeyRetryFloor(limited(true, 1000), p)).toBe(1000);
    // Retry-After: 0 is no usable answer: the floors.
    expect(listenKeyRetryFloor(limited(true, 0), p)).toBe(p.bannedMs);
    expect(listenKeyRetryFloor(limited(false, 0), p)).toBe(p.rateLimitedMs);
    expect(listenKeyRetryFloor(new Error('ECONNREFUSED'), p)).toBeUndefined();
  });
});
