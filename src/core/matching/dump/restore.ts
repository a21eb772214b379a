/**
 * An engine dump (dump.ts) back into a fresh engine, so the spec 4.5 queries, 4.4 depth and new
 * orders behave as if the engine had never stopped:
 *
 * - Ids: the engine takes the dump's id sequences (`first` and `next`), so every restored id
 *   resolves (`order`, clientOrderId chains, myTrades by orderId) and new ids continue above the
 *   restored ones. Hence only an engine that has issued no order or trade can be restored into.
 * - Open orders go back on their book level in the dumped time priority, stops to the stop book
 *   untriggered, with their executed quantity, cumulative quote, status and times. Each locks what
 *   it holds again through the engine's own lock move, from the balances the caller restored as
 *   totals (free + locked at dump time), so free + locked is what was saved. An open order whose
 *   funds are not there (the dump and the balances disagree) is closed CANCELED at `now` and
 *   reported; one that does not fit its symbol's current rules (scales changed) is left out and
 *   reported, and so is everything of a symbol the engine no longer lists.
 * - Closed orders and trades return to each account's history in their dumped order; trades keep
 *   their commissions (the fee rates they were made at) and name orders no longer retained
 *   through stand-ins. Last price and book update id per symbol are set as dumped.
 *
 * Nothing is emitted: no events, no listener call. The dump's shape is trusted (the sandbox checks
 * it with a schema); what it contradicts (unknown ids, duplicates, positions beyond `next`)
 * throws RangeError.
 */
import { formatAmount } from '../../portfolio/amount.ts';
import type { AccountBook } from '../accounts/account-book.ts';
import { AUTO_ID_PREFIX, Trade } from '../accounts/account-book.ts';
import { covers, heldIsZero, heldScale, moveHeld } from '../numbers/amounts.ts';
import type { Held } from '../numbers/amounts.ts';
import { ENGINE_DUMP_VERSION } from './dump.ts';
import type { EngineDump, OrderDump, SymbolDump, TradeSide } from './dump.ts';
import type { EngineCore } from '../engine-core.ts';
import { latestByClientId } from '../lifecycle.ts';
import { held } from '../book/order.ts';
import type { Order } from '../book/order.ts';
import { ghostOrder, restoreOrder } from './restore-order.ts';
import { formatScaled, parseScaled } from '../numbers/scaled.ts';
import type { SymbolBook } from '../book/symbol-book.ts';
import { buildSymbolSpec } from '../numbers/symbol-spec.ts';
import type { SymbolSpec } from '../numbers/symbol-spec.ts';

export interface RestoreReport {
  /** Orders restored (open and closed) and how many of them are open. */
  readonly orders: number;
  readonly openOrders: number;
  readonly trades: number;
  /** What could not be restored as dumped, with the reason. */
  readonly dropped: readonly DroppedRecord[];
}

export interface DroppedRecord {
  readonly kind: 'order' | 'trade' | 'symbol';
  readonly symbol: string;
  /** The order or trade id ('' for a symbol). */
  readonly id: string;
  readonly accountId: string | null;
  /** `canceled`: the order is kept, closed CANCELED; `omitted`: it is not restored at all. */
  readonly outcome: 'canceled' | 'omitted';
  readonly reason: string;
}

interface Pending {
  readonly o: Order;
  readonly acct: AccountBook;
  readonly open: boolean;
}

