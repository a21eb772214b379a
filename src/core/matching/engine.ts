/**
 * SpotEngine: the pure spot matching engine shared by the sandbox exchange and the backtester
 * (spec 4.5 new order / cancel / queries, 4.4 depth, notes 6 cancelReplace, 3.1 statuses,
 * 7.4 / 7.5 rejections). The core (engine-core.ts) places and cancels; this adds cancelReplace,
 * external prints and the queries.
 *
 * Model and assumptions (as NautilusTrader's matching core states its own):
 * - Price-time priority; every fill at the resting (maker) order's price. One book per symbol,
 *   shared by all accounts; self-trades are always prevented by the taker's stpFlag (CB default).
 * - Exact: prices and quantities are safe integers on the symbol's decimal scale, amounts bigint
 *   units of 1e-18 (symbol-spec.ts, core/portfolio/amount.ts). No float touches money.
 * - Funds (settle.ts): a BUY LIMIT locks price * qty quote, a SELL locks its base quantity; the
 *   buyer pays commission in the base it receives, the seller in the quote it receives, so fees
 *   never need extra funds. Commissions go to the fee account, so balances are conserved.
 * - Stops (stops.ts) trigger on every trade of the symbol (a print counts) and run after the
 *   order that traded finishes, in trigger order; their own trades may trigger more (cascade).
 *   Stops lock at placement what the order they become will need (nothing for MARKET BUY by
 *   quantity and MARKET SELL by quote, which are funds-limited when they run).
 * - External liquidity, one code path for backtest and replay: `placeOrder(.., {externalPrice})`
 *   fills what the book cannot, taker at that price, unlimited at it: the taker walks the book only
 *   where it is strictly better than that price (a tie goes to the outside liquidity), so it never
 *   reaches, nor meets self-trade prevention with, an order at or beyond it (matcher.ts);
 *   `applyPrint` fills resting orders reached by an outside trade, maker at their own limit price:
 *   'through' needs the print strictly beyond the limit, 'touch' also fills at the limit. No queue
 *   position model: a print that reaches a level fills the engine's orders there in time priority,
 *   capped by maxQty. Stops triggered within such an operation may fill at its external price too,
 *   or stop-market orders at the operation's `stopPrices` for their side (the last price stays the
 *   external price). Sizes are unlimited unless `capExternal` caps what outside liquidity gives on
 *   a symbol (all those fills together, until set again; a GTC LIMIT it stops short rests, anything
 *   else expires the rest). Slippage is the caller's model: the backtester passes "next bar open +
 *   slippage" as a MARKET order's external price and the slipped prints as `stopPrices`. The
 *   sandbox uses none of this.
 * - Events: a self-trade-prevention cancel is an order update with executionType CANCELED and
 *   cause 'STP' (notes 4.1 has no STP event); a stop's trigger is a NEW update, cause 'TRIGGER'.
 *   Balance events cover the trading accounts an operation touched, not the fee account (the
 *   venue's own: nobody streams it, Balances has its figures).
 * - All methods take `now` and return data; venue rejections are results, never exceptions.
 *   Programming errors throw RangeError: an unknown symbol in applyPrint or the book queries, a
 *   malformed external price, an instrument whose price + quantity decimals exceed 18.
 * - Persistence: `exportState` gives the whole order state as plain data (dump.ts: open orders in
 *   book priority, retained history, last prices, id sequences; amounts as decimal strings), or
 *   in two halves for frequent saves (`exportHead`, and `visitHistory` whose records never change
 *   once made); `restoreState` puts it back into a fresh engine whose balances hold the saved totals,
 *   locking the open orders' funds again (restore.ts). None of it touches the placement path.
 */
