/**
 * The engine's state as plain data, for a paper account that survives a restart (issue "Sandbox
 * exchange": `--state file.db`; restore.ts reads it back). Everything the spec 4.5 queries and 4.4
 * depth answer from is here: open orders with their place in the book, the retained closed orders
 * and trades of every account, each symbol's last price and book update id, and where both id
 * sequences stand. Amounts are decimal strings as the snapshots show them (never floats); ids are
 * decimal strings. Balances are not part of it: the caller keeps them, totals included, and
 * restore locks the open orders' funds again.
 *
 * What the dump keeps beyond a snapshot (spec 2.4): whether the client chose its order id (a
 * generated `auto-<id>` is null), whether the order holds funds locked (`locks`; funds-limited
 * orders do not), the order of each book level (time priority, which a stop that triggered late
 * does not share with its id), the order in which an account's orders closed (retention drops the
 * oldest), and the fee rates each trade was made at.
 *
 * For a store that saves often (the sandbox, every couple of seconds), the dump also comes in two
 * halves: `dumpHead` here (ids, books, open orders: small, changes all the time) and the history
 * (dump-history.ts: large, but each record never changes once made).
 */
import type { Trade } from '../accounts/account-book.ts';
import type { Order } from '../book/order.ts';
import { snapshotOf } from '../book/order.ts';
import { formatScaled } from '../numbers/scaled.ts';
import type { SymbolBook } from '../book/symbol-book.ts';
import type { OrderSide, OrderStatus, OrderType, StpFlag, TimeInForce } from '../types.ts';

export const ENGINE_DUMP_VERSION = 1;

export interface EngineDump {
  readonly version: typeof ENGINE_DUMP_VERSION;
  /** The id sequences: the id at position 0 and the next id to issue. */
  readonly orderIds: IdRange;
  readonly tradeIds: IdRange;
  readonly symbols: readonly SymbolDump[];
}

export interface IdRange {
  readonly first: string;
  readonly next: string;
}

export interface SymbolDump {
  readonly symbol: string;
  /** The last trade or print price; null before the first. */
  readonly lastPrice: string | null;
  readonly updateId: number;
  /** Resting order ids, best level first, each level in time priority. */
  readonly bids: readonly string[];
  readonly asks: readonly string[];
  readonly accounts: readonly AccountDump[];
  /** Every trade some account still retains, ascending id. */
  readonly trades: readonly TradeDump[];
}

export interface AccountDump {
  readonly accountId: string;
  /** Open orders, arrival order (stops waiting for their trigger included). */
  readonly open: readonly OrderDump[];
  /** Retained closed orders, in the order they closed. */
  readonly closed: readonly OrderDump[];
  /** Ids of the retained trades of the account, oldest first. */
  readonly trades: readonly string[];
}

export interface OrderDump {
  readonly orderId: string;
  /** The client's own id; null for a generated one. */
  readonly clientOrderId: string | null;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly stpFlag: StpFlag;
  readonly price: string;
  readonly stopPrice: string;
  readonly origQty: string;
  readonly origQuoteOrderQty: string;
  readonly executedQty: string;
  readonly cummulativeQuoteQty: string;
  readonly status: OrderStatus;
  readonly time: number;
  readonly updateTime: number;
  readonly isWorking: boolean;
  /** Holds funds locked while open (what it holds follows from the other fields). */
  readonly locks: boolean;
}

export interface TradeDump {
  readonly id: string;
  readonly price: string;
  readonly qty: string;
  readonly time: number;
  readonly buyerIsMaker: boolean;
  /** The engine's side of the trade; null for the outside side of an external fill. */
  readonly buyer: TradeSide | null;
  readonly seller: TradeSide | null;
  /** The symbol's maker and taker rates when the trade was made (its commissions follow from them). */
  readonly makerFee: string;
  readonly takerFee: string;
}

export interface TradeSide {
  readonly accountId: string;
  readonly orderId: string;
}