export function restoreEngine(engine: EngineCore, dump: EngineDump, now: number): RestoreReport {
  const st = engine.st;
  if (dump.version !== ENGINE_DUMP_VERSION) throw new RangeError(`engine dump version ${String(dump.version)} is not ${ENGINE_DUMP_VERSION}`);
  if (st.seq !== 0 || st.tradeSeq !== 0 || st.ordersById.size !== 0) throw new RangeError('restore needs an engine that has issued no order or trade');
  st.orderIds.rebase(canonical(dump.orderIds.first, 'orderIds.first'));
  st.tradeIds.rebase(canonical(dump.tradeIds.first, 'tradeIds.first'));
  const nextOrder = positionOf(st.orderIds, dump.orderIds.next, Number.MAX_SAFE_INTEGER, 'orderIds.next');
  const nextTrade = positionOf(st.tradeIds, dump.tradeIds.next, Number.MAX_SAFE_INTEGER, 'tradeIds.next');
  const dropped: DroppedRecord[] = [];
  const pending: Pending[] = [];
  const seen = new Set<number>();
  const restored: { sb: SymbolBook; d: SymbolDump; byPos: Map<number, Order>; closed: Map<AccountBook, Order[]> }[] = [];

  for (const d of dump.symbols) {
    const sb = engine.books.get(d.symbol);
    if (sb === undefined) {
      dropped.push({ kind: 'symbol', symbol: d.symbol, id: '', accountId: null, outcome: 'omitted', reason: 'the engine does not list the symbol' });
      for (const a of d.accounts) for (const od of a.open) dropped.push(drop('omitted', d.symbol, a.accountId, od, 'the engine does not list the symbol'));
      continue;
    }
    const byPos = new Map<number, Order>();
    const closed = new Map<AccountBook, Order[]>();
    for (const a of d.accounts) {
      const acct = engine.accounts.get(a.accountId, sb);
      const history: Order[] = [];
      closed.set(acct, history);
      for (const [list, open] of [[a.open, true], [a.closed, false]] as const) {
        for (const od of list) {
          const pos = positionOf(st.orderIds, od.orderId, nextOrder, 'orderId');
          if (seen.has(pos)) throw new RangeError(`order ${od.orderId} appears twice in the dump`);
          seen.add(pos);
          const o = restoreOrder(acct, pos, od, open);
          if (typeof o === 'string') {
            dropped.push(drop('omitted', d.symbol, a.accountId, od, o));
            continue;
          }
          byPos.set(pos, o);
          pending.push({ o, acct, open });
          if (!open) history.push(o);
        }
      }
    }
    restored.push({ sb, d, byPos, closed });
  }

  // The id index takes orders in increasing position across all symbols.
  pending.sort((a, b) => a.o.seq - b.o.seq);
  let openCount = 0;
  const canceled = new Map<AccountBook, Order[]>();
  for (const { o, acct, open } of pending) {
    // The client id chain as placement builds it, from the orders before this one.
    if (o.explicitCid !== null) {
      o.prevSameClientId = latestByClientId(st, acct, o.explicitCid) ?? null;
      acct.byClientId.set(o.explicitCid, o);
      if (o.explicitCid.startsWith(AUTO_ID_PREFIX)) acct.autoLikeIds++;
    }
    st.ordersById.set(o);
    if (!open) continue;
    const short = lockAgain(o);
    if (short === undefined) {
      acct.addOpen(o);
      openCount++;
      continue;
    }
    o.status = 'CANCELED';
    o.updateTime = now;
    const list = canceled.get(acct) ?? [];
    list.push(o);
    canceled.set(acct, list);
    dropped.push({ kind: 'order', symbol: o.sb.spec.symbol, id: o.id, accountId: acct.accountId, outcome: 'canceled', reason: short });
  }

  let tradeCount = 0;
  const seenTrades = new Set<number>();
  for (const { sb, d, byPos, closed } of restored) {
    for (const [acct, history] of closed) {
      for (const o of history) acct.closed.push(o);
      for (const o of canceled.get(acct) ?? []) acct.closed.push(o);
    }
    placeOnBook(sb, d, byPos);
    const trades = restoreTrades(engine, sb, d, byPos, { order: nextOrder, trade: nextTrade }, seenTrades, dropped);
    for (const a of d.accounts) {
      const acct = engine.accounts.get(a.accountId, sb);
      for (const id of a.trades) {
        const t = trades.get(positionOf(st.tradeIds, id, nextTrade, 'trade id'));
        if (t !== undefined && (t.buyer?.acct === acct || t.seller?.acct === acct)) acct.trades.push(t);
      }
    }
    tradeCount += trades.size;
    const last = d.lastPrice === null ? -1 : parseScaled(d.lastPrice, sb.spec.pd);
    sb.lastPrice = last < 0 ? -1 : last;
    sb.updateId = d.updateId;
  }
  st.seq = nextOrder;
  st.tradeSeq = nextTrade;
  return { orders: pending.length, openOrders: openCount, trades: tradeCount, dropped };
}

/** Lock what the open order holds, as placement does; the reason when free funds fall short. */
function lockAgain(o: Order): string | undefined {
  const h: Held = held(o);
  if (heldIsZero(h)) return undefined;
  const spec = o.sb.spec;
  const e = o.isBuy ? o.acct.quote : o.acct.base;
  const scale = heldScale(spec, o.isBuy);
  if (!covers(e, h, scale)) {
    const need = typeof h === 'number' ? formatScaled(h, scale) : formatAmount(h);
    return `it holds ${need} ${e.asset} but the account has ${formatAmount(e.free)} free`;
  }
  moveHeld(e, h, scale, 1);
  return undefined;
}

