/**
 * The scratch state of one engine operation (place, cancel, print...): the events in the order
 * they happened, the balance entries and depth levels it touched (reported once each, with their
 * final values, when the operation ends), stop orders triggered and waiting to run, and the
 * taker fills of the placed order. With events off only the book update counter moves.
 */
import type { BalanceEntry } from '../portfolio/balances.ts';
import { formatAmount } from '../portfolio/amount.ts';
import type { Order } from './order.ts';
import { formatScaled } from './scaled.ts';
import type { SymbolBook } from './symbol-book.ts';
import type { EngineEvent, Fill } from './types.ts';

export class OpContext {
  /** Fresh per operation: handed to the caller. */
  events: EngineEvent[] = [];
  /** Stops whose trigger fired, to run after the current taker finishes. */
  readonly pending: Order[] = [];
  /** The placed order, whose taker fills go to `fills`. */
  fillsOf: Order | null = null;
  /** Fresh per operation: handed to the caller. */
  fills: Fill[] = [];
  /** External price (price int) that triggered orders may fill at; -1 for none. */
  ext = -1;
  time = 0;
  private readonly balances: BalanceEntry[] = [];
  private readonly levels: { sb: SymbolBook; isBid: boolean; price: number }[] = [];

  constructor(readonly record: boolean) {}

  /**
   * Start an operation. The engine reuses one context (fewer allocations on the hot path); the
   * arrays handed out (events, fills) are new each time, the scratch lists are emptied.
   */
  reset(time: number): this {
    this.time = time;
    this.events = [];
    this.fills = [];
    this.fillsOf = null;
    this.ext = -1;
    this.pending.length = 0;
    this.balances.length = 0;
    this.levels.length = 0;
    return this;
  }

  push(e: EngineEvent): void {
    this.events.push(e);
  }

  touch(e: BalanceEntry): void {
    if (this.record && !this.balances.includes(e)) this.balances.push(e);
  }

  /** Always tracked (the update id counts changed levels whether or not events are built). */
  touchLevel(sb: SymbolBook, isBid: boolean, price: number): void {
    for (const t of this.levels) if (t.sb === sb && t.isBid === isBid && t.price === price) return;
    this.levels.push({ sb, isBid, price });
  }

  /** Count the changed levels and append the depth and balance events; returns every event of the operation. */
  finish(): EngineEvent[] {
    const time = this.time;
    for (const { sb, isBid, price } of this.levels) {
      if (!this.record) {
        sb.updateId++;
        continue;
      }
      const qty = sb.side(isBid).level(price)?.qty ?? 0;
      const { symbol, pd, qd } = sb.spec;
      const updateId = ++sb.updateId;
      this.events.push({ kind: 'book', symbol, side: isBid ? 'bid' : 'ask', price: formatScaled(price, pd), qty: formatScaled(qty, qd), updateId, time });
    }
    for (const e of this.balances) {
      this.events.push({ kind: 'balance', accountId: e.accountId, asset: e.asset, free: formatAmount(e.free), locked: formatAmount(e.locked), time });
    }
    return this.events;
  }
}
