/**
 * User data delivery (spec 4.7, 6.2; protocol notes 4.1). A listen key is bound to a connection by
 * the path `/openapi/ws/<listenKey>` (bare events) or, as one official connector does, by
 * SUBSCRIBE with the key as stream name on the combined path (wrapped, stream = the key).
 * Events of an account go at once to every connection bound to one of its keys. The registry
 * announces nothing, so keys are re-checked on every sweep; a key found expired or closed closes
 * its connections (the venue sends no expiry event: clients recreate the key and reconnect).
 */
import type { Clock } from '../../ports/clock.ts';
import type { ListenKeyRegistry, UserEvent } from '../contracts.ts';
import type { SubscriptionIndex } from './connection.ts';
import { idOut } from './payloads.ts';

export const CLOSE_LISTEN_KEY = 4001;

export class UserFeed {
  private readonly keysByAccount = new Map<string, Set<string>>();

  constructor(
    private readonly index: SubscriptionIndex,
    private readonly registry: ListenKeyRegistry,
    private readonly clock: Clock,
  ) {}

  /** The account of a live key, or undefined (unknown, expired, closed). */
  accountOf(listenKey: string): string | undefined {
    return this.registry.accountOf(listenKey, this.clock.now());
  }

  /** Note that `listenKey` (of `accountId`) now has a subscriber in the index. */
  bind(listenKey: string, accountId: string): void {
    let keys = this.keysByAccount.get(accountId);
    if (!keys) this.keysByAccount.set(accountId, (keys = new Set()));
    keys.add(listenKey);
  }

  deliver(accountId: string, event: UserEvent): void {
    const keys = this.keysByAccount.get(accountId);
    if (!keys) return;
    const payload = event.e === 'executionReport' ? { ...event, i: idOut(event.i), t: idOut(event.t) } : event;
    for (const key of keys) this.index.broadcast(key, payload);
  }

  /** Close the connections of keys that are no longer live; forget keys nobody listens to. */
  sweep(): void {
    for (const [accountId, keys] of this.keysByAccount) {
      for (const key of keys) {
        if (!this.index.has(key)) keys.delete(key);
        else if (this.accountOf(key) !== accountId) this.closeKey(key, 'listenKey expired');
      }
      if (keys.size === 0) this.keysByAccount.delete(accountId);
    }
  }

  /** Close every connection bound to `listenKey` (also for the server's DELETE userDataStream). */
  closeKey(listenKey: string, reason = 'listenKey closed'): void {
    for (const conn of this.index.subscribers(listenKey)?.keys() ?? []) conn.close(CLOSE_LISTEN_KEY, reason);
    for (const keys of this.keysByAccount.values()) keys.delete(listenKey);
  }
}