/** Working orders on their levels in the dumped priority; any the lists miss after them, by id; stops to the stop book. */
function placeOnBook(sb: SymbolBook, d: SymbolDump, byPos: ReadonlyMap<number, Order>): void {
  const ids = sb.orderIds;
  for (const [list, isBid] of [[d.bids, true], [d.asks, false]] as const) {
    for (const id of list) {
      const o = byPos.get(ids.position(id));
      if (o !== undefined && o.listed && o.working && o.isBuy === isBid && o.level === null) sb.side(isBid).add(o);
    }
  }
  const rest = [...byPos.values()].filter((o) => o.listed).sort((a, b) => a.seq - b.seq);
  for (const o of rest) {
    if (!o.working) sb.stops.add(o);
    else if (o.level === null) sb.side(o.isBuy).add(o);
  }
}

/** The symbol's trades by position; `next`: where the id sequences stand (every id lies below). */
function restoreTrades(engine: EngineCore, sb: SymbolBook, d: SymbolDump, byPos: ReadonlyMap<number, Order>, next: { order: number; trade: number }, seen: Set<number>, dropped: DroppedRecord[]): Map<number, Trade> {
  const st = engine.st;
  const out = new Map<number, Trade>();
  const specs = new Map<string, SymbolSpec>();
  const ghosts = new Map<number, Order>();
  const specAt = (maker: string, taker: string): SymbolSpec => {
    const cur = sb.spec;
    if (cur.maker.text === maker && cur.taker.text === taker) return cur;
    const key = `${maker}/${taker}`;
    let spec = specs.get(key);
    if (spec === undefined) specs.set(key, (spec = buildSymbolSpec(cur.instrument, { maker, taker })));
    return spec;
  };
  const sideOrder = (s: TradeSide | null, isBuy: boolean, price: number, qty: number, time: number): Order | null | string => {
    if (s === null) return null;
    const pos = positionOf(st.orderIds, s.orderId, next.order, 'trade orderId');
    const o = byPos.get(pos) ?? ghosts.get(pos);
    if (o !== undefined) return o.acct.accountId === s.accountId && o.isBuy === isBuy ? o : `order ${s.orderId} is not ${s.accountId}'s ${isBuy ? 'BUY' : 'SELL'}`;
    const ghost = ghostOrder(engine.accounts.get(s.accountId, sb), pos, isBuy, price, qty, time);
    ghosts.set(pos, ghost);
    return ghost;
  };
  const spec = sb.spec;
  for (const t of d.trades) {
    const pos = positionOf(st.tradeIds, t.id, next.trade, 'trade id');
    if (seen.has(pos)) throw new RangeError(`trade ${t.id} appears twice in the dump`);
    seen.add(pos);
    const price = parseScaled(t.price, spec.pd);
    const qty = parseScaled(t.qty, spec.qd);
    const fail = (reason: string) => dropped.push({ kind: 'trade', symbol: spec.symbol, id: t.id, accountId: t.buyer?.accountId ?? t.seller?.accountId ?? null, outcome: 'omitted', reason });
    if (price < 0 || qty < 0) {
      fail(`price ${t.price} or qty ${t.qty} does not fit the symbol's scale`);
      continue;
    }
    let fees: SymbolSpec;
    try {
      fees = specAt(t.makerFee, t.takerFee);
    } catch {
      fail(`fee rates ${t.makerFee} / ${t.takerFee} are not usable`);
      continue;
    }
    const buyer = sideOrder(t.buyer, true, price, qty, t.time);
    const seller = sideOrder(t.seller, false, price, qty, t.time);
    if (typeof buyer === 'string' || typeof seller === 'string') {
      fail(typeof buyer === 'string' ? buyer : (seller as string));
      continue;
    }
    out.set(pos, new Trade(sb, fees, pos, price, qty, t.time, buyer, seller, t.buyerIsMaker));
  }
  return out;
}

function drop(outcome: DroppedRecord['outcome'], symbol: string, accountId: string, od: OrderDump, reason: string): DroppedRecord {
  return { kind: 'order', symbol, id: od.orderId, accountId, outcome, reason };
}

function canonical(text: string, what: string): bigint {
  if (!/^(0|[1-9][0-9]{0,29})$/.test(text)) throw new RangeError(`${what} ${JSON.stringify(text)} is not an id`);
  return BigInt(text);
}

/** The position of `id` in `ids`, which must lie below `limit`. */
function positionOf(ids: { position(id: string): number }, id: string, limit: number, what: string): number {
  const pos = ids.position(id);
  if (pos < 0 || pos >= limit) throw new RangeError(`${what} ${JSON.stringify(id)} is not in the dumped id sequence`);
  return pos;
}
