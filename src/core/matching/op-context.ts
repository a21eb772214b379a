/**
 * The scratch state of one engine operation (place, cancel, print...): the events in the order
 * they happened, the balance entries and depth levels it touched (reported once each, with their
 * final values, when the operation ends), stop orders triggered and waiting to run, and the
 * taker trades of the placed order (its fills, built when the caller reads them). With events off only the book update counter moves.
 * With an account stream (account-stream.ts) no EngineEvent is built: the account's execution
 * reports and balances go to the stream instead.
 */
import type { BalanceEntry } from '../portfolio/balances.ts';
import type { Trade } from './accounts/account-book.ts';
import type { AccountStream } from './accounts/account-stream.ts';
import type { Order } from './book/order.ts';
import type { SymbolBook } from './book/symbol-book.ts';
import type { EngineEvent } from './types.ts';

/** Handed out when an operation has no events or no fills: one shared, frozen empty array. */
const NONE: never[] = Object.freeze([]) as unknown as never[];

export class OpContext {
  /** Fresh per operation (NONE until the first event): handed to the caller. */
  events: EngineEvent[] = NONE;
  /** Stops whose trigger fired, to run after the current taker finishes. */
  readonly pending: Order[] = [];
  /** The placed order, whose taker trades go to `takerTrades`. */
  fillsOf: Order | null = null;
  /**
   * The placed order's taker trades, handed to the caller, who builds its fills from them when
   * read: null before the first, the trade itself while there is one (most orders fill against
   * one maker: no array for them), then a fresh array.
   */
  takerTrades: Trade | Trade[] | null = null;
  /** External price (price int) that triggered orders may fill at; -1 for none. */
  ext = -1;
  /**
   * Where triggered stop-market orders (STOP_LOSS, TAKE_PROFIT) take outside liquidity instead of
   * `ext`, by side (a backtest's slippage, rounded against them); -1: at `ext`. The last price
   * stays `ext`.
   */
  stopBuy = -1;
  stopSell = -1;
  time = 0;
  /** Touched balance entries: the first `nBalances` (the list is reused, never shrunk). */
  private readonly balances: BalanceEntry[] = [];
  private nBalances = 0;
  /** Touched levels as parallel lists (no object per touch), the first `nLevels`. */
  private readonly levelBooks: SymbolBook[] = [];
  private readonly levelSides: boolean[] = [];
  private readonly levelPrices: number[] = [];
  private nLevels = 0;

  /** Touched balance entries are tracked: for balance events, or for the stream. */
  private readonly tracks: boolean;

  /** `record`: build EngineEvents; `stream`: the account stream fed instead (the engine never sets both). */
  constructor(
    readonly record: boolean,
    readonly stream: AccountStream | null = null,
  ) {
    this.tracks = record || stream !== null;
  }

  /**
   * Start an operation. The engine reuses one context (fewer allocations on the hot path); the
   * arrays handed out (events, fills) are new each time they get something, the scratch lists
   * are reused (emptying an array by its length frees its storage: the next push allocates).
   */
  reset(time: number): this {
    this.time = time;
    this.events = NONE;
    this.takerTrades = null;
    this.fillsOf = null;
    this.ext = -1;
    this.stopBuy = -1;
    this.stopSell = -1;
    if (this.pending.length !== 0) this.pending.length = 0;
    this.nBalances = 0;
    this.nLevels = 0;
    return this;
  }

  push(e: EngineEvent): void {
    if (this.events === NONE) this.events = [e];
    else this.events.push(e);
  }

  addTakerTrade(t: Trade): void {
    const had = this.takerTrades;
    if (had === null) this.takerTrades = t;
    else if (Array.isArray(had)) had.push(t);
    else this.takerTrades = [had, t];
  }

  touch(e: BalanceEntry): void {
    if (!this.tracks) return;
    const list = this.balances;
    const n = this.nBalances;
    for (let i = 0; i < n; i++) if (list[i] === e) return;
    list[n] = e;
    this.nBalances = n + 1;
  }

  /** Always tracked (the update id counts changed levels whether or not events are built). */
  touchLevel(sb: SymbolBook, isBid: boolean, price: number): void {
    const books = this.levelBooks;
    const sides = this.levelSides;
    const prices = this.levelPrices;
    const n = this.nLevels;
    for (let i = 0; i < n; i++) if (prices[i] === price && sides[i] === isBid && books[i] === sb) return;
    books[n] = sb;
    sides[n] = isBid;
    prices[n] = price;
    this.nLevels = n + 1;
  }

  /** Count the changed levels and append the depth and balance events; returns every event of the operation. */
  finish(): EngineEvent[] {
    const time = this.time;
    const n = this.nLevels;
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
      this.push({ kind: 'book', symbol: sb.spec.symbol, side: isBid ? 'bid' : 'ask', price: sb.priceTexts.get(price), qty: sb.qtyTexts.get(qty), updateId, time });
    }
    const stream = this.stream;
    for (let i = 0; i < this.nBalances; i++) {
      const e = this.balances[i] as BalanceEntry;
      if (stream !== null) {
        if (e.accountId === stream.accountId) stream.balance(e, time);
      } else this.push({ kind: 'balance', accountId: e.accountId, asset: e.asset, free: e.f.format(), locked: e.l.format(), time });
    }
    return this.events;
  }
}
