/**
 * The history half of an engine dump (dump.ts), for a store that saves often: each account's
 * closed orders and trades, large, but a record never changes once made, so a store writes each
 * once, by its key, and builds it (`historyRecord`) only then. `visitHistory` walks them with
 * numeric keys (a visit of a long history on every save makes no string): position * 4 + kind,
 * kind 0 for a closed order, 1 / 2 for a trade as its buyer / seller keeps it; unique, never
 * reused. `assembleDump` joins a head (dumpHead) and records back into one EngineDump.
 *
 * Open orders can travel the same way (`visitOpen`, key position * 4 + 3, and a head made
 * without them): a store with many resting orders then writes only those that changed since it
 * last stored them, which an `OpenStamp` tells cheaply (the fields an order's record is made from).
 */
import type { Trade } from '../accounts/account-book.ts';
import { dumpOrder, dumpTrade } from './dump.ts';
import type { AccountDump, DumpSource, EngineDump, OrderDump, SymbolDump, TradeDump } from './dump.ts';
import type { Order } from '../book/order.ts';
import { compareIds } from '../accounts/queries.ts';

/** One record of an account's retained history: a closed order, or a trade as the account keeps it. */
export type HistoryRecord =
  | { readonly kind: 'order'; readonly symbol: string; readonly accountId: string; readonly order: OrderDump }
  | { readonly kind: 'open'; readonly symbol: string; readonly accountId: string; readonly order: OrderDump }
  | { readonly kind: 'trade'; readonly symbol: string; readonly accountId: string; readonly trade: TradeDump };

declare const ITEM: unique symbol;
/** A history item as `visitHistory` hands it out: opaque, for `historyRecord`. */
export type HistoryItem = { readonly [ITEM]: true };

const KIND_ORDER = 0;
const KIND_BUYER = 1;
const KIND_SELLER = 2;
const KIND_OPEN = 3;
const MAX_KEY = Number.MAX_SAFE_INTEGER;

/**
 * Visit every account's history, per account and symbol its closed orders in closing order, then
 * its trades oldest first, with each item's key (unique, never reused; see the header).
 */
export function visitHistory(src: DumpSource, visit: (key: number, item: HistoryItem) => void): void {
  for (const sb of src.books.values()) {
    for (const acct of sb.accounts.values()) {
      acct.closed.forEach((o) => visit(keyOf(o.seq, KIND_ORDER), o as unknown as HistoryItem));
      acct.trades.forEach((t) => visit(keyOf(t.seq, t.buyer?.acct === acct ? KIND_BUYER : KIND_SELLER), t as unknown as HistoryItem));
    }
  }
}

/** Visit every open order (stops waiting for their trigger included) with its key (position * 4 + 3). */
export function visitOpen(src: DumpSource, visit: (key: number, item: HistoryItem) => void): void {
  for (const sb of src.books.values()) {
    for (const acct of sb.accounts.values()) for (const o of acct.openOrders()) visit(keyOf(o.seq, KIND_OPEN), o as unknown as HistoryItem);
  }
}

/** Whether a key is an open order's (visitOpen), whose record changes while the order is open. */
export const isOpenKey = (key: number): boolean => key % 4 === KIND_OPEN;

/**
 * The fields an open order's record is made from, as they were when taken: `same` tells whether
 * the order still reads so, without building its record.
 */
export class OpenStamp {
  private bits = 0;
  private executed = 0;
  private origQty = 0;
  private updateTime = 0;
  private cumN = 0;
  private cumBig: bigint | null = null;

  constructor(item: HistoryItem) {
    this.take(item);
  }

  same(item: HistoryItem): boolean {
    const o = item as unknown as Order;
    return o.bits === this.bits && o.executed === this.executed && o.origQty === this.origQty && o.updateTime === this.updateTime && o.cumN === this.cumN && o.cumBig === this.cumBig;
  }

  take(item: HistoryItem): void {
    const o = item as unknown as Order;
    this.bits = o.bits;
    this.executed = o.executed;
    this.origQty = o.origQty;
    this.updateTime = o.updateTime;
    this.cumN = o.cumN;
    this.cumBig = o.cumBig;
  }
}

function keyOf(position: number, kind: number): number {
  const key = position * 4 + kind;
  if (key > MAX_KEY) throw new RangeError(`history key of position ${position} is beyond 2^53`);
  return key;
}

/** The record of a visited item. */
export function historyRecord(key: number, item: HistoryItem): HistoryRecord {
  const kind = key % 4;
  if (kind === KIND_ORDER || kind === KIND_OPEN) {
    const o = item as unknown as Order;
    return { kind: kind === KIND_OPEN ? 'open' : 'order', symbol: o.sb.spec.symbol, accountId: o.acct.accountId, order: dumpOrder(o) };
  }
  const t = item as unknown as Trade;
  const own = (kind === KIND_BUYER ? t.buyer : t.seller) as Order;
  return { kind: 'trade', symbol: t.spec.symbol, accountId: own.acct.accountId, trade: dumpTrade(t) };
}

interface Assembling {
  dump: SymbolDump & { accounts: AccountDump[]; trades: TradeDump[] };
  accounts: Map<string, AccountDump & { open: OrderDump[]; closed: OrderDump[]; trades: string[] }>;
  trades: Map<string, TradeDump>;
}

/**
 * One EngineDump from a head (dumpHead) and history records, each account's in the order historyOf
 * gave them. Records of a symbol or an account the head does not name join it as they come.
 */
export function assembleDump(head: EngineDump, records: Iterable<HistoryRecord>): EngineDump {
  const symbols = new Map<string, Assembling>();
  const symbolOf = (s: SymbolDump): Assembling => {
    const accounts = new Map(s.accounts.map((a) => [a.accountId, { ...a, open: [...a.open], closed: [...a.closed], trades: [...a.trades] }]));
    const entry: Assembling = { dump: { ...s, accounts: [...accounts.values()], trades: [...s.trades] }, accounts, trades: new Map(s.trades.map((t) => [t.id, t])) };
    symbols.set(s.symbol, entry);
    return entry;
  };
  for (const s of head.symbols) symbolOf(s);
  for (const r of records) {
    const sym = symbols.get(r.symbol) ?? symbolOf({ symbol: r.symbol, lastPrice: null, updateId: 0, bids: [], asks: [], accounts: [], trades: [] });
    let acct = sym.accounts.get(r.accountId);
    if (acct === undefined) {
      acct = { accountId: r.accountId, open: [], closed: [], trades: [] };
      sym.accounts.set(r.accountId, acct);
      sym.dump.accounts.push(acct);
    }
    if (r.kind === 'order') {
      acct.closed.push(r.order);
    } else if (r.kind === 'open') {
      // Stored as they changed; restore places open orders in arrival (id) order whatever this order.
      acct.open.push(r.order);
    } else {
      acct.trades.push(r.trade.id);
      if (!sym.trades.has(r.trade.id)) {
        sym.trades.set(r.trade.id, r.trade);
        sym.dump.trades.push(r.trade);
      }
    }
  }
  for (const s of symbols.values()) s.dump.trades.sort((a, b) => compareIds(a.id, b.id));
  return { ...head, symbols: [...symbols.values()].map((s) => s.dump) };
}
