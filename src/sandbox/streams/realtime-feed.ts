/**
 * Real-time market streams (protocol notes 4): `@trade` per fill, `@aggTrade` per taker order and
 * price, `@bookTicker` / `!bookTicker` when the best bid or ask changes.
 *
 * aggTrade: the engine reports each fill with the `aggregateId` of its taker order. Consecutive
 * fills with the same aggregateId and price form one aggregate; it is sent when a fill of another
 * group arrives or at the end of the current synchronous burst (a microtask), so one matching pass
 * yields one event per price level. `a` is the aggregate's first trade id: a taker order that
 * walks several levels gives several aggregates, each with its own id, increasing as the trade
 * ids do, and unique across a restart with `--state` (the trade ids persist; a counter of its own
 * started again at 1 and repeated ids a client had already seen).
 */
import type { Clock } from '../../ports/clock.ts';
import { readBookTop } from '../market-data/ticker.ts';
import type { BookSource, StoredTrade } from '../market-data/types.ts';
import type { SubscriptionIndex } from './connection.ts';
import { aggTradePayload, bookTickerPayload, tradePayload, type AggTrade } from './payloads.ts';

interface PendingAgg {
  aggregateId: string;
  group: AggTrade;
}

export class RealtimeFeed {
  private readonly pending = new Map<string, PendingAgg>();
  private flushQueued = false;
  private readonly lastTop = new Map<string, string>();

  constructor(
    private readonly index: SubscriptionIndex,
    private readonly clock: Clock,
    private readonly book: BookSource,
  ) {}

  trade(symbol: string, t: StoredTrade): void {
    const lower = symbol.toLowerCase();
    this.index.broadcast(`${lower}@trade`, tradePayload(symbol, t, this.clock.now()));
    const p = this.pending.get(symbol);
    if (p && p.aggregateId === t.aggregateId && p.group.price.eq(t.price)) {
      p.group.qty = p.group.qty.plus(t.qty);
      p.group.lastId = t.id;
      return;
    }
    if (p) this.flushOne(symbol, p);
    this.pending.set(symbol, {
      aggregateId: t.aggregateId,
      group: { a: BigInt(t.id), price: t.price, qty: t.qty, firstId: t.id, lastId: t.id, time: t.time, buyerIsMaker: t.buyerIsMaker },
    });
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Send every pending aggregate (also called before close). */
  flush(): void {
    this.flushQueued = false;
    for (const [symbol, p] of this.pending) this.flushOne(symbol, p);
  }

  private flushOne(symbol: string, p: PendingAgg): void {
    this.pending.delete(symbol);
    this.index.broadcast(`${symbol.toLowerCase()}@aggTrade`, aggTradePayload(symbol, p.group, this.clock.now()));
  }

  bookChanged(symbol: string): void {
    const one = `${symbol.toLowerCase()}@bookTicker`;
    if (!this.index.has(one) && !this.index.has('!bookTicker')) {
      this.lastTop.delete(symbol);
      return;
    }
    const top = readBookTop(this.book, symbol);
    const key = `${top.bid.join()}|${top.ask.join()}`;
    if (this.lastTop.get(symbol) === key) return;
    this.lastTop.set(symbol, key);
    const payload = bookTickerPayload(symbol, top);
    this.index.broadcast(one, payload);
    this.index.broadcast('!bookTicker', payload);
  }
}