/** What `dumpEngine` reads (EngineCore's internals). */
export interface DumpSource {
  readonly books: ReadonlyMap<string, SymbolBook>;
  readonly st: { readonly orderIds: { readonly first: bigint; text(position: number): string }; readonly tradeIds: { readonly first: bigint; text(position: number): string }; readonly seq: number; readonly tradeSeq: number };
}

/** Everything: the head with every account's history in it. */
export function dumpEngine(src: DumpSource): EngineDump {
  return dumpWith(src, true);
}

/**
 * The head alone: ids, books, open orders; every account's closed orders and trades left out
 * (dump-history.ts). Without `openOrders`, open orders are left out too (dump-history.ts `visitOpen`).
 */
export function dumpHead(src: DumpSource, openOrders = true): EngineDump {
  return dumpWith(src, false, openOrders);
}

function dumpWith(src: DumpSource, history: boolean, openOrders = true): EngineDump {
  const st = src.st;
  return {
    version: ENGINE_DUMP_VERSION,
    orderIds: { first: st.orderIds.first.toString(), next: st.orderIds.text(st.seq) },
    tradeIds: { first: st.tradeIds.first.toString(), next: st.tradeIds.text(st.tradeSeq) },
    symbols: [...src.books.values()].map((sb) => dumpSymbol(sb, history, openOrders)),
  };
}

function dumpSymbol(sb: SymbolBook, history: boolean, openOrders: boolean): SymbolDump {
  const accounts: AccountDump[] = [];
  const trades = new Map<number, Trade>();
  for (const acct of sb.accounts.values()) {
    const open = openOrders ? acct.openOrders() : [];
    if (open.length === 0 && (!history || (acct.closed.length === 0 && acct.trades.length === 0))) continue;
    const own = history ? acct.trades.toArray() : [];
    for (const t of own) trades.set(t.seq, t);
    accounts.push({ accountId: acct.accountId, open: open.map(dumpOrder), closed: history ? acct.closed.toArray().map(dumpOrder) : [], trades: own.map((t) => t.id) });
  }
  return {
    symbol: sb.spec.symbol,
    lastPrice: sb.lastPrice < 0 ? null : formatScaled(sb.lastPrice, sb.spec.pd),
    updateId: sb.updateId,
    bids: restingIds(sb, true),
    asks: restingIds(sb, false),
    accounts,
    trades: [...trades.values()].sort((a, b) => a.seq - b.seq).map(dumpTrade),
  };
}

function restingIds(sb: SymbolBook, isBid: boolean): string[] {
  const out: string[] = [];
  for (const lv of sb.side(isBid).walk()) for (let o = lv.head; o !== null; o = o.next) out.push(o.id);
  return out;
}

export function dumpOrder(o: Order): OrderDump {
  const s = snapshotOf(o);
  return {
    orderId: s.orderId,
    clientOrderId: o.explicitCid,
    side: s.side,
    type: s.type,
    timeInForce: s.timeInForce,
    stpFlag: s.stpFlag,
    price: s.price,
    stopPrice: s.stopPrice,
    origQty: s.origQty,
    origQuoteOrderQty: s.origQuoteOrderQty,
    executedQty: s.executedQty,
    cummulativeQuoteQty: s.cummulativeQuoteQty,
    status: s.status,
    time: s.time,
    updateTime: s.updateTime,
    isWorking: s.isWorking,
    locks: o.locks,
  };
}

const side = (o: Order | null): TradeSide | null => (o === null ? null : { accountId: o.acct.accountId, orderId: o.id });

export function dumpTrade(t: Trade): TradeDump {
  return {
    id: t.id,
    price: t.priceText,
    qty: t.qtyText,
    time: t.time,
    buyerIsMaker: t.buyerIsMaker,
    buyer: side(t.buyer),
    seller: side(t.seller),
    makerFee: t.spec.maker.text,
    takerFee: t.spec.taker.text,
  };
}
