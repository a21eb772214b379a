/**
 * The most recent trades of one symbol, for GET /openapi/quote/v1/trades (spec 4.4: default 500,
 * max 1000; a limit <= 0 or > 1000 returns 1000). A fixed ring: appends never reallocate.
 */
import type { StoredTrade } from './types.ts';

export const TRADES_LIMIT_DEFAULT = 500;
export const TRADES_LIMIT_MAX = 1000;

export class TradeRing {
  private readonly slots: (StoredTrade | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array<StoredTrade | undefined>(Math.max(1, capacity));
  }

  push(trade: StoredTrade): void {
    this.slots[this.next] = trade;
    this.next = (this.next + 1) % this.slots.length;
    this.count = Math.min(this.count + 1, this.slots.length);
  }

  /** Newest trade, if any. */
  last(): StoredTrade | undefined {
    if (this.count === 0) return undefined;
    return this.slots[(this.next - 1 + this.slots.length) % this.slots.length];
  }

  /** The newest `n` trades, oldest first (the venue's order). */
  recent(n: number): StoredTrade[] {
    const take = Math.min(n, this.count);
    const out: StoredTrade[] = [];
    for (let i = take; i >= 1; i--) {
      const t = this.slots[(this.next - i + this.slots.length) % this.slots.length];
      if (t) out.push(t);
    }
    return out;
  }
}

/** Spec 4.4 limit rule of GET trades. */
export function tradesLimit(limit: number | undefined): number {
  if (limit === undefined) return TRADES_LIMIT_DEFAULT;
  return limit <= 0 || limit > TRADES_LIMIT_MAX ? TRADES_LIMIT_MAX : Math.floor(limit);
}
