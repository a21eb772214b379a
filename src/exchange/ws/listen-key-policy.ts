/**
 * How the user stream reads the client's typed errors about listen keys (spec 4.7, 7.1;
 * protocol notes 4.1):
 *   -1125 the key is unknown or expired: make a new one and reconnect (also a refused upgrade)
 *   -1126 creating it failed: retry later, with back-off and a floor
 *   -1026 creation rate limit (N per hour): wait much longer before creating again
 *   429 / 418 rate limited or banned: wait at least the Retry-After (a ban: 2 minutes at least)
 * so a broken venue is never hammered.
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
  /** Least wait after a 418 without Retry-After (spec: bans last 2 minutes to 3 days). */
  bannedMs: number;
}

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
  if (err instanceof RateLimitedError) return err.banned ? Math.max(err.retryAfterMs ?? 0, policy.bannedMs) : (err.retryAfterMs ?? policy.rateLimitedMs);
  const code = venueCodeOf(err);
  if (code === LISTEN_KEY_CREATE_LIMIT) return policy.createLimitedMs;
  if (code === LISTEN_KEY_CREATE_FAILED) return policy.createFailedMs;
  return undefined;
}