import { cancelReplace } from './cancel-replace.ts';
import type { CancelReplaceRequest, CancelReplaceResult } from './cancel-replace.ts';
import { EngineCore } from './engine-core.ts';
import type { SpotEngineOptions } from './engine-core.ts';
import { dumpEngine, dumpHead } from './dump/dump.ts';
import type { EngineDump } from './dump/dump.ts';
import { historyRecord, visitHistory, visitOpen } from './dump/dump-history.ts';
import type { IdReserver } from './book/id-sequence.ts';
import type { HistoryItem, HistoryRecord } from './dump/dump-history.ts';
import { applyPrint, externalPriceInt, externalQtyInt } from './external.ts';
import type { Print, PrintResult } from './external.ts';
import { snapshotOf } from './book/order.ts';
import { accountTrade, allOrders, depth, historyOrders, myTrades, openOrders, top } from './accounts/queries.ts';
import type { DepthSnapshot, HistoryQuery, TopOfBook, TradeQuery } from './accounts/queries.ts';
import { restoreEngine } from './dump/restore.ts';
import type { RestoreReport } from './dump/restore.ts';
import { formatScaled } from './numbers/scaled.ts';
import type { SymbolBook } from './book/symbol-book.ts';
import type { AccountTrade, OrderRef, OrderSnapshot } from './types.ts';

export type { SpotEngineOptions };

export class SpotEngine extends EngineCore {
  constructor(opts: SpotEngineOptions) {
    super(opts);
  }

  cancelReplace(accountId: string, req: CancelReplaceRequest, now: number): CancelReplaceResult {
    return cancelReplace(this, accountId, req, now);
  }

  /** An outside trade (backtest bar, replayed print): fills resting orders it reaches, sets the last price, triggers stops. */
  applyPrint(symbol: string, print: Print): PrintResult {
    return applyPrint(this, symbol, print);
  }

  /**
   * Cap the quantity outside liquidity gives on `symbol` from now on, all external fills together
   * (placeOrder's externalPrice, applyPrint's resting orders and the stops triggered within),
   * until the next call; undefined lifts the cap (the default). Not part of the saved state.
   */
  capExternal(symbol: string, maxQty: string | undefined): void {
    const sb = this.book(symbol);
    sb.extLeft = maxQty === undefined ? Infinity : externalQtyInt(sb.spec, maxQty, 'external cap');
  }

  /** Untriggered stop orders of the symbol (every account). */
  waitingStops(symbol: string): number {
    return this.book(symbol).stops.size;
  }

  /**
   * The stop price of the first stop a price moving continuously from `from` to `to` triggers
   * strictly between them (a backtest prints it there before `to`); undefined when none.
   */
  stopBetween(symbol: string, from: string, to: string): string | undefined {
    const sb = this.book(symbol);
    if (sb.stops.size === 0) return undefined;
    const a = externalPriceInt(sb.spec, from, 'nearest');
    const b = externalPriceInt(sb.spec, to, 'nearest');
    if (a === b) return undefined;
    const s = sb.stops.nextBeyond(b > a, a);
    return s > 0 && (b > a ? s < b : s > b) ? sb.priceTexts.get(s) : undefined;
  }

  /** By orderId: that order. By clientOrderId: every retained order that used it, newest first. Empty when none. */
  order(accountId: string, symbol: string, ref: OrderRef): OrderSnapshot[] {
    const sb = this.books.get(symbol);
    return sb === undefined ? [] : this.find(accountId, sb, ref).map(snapshotOf);
  }

  /** Open orders (untriggered stops included, isWorking false), arrival order; all symbols without `symbol`. */
  openOrders(accountId: string, symbol?: string): OrderSnapshot[] {
    return openOrders(this.accounts.list(accountId, symbol));
  }

  /** Every retained order, open or closed, arrival order. */
  allOrders(accountId: string, symbol?: string): OrderSnapshot[] {
    return allOrders(this.accounts.list(accountId, symbol));
  }

  /** Closed orders per spec 4.5 historyOrders (orderId from, time window, limit default 500, max 1000). */
  historyOrders(accountId: string, symbol: string, q?: HistoryQuery): OrderSnapshot[] {
    return historyOrders(this.accounts.peek(accountId, symbol), q);
  }

  /** Account trades per spec 4.5 myTrades / 2.5. */
  myTrades(accountId: string, symbol: string, q?: TradeQuery): AccountTrade[] {
    return myTrades(this.accounts.peek(accountId, symbol), q);
  }

