/**
 * Listen keys of the user data stream (spec 4.7, 8.12, 3.2; protocol notes 4.1).
 *
 * A key lives `ttlMs` (60 minutes) of SANDBOX time; keepalive restarts the timer; close and the
 * admin fault `expire` invalidate it. POST while the account has an active key returns that key,
 * extended (notes 4.1, inferred). Expiry is evaluated lazily against the `now` the caller passes,
 * so a jump of the sandbox clock expires keys at once. Listeners hear every invalidation they can
 * observe (close, expire, or an expiry noticed on access), so the stream server can drop sockets.
 *
 * Creation limit (spec 7.1 -1026 "listen key creation rate limited (%s per hour)"): an account
 * creates at most `createsPerHour` new keys in any hour of sandbox time. The venue does not
 * publish the number; 60 by default, configurable. Returning the active key is not a creation.
 */
import type { ListenKeyRegistry } from './contracts.ts';
import { randomToken } from './accounts/registry.ts';

export type ListenKeyEndReason = 'closed' | 'expired';

const HOUR = 3_600_000;

interface Entry {
  accountId: string;
  expiresAt: number;
}

export class ListenKeys implements ListenKeyRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(listenKey: string, accountId: string, reason: ListenKeyEndReason) => void>();

  /** Creation times per account within the last hour, oldest first. */
  private readonly created = new Map<string, number[]>();

  constructor(
    readonly ttlMs = 3_600_000,
    readonly createsPerHour = 60,
  ) {}

  onInvalidated(listener: (listenKey: string, accountId: string, reason: ListenKeyEndReason) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new key, or the account's active key extended; null when the account hit the creation limit (-1026). */
  create(accountId: string, now: number): string | null {
    for (const [key, entry] of this.entries) {
      if (entry.accountId !== accountId) continue;
      if (this.alive(key, entry, now)) {
        entry.expiresAt = now + this.ttlMs;
        return key;
      }
    }
    let times = this.created.get(accountId);
    if (times === undefined) this.created.set(accountId, (times = []));
    while (times.length > 0 && (times[0] as number) <= now - HOUR) times.shift();
    if (times.length >= this.createsPerHour) return null;
    times.push(now);
    const key = randomToken(60);
    this.entries.set(key, { accountId, expiresAt: now + this.ttlMs });
    return key;
  }

  keepalive(listenKey: string, now: number): boolean {
    const entry = this.entries.get(listenKey);
    if (!entry || !this.alive(listenKey, entry, now)) return false;
    entry.expiresAt = now + this.ttlMs;
    return true;
  }

  close(listenKey: string): boolean {
    return this.end(listenKey, 'closed');
  }

  accountOf(listenKey: string, now: number): string | undefined {
    const entry = this.entries.get(listenKey);
    return entry && this.alive(listenKey, entry, now) ? entry.accountId : undefined;
  }

  expire(listenKey: string): boolean {
    return this.end(listenKey, 'expired');
  }

  /** Active keys at `now` (admin listing; expired ones are swept). */
  active(now: number): { listenKey: string; accountId: string; expiresAt: number }[] {
    return [...this.entries]
      .filter(([key, e]) => this.alive(key, e, now))
      .map(([listenKey, e]) => ({ listenKey, accountId: e.accountId, expiresAt: e.expiresAt }));
  }

  private alive(key: string, entry: Entry, now: number): boolean {
    if (now < entry.expiresAt) return true;
    this.end(key, 'expired');
    return false;
  }

  private end(listenKey: string, reason: ListenKeyEndReason): boolean {
    const entry = this.entries.get(listenKey);
    if (!entry) return false;
    this.entries.delete(listenKey);
    for (const l of this.listeners) l(listenKey, entry.accountId, reason);
    return true;
  }
}
