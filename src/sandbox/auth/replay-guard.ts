/**
 * Single use of nonce-carrying signatures (issue 24 defect 4; protocol notes 2.4, spec 7.3 -10324
 * "Request repeated"). The legacy v4 scheme signs nonce + URL + body and its nonce is a whole
 * second, so a captured request could be sent again, unchanged, for as long as its nonce is in
 * the window. The guard remembers every (key, signature) that passed the signature and nonce
 * checks, whatever the rest of the request then got, until the nonce leaves its window, and
 * refuses a second use: like a real nonce, a signature is spent once it is presented. A caller
 * that retries (even a GET, even after an error) must sign again with a new nonce.
 *
 * Why the signature and not the bare nonce: the nonce has one-second resolution and the project's
 * own client (and any caller) may send several different calls within one second; those carry the
 * same nonce but different signatures. A replay is byte-for-byte the same signed message, so the
 * same signature (compared case-insensitively, as it is verified).
 *
 * The HMAC schemes (notes 2.1-2.2) and the merchant scheme (2.3) carry a timestamp, not a nonce:
 * repeating a request within its window is normal there (Binance-style), so they do not use this.
 *
 * Memory is bounded: an entry lives until its window ends on the sandbox clock (which may be
 * virtual) and is dropped before the next check after that; and at most `maxEntries` live at once.
 * When that many unexpired signatures are held, a new one is refused (429 -1003) rather than an
 * old one forgotten, so a replay can never be accepted. Limits of the guarantee: the set is in
 * memory only (a restart forgets it), and setting the sandbox clock back (admin time jumps), or a
 * large forward `clock-skew` fault on one request, can reopen a window whose entries were dropped.
 */
import type { AccountRegistry } from '../accounts/registry.ts';

export type ReplayVerdict = 'fresh' | 'repeated' | 'full';

/** Default cap: about 100,000 x 200 bytes, far above what the rate limits let through in a window. */
export const DEFAULT_MAX_ENTRIES = 100_000;

export class ReplayGuard {
  /** id -> the last sandbox ms at which its nonce is still inside the window. */
  private readonly seen = new Map<string, number>();
  /** The smallest expiry held (Infinity when empty): no sweep is needed before then. */
  private earliestExpiry = Infinity;

  constructor(readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /**
   * Records `id` as used until `expiresAt` (sandbox ms, inclusive) and says whether it was new,
   * already used inside its window, or refused because the guard is full.
   */
  admit(id: string, expiresAt: number, now: number): ReplayVerdict {
    this.dropExpired(now);
    if (this.seen.has(id)) return 'repeated';
    if (this.seen.size >= this.maxEntries) return 'full';
    this.seen.set(id, expiresAt);
    this.earliestExpiry = Math.min(this.earliestExpiry, expiresAt);
    return 'fresh';
  }

  /** Entries held (every one unexpired as of the last check). */
  get size(): number {
    return this.seen.size;
  }

  private dropExpired(now: number): void {
    if (now <= this.earliestExpiry) return;
    let earliest = Infinity;
    for (const [id, expiresAt] of this.seen) {
      if (expiresAt < now) this.seen.delete(id);
      else earliest = Math.min(earliest, expiresAt);
    }
    this.earliestExpiry = earliest;
  }
}

/**
 * One guard per sandbox: keyed by the sandbox's account registry (one per server, for its life),
 * so the auth layer needs no new field on the shared sandbox state.
 */
const guards = new WeakMap<AccountRegistry, ReplayGuard>();

export function replayGuardFor(accounts: AccountRegistry): ReplayGuard {
  let guard = guards.get(accounts);
  if (guard === undefined) {
    guard = new ReplayGuard();
    guards.set(accounts, guard);
  }
  return guard;
}