  /** Every retained trade of the account on every symbol, oldest first (journal, reconciliation). */
  allTrades(accountId: string): AccountTrade[] {
    const out: AccountTrade[] = [];
    for (const acct of this.accounts.list(accountId)) for (const t of acct.trades) out.push(accountTrade(t, accountId));
    return out.sort((a, b) => a.time - b.time);
  }

  depth(symbol: string, limit = 100): DepthSnapshot {
    return depth(this.book(symbol), limit);
  }

  bestBid(symbol: string): TopOfBook | undefined {
    return top(this.book(symbol), true);
  }

  bestAsk(symbol: string): TopOfBook | undefined {
    return top(this.book(symbol), false);
  }

  /** Price of the symbol's last trade or print; undefined before the first. */
  lastPrice(symbol: string): string | undefined {
    const sb = this.book(symbol);
    return sb.lastPrice < 0 ? undefined : formatScaled(sb.lastPrice, sb.spec.pd);
  }

  /** The depth update id (notes 4 U/u, depth lastUpdateId): +1 per changed level. */
  bookUpdateId(symbol: string): number {
    return this.book(symbol).updateId;
  }

  /** Open order counts as the MAX_NUM_ORDERS / MAX_NUM_ALGO_ORDERS filters see them. */
  openCounts(accountId: string, symbol: string): { orders: number; algoOrders: number } {
    const acct = this.accounts.peek(accountId, symbol);
    return { orders: acct?.openWorking ?? 0, algoOrders: acct?.openAlgo ?? 0 };
  }

  /** The engine's order state as plain, JSON-safe data (dump.ts); balances are the caller's. */
  exportState(): EngineDump {
    return dumpEngine(this);
  }

  /**
   * exportState without the accounts' closed orders and trades (those come from `visitHistory`;
   * assembleDump joins them); with `openOrders: false` without open orders too (`visitOpen`).
   */
  exportHead(options?: { openOrders?: boolean }): EngineDump {
    return dumpHead(this, options?.openOrders ?? true);
  }

  /** Every open order by numeric key (dump-history.ts); `historyRecord` builds its record, an OpenStamp tells whether it changed. */
  visitOpen(visit: (key: number, item: HistoryItem) => void): void {
    visitOpen(this, visit);
  }

  /** Every account's retained closed orders and trades, by numeric key (dump.ts); `historyRecord` builds one. */
  visitHistory(visit: (key: number, item: HistoryItem) => void): void {
    visitHistory(this, visit);
  }

  historyRecord(key: number, item: HistoryItem): HistoryRecord {
    return historyRecord(key, item);
  }

  /**
   * Restore a dump into this engine, which must not have issued any order or trade yet; its
   * balances must hold the dumped accounts' totals (free), from which open orders lock again.
   * Orders that cannot be restored as dumped are in the report (restore.ts).
   */
  restoreState(dump: EngineDump, now: number): RestoreReport {
    return restoreEngine(this, dump, now);
  }

  /**
   * Issue no order (or trade) id below `from` from now on: an owner that persists the ids it
   * reserved (id-sequence.ts) gives its last mark after a restart, since ids up to it may have
   * been handed out and then lost with unsaved state. Positions skipped stay unused. Call it
   * after `restoreState`, which needs an engine that has issued nothing.
   */
  continueIds(kind: 'order' | 'trade', from: bigint): void {
    const st = this.st;
    const ids = kind === 'order' ? st.orderIds : st.tradeIds;
    const p = ids.position(from.toString());
    if (p < 0) return;
    if (kind === 'order') st.seq = Math.max(st.seq, p);
    else st.tradeSeq = Math.max(st.tradeSeq, p);
  }

  /** Have `reserve` called before an order (or trade) id not reserved yet is issued (id-sequence.ts `reserveWith`). */
  reserveIds(kind: 'order' | 'trade', reserve: IdReserver, lowWater?: number): void {
    (kind === 'order' ? this.st.orderIds : this.st.tradeIds).reserveWith(reserve, lowWater);
  }

  symbols(): string[] {
    return [...this.books.keys()];
  }

  private book(symbol: string): SymbolBook {
    const sb = this.books.get(symbol);
    if (sb === undefined) throw new RangeError(`unknown symbol ${symbol}`);
    return sb;
  }
}
