/**
 * Read-only views for the spec 4.5 query endpoints (order, openOrders, historyOrders, myTrades)
 * and 4.4 depth. Snapshots are built on demand; nothing here changes state.
 */
import type { AccountBook, Trade } from './account-book.ts';
import type { BookSide } from '../book/book-side.ts';
import type { Order } from '../book/order.ts';
import { snapshotOf } from '../book/order.ts';
import { formatScaled } from '../numbers/scaled.ts';
import type { SymbolBook } from '../book/symbol-book.ts';
import type { AccountTrade, OrderSnapshot } from '../types.ts';

export interface HistoryQuery {
  /** Orders with id >= this one (else the most recent). */
  readonly orderId?: string | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
  /** Default 500, at most 1000 (spec 4.5). */
  readonly limit?: number | undefined;
}

export interface TradeQuery {
  /** Only this order's trades. */
  readonly orderId?: string | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
  /** Trades with id >= this one (else the most recent). */
  readonly fromId?: string | undefined;
  readonly limit?: number | undefined;
}

export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: [string, string][];
  readonly asks: [string, string][];
}

export interface TopOfBook {
  readonly price: string;
  readonly qty: string;
}

/** Numeric order of decimal id strings (ids exceed 2^53); other ids compare as text. */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const clampLimit = (limit: number | undefined) => Math.min(Math.max(1, Math.floor(limit ?? 500)), 1000);

/** Apply id-from / time window / limit as spec 4.5 describes for history and trades (ascending). */
function page<T>(items: readonly T[], idOf: (t: T) => string, timeOf: (t: T) => number, from: string | undefined, q: { startTime?: number | undefined; endTime?: number | undefined; limit?: number | undefined }): T[] {
  const limit = clampLimit(q.limit);
  const inWindow = items.filter((t) => (from === undefined || compareIds(idOf(t), from) >= 0) && (q.startTime === undefined || timeOf(t) >= q.startTime) && (q.endTime === undefined || timeOf(t) <= q.endTime));
  return from === undefined ? inWindow.slice(-limit) : inWindow.slice(0, limit);
}

export function bySeq(a: Order, b: Order): number {
  return a.seq - b.seq;
}

export function openOrders(books: Iterable<AccountBook>): OrderSnapshot[] {
  const out: Order[] = [];
  for (const acct of books) out.push(...acct.openOrders());
  return out.sort(bySeq).map(snapshotOf);
}

export function allOrders(books: Iterable<AccountBook>): OrderSnapshot[] {
  const out: Order[] = [];
  for (const acct of books) out.push(...acct.openOrders(), ...acct.closed);
  return out.sort(bySeq).map(snapshotOf);
}

/** Closed orders (filled, canceled, expired), spec 4.5 historyOrders. */
export function historyOrders(acct: AccountBook | undefined, q: HistoryQuery = {}): OrderSnapshot[] {
  if (acct === undefined) return [];
  const closed = [...acct.closed].sort(bySeq);
  return page(closed, (o) => o.id, (o) => o.time, q.orderId, q).map(snapshotOf);
}

export function accountTrade(t: Trade, accountId: string): AccountTrade {
  const isBuyer = t.buyer !== null && t.buyer.acct.accountId === accountId;
  const own = (isBuyer ? t.buyer : t.seller) as Order;
  const spec = own.sb.spec;
  return {
    symbol: spec.symbol,
    id: t.id,
    orderId: own.id,
    price: t.priceText,
    qty: t.qtyText,
    quoteQty: t.quoteText,
    commission: isBuyer ? t.buyerFeeText : t.sellerFeeText,
    commissionAsset: isBuyer ? spec.baseAsset : spec.quoteAsset,
    time: t.time,
    isBuyer,
    isMaker: isBuyer === t.buyerIsMaker,
    isBestMatch: true,
  };
}

/** spec 4.5 myTrades. */
export function myTrades(acct: AccountBook | undefined, q: TradeQuery = {}): AccountTrade[] {
  if (acct === undefined) return [];
  const me = acct.accountId;
  const all = acct.trades.toArray();
  const mine = q.orderId === undefined ? all : all.filter((t) => (t.buyer?.acct.accountId === me ? t.buyer.id : t.seller?.id) === q.orderId);
  return page(mine, (t) => t.id, (t) => t.time, q.fromId, q).map((t) => accountTrade(t, me));
}

function levels(side: BookSide, sb: SymbolBook, limit: number): [string, string][] {
  const out: [string, string][] = [];
  for (const lv of side.walk(limit)) out.push([formatScaled(lv.price, sb.spec.pd), formatScaled(lv.qty, sb.spec.qd)]);
  return out;
}

/** Aggregated levels: bids descending, asks ascending. */
export function depth(sb: SymbolBook, limit = 100): DepthSnapshot {
  return { lastUpdateId: sb.updateId, bids: levels(sb.bids, sb, limit), asks: levels(sb.asks, sb, limit) };
}

export function top(sb: SymbolBook, isBid: boolean): TopOfBook | undefined {
  const lv = sb.side(isBid).best();
  return lv === undefined ? undefined : { price: formatScaled(lv.price, sb.spec.pd), qty: formatScaled(lv.qty, sb.spec.qd) };
}
