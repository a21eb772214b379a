/**
 * How the user stream reads the client's typed errors about listen keys (spec 4.7, 7.1;
 * protocol notes 4.1):
 *   -1125 the key is unknown or expired: make a new one and reconnect (also a refused upgrade)
 *   -1126 creating it failed: retry later, with back-off and a floor
 *   -1026 creation rate limit (N per hour): wait much longer before creating again
 *   429 / 418 rate limited or banned: wait the Retry-After (spec 8.6: "418 and 429 responses carry
 *             a Retry-After header in seconds (... until the ban is lifted for 418)"; notes 7);
 *             without one (or 0) a 429 waits `rateLimitedMs`, a 418 `bannedMs`, the spec's
 *             shortest ban (8.5: "from 2 minutes to 3 days")
 * so a broken venue is never hammered, and a ban that the venue says ends in 30 s is not waited
 * out for 2 minutes (the REST pause, exchange/rate/rate-limit-pause.ts, reads a 418 the same way).
 */
import { ExchangeError, RateLimitedError } from '../errors/errors.ts';
import { StreamUpgradeRejectedError } from './stream-errors.ts';

export const LISTEN_KEY_EXPIRED = -1125;
export const LISTEN_KEY_CREATE_FAILED = -1126;
export const LISTEN_KEY_CREATE_LIMIT = -1026;

export interface ListenKeyPolicy {
  /** Least wait after -1126. */
  createFailedMs: number;
  /** Least wait after -1026 (the limit counts per hour). */
  createLimitedMs: number;
  /** Least wait after a 429 without Retry-After. */
  rateLimitedMs: number;
  /** Wait after a 418 without a Retry-After of at least 1 s (spec: bans last 2 minutes to 3 days); one with it waits what it says. */
  bannedMs: number;
}

/** A Retry-After under 1 s (0) is taken as absent, as the REST pause does (rate-limit-pause.ts). */
const MIN_RETRY_AFTER_MS = 1000;

export const DEFAULT_LISTEN_KEY_POLICY: ListenKeyPolicy = {
  createFailedMs: 5_000,
  createLimitedMs: 5 * 60_000,
  rateLimitedMs: 60_000,
  bannedMs: 120_000,
};

function venueCodeOf(err: unknown): number | string | undefined {
  if (err instanceof ExchangeError || err instanceof StreamUpgradeRejectedError) return err.venueCode;
  return undefined;
}

/** The key is gone (-1125): only a new key helps. */
export function isListenKeyGone(err: unknown): boolean {
  return venueCodeOf(err) === LISTEN_KEY_EXPIRED;
}

/** The least wait before the next attempt after `err`, or undefined for the plain back-off. */
export function listenKeyRetryFloor(err: unknown, policy: ListenKeyPolicy): number | undefined {
  if (err instanceof RateLimitedError) {
    const said = err.retryAfterMs;
    // A Retry-After of 0 is read as none (a ban does not end at once; a 429 repeated at once earns one).
    if (said !== undefined && said >= MIN_RETRY_AFTER_MS) return said;
    return err.banned ? policy.bannedMs : policy.rateLimitedMs;
  }
  const code = venueCodeOf(err);
  if (code === LISTEN_KEY_CREATE_LIMIT) return policy.createLimitedMs;
  if (code === LISTEN_KEY_CREATE_FAILED) return policy.createFailedMs;
  return undefined;
}
