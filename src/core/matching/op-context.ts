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
  /** Touched levels as parallel lists (no object per touch). */
  private readonly levelBooks: SymbolBook[] = [];
  private readonly levelSides: boolean[] = [];
  private readonly levelPrices: number[] = [];

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
    // Setting length is a runtime call even on an empty array: only when there is something to drop.
    if (this.pending.length !== 0) this.pending.length = 0;
    if (this.balances.length !== 0) this.balances.length = 0;
    if (this.levelPrices.length !== 0) this.levelBooks.length = this.levelSides.length = this.levelPrices.length = 0;
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
    const books = this.levelBooks;
    const sides = this.levelSides;
    const prices = this.levelPrices;
    for (let i = 0; i < prices.length; i++) if (prices[i] === price && sides[i] === isBid && books[i] === sb) return;
    books.push(sb);
    sides.push(isBid);
    prices.push(price);
  }

  /** Count the changed levels and append the depth and balance events; returns every event of the operation. */
  finish(): EngineEvent[] {
    const time = this.time;
    const n = this.levelPrices.length;
    for (let i = 0; i < n; i++) {
      const sb = this.levelBooks[i] as SymbolBook;
      if (!this.record) {
        sb.updateId++;
        continue;
      }
      const isBid = this.levelSides[i] as boolean;
      const price = this.levelPrices[i] as number;
      const qty = sb.side(isBid).level(price)?.qty ?? 0;
      const updateId = ++sb.updateId;
      this.events.push({ kind: 'book', symbol: sb.spec.symbol, side: isBid ? 'bid' : 'ask', price: sb.priceTexts.get(price), qty: formatScaled(qty, sb.spec.qd), updateId, time });
    }
    for (const e of this.balances) {
      this.events.push({ kind: 'balance', accountId: e.accountId, asset: e.asset, free: formatAmount(e.free), locked: formatAmount(e.locked), time });
    }
    return this.events;
  }
}
