/**
 * After a gap in the user stream (reconnect, new listen key, STALE: issue 20 deliverable 5),
 * which REST calls bring back exactly what was missed. Pure: given the ledger's snapshot, the
 * symbols traded and the answers so far, the queries still to make; none when the answers are
 * complete (then eventsFromResync). Called in a loop:
 *
 *   let answers = []; for (let q = planResync(s, syms); q.length; q = planResync(s, syms, answers)) answers.push(...(await run(q)));
 *
 * Phase 1: open orders (per symbol, or one call for all), account information, and for every
 * symbol with a trade seen, myTrades from the highest trade id seen + 1 (spec 4.5: fromId is
 * inclusive), `pageLimit` rows a page (max 1000); a full page is followed by the next from its
 * last id + 1, until a page comes back short. A symbol with no trade seen gets no fromId query:
 * without one the venue answers its most recent trades, not the missed ones; its orders' trades
 * come from the per-order queries of phase 3.
 * Phase 2 (once open orders are in): a queryOrder for each order the ledger holds open (sent,
 * unknown, NEW, PARTIALLY_FILLED) that the venue does not list as open: it ended, or never
 * existed. By client order id for an unknown outcome (the venue may have it under an id we never
 * learnt), else by order id when known.
 * Phase 3 (once everything above is in): myTrades of one order (orderId, from id 0, paged) for
 * each held order the venue (or an answer without trades, such as a RESULT that said FILLED) says
 * executed more than the trades the ledger and the answers hold add up to: trades that fromId
 * could not reach (its lower ids came after a higher one was seen: a REST answer ahead of the
 * stream) or that a symbol without a trade seen never asked.
 */
import { D } from '../../core/money/decimal.ts';
import type { Order } from '../../exchange/codecs/order.ts';
import { isFinalStatus } from '../events/venue-status.ts';
import { nextId } from '../events/ids.ts';
import type { LedgerOrder, LedgerSnapshot } from '../events/seen-ledger.ts';
import { MAX_TRADES_PAGE, queryKey } from './resync-queries.ts';
import type { MyTradesQuery, ResyncAnswer, ResyncQuery } from './resync-queries.ts';

export interface ResyncPlanOptions {
  /** One openOrders call for every symbol (spec weight 10 either way; notes 7: some charge 40) or one per symbol (default). */
  readonly openOrders?: 'per-symbol' | 'all';
  /** myTrades rows per page (default and max 1000, spec 4.5). */
  readonly pageLimit?: number;
}

export function planResync(ledger: LedgerSnapshot, symbols: readonly string[], answers: readonly ResyncAnswer[] = [], opts: ResyncPlanOptions = {}): ResyncQuery[] {
  const limit = Math.min(Math.max(1, Math.floor(opts.pageLimit ?? MAX_TRADES_PAGE)), MAX_TRADES_PAGE);
  const asked = new Set(answers.map((a) => queryKey(a.query)));
  const open = ledger.orders.filter((o) => !isFinalStatus(o.status));
  const syms = [...new Set([...symbols, ...open.map((o) => o.symbol)])].sort();

  const first: ResyncQuery[] = [];
  if (opts.openOrders === 'all') first.push({ kind: 'openOrders' });
  else for (const symbol of syms) first.push({ kind: 'openOrders', symbol });
  first.push({ kind: 'account' });
  for (const symbol of syms) {
    const h = ledger.highestTradeIds[symbol];
    if (h !== undefined) first.push({ kind: 'myTrades', symbol, fromId: nextId(h), limit });
  }
  const fresh = (qs: readonly ResyncQuery[]) => qs.filter((q) => !asked.has(queryKey(q)));

  const wanted = [...first, ...nextPages(answers), ...orderQueries(open, answers)];
  const pending = fresh(wanted);
  if (pending.length > 0) return dedupe(pending);
  return dedupe(fresh(tradeQueries(ledger, answers, limit)));
}

/** The next page of every full myTrades page. */
function nextPages(answers: readonly ResyncAnswer[]): MyTradesQuery[] {
  const out: MyTradesQuery[] = [];
  for (const a of answers) {
    if (a.kind !== 'myTrades' || a.trades.length < a.query.limit) continue;
    let last = a.trades[0]?.id as string;
    for (const t of a.trades) if (BigInt(t.id) > BigInt(last)) last = t.id;
    out.push({ ...a.query, fromId: nextId(last) });
  }
  return out;
}

/** Phase 2: held open orders the venue's open orders (once answered for their symbol) do not list. */
function orderQueries(open: readonly LedgerOrder[], answers: readonly ResyncAnswer[]): ResyncQuery[] {
  const covered = new Set<string>();
  let all = false;
  const listed = new Set<string>();
  for (const a of answers) {
    if (a.kind !== 'openOrders') continue;
    if (a.query.symbol === undefined) all = true;
    else covered.add(a.query.symbol);
    for (const o of a.orders) listed.add(`${o.symbol} ${o.orderId}`).add(`${o.symbol} cid ${o.clientOrderId}`);
  }
  const out: ResyncQuery[] = [];
  for (const o of open) {
    if (!all && !covered.has(o.symbol)) continue;
    if ((o.orderId !== undefined && listed.has(`${o.symbol} ${o.orderId}`)) || listed.has(`${o.symbol} cid ${o.clientOrderId}`)) continue;
    const byOrderId = o.status !== 'UNKNOWN' && o.status !== 'PENDING_NEW' ? o.orderId : undefined;
    out.push({ kind: 'queryOrder', symbol: o.symbol, clientOrderId: o.clientOrderId, orderId: byOrderId });
  }
  return out;
}

/** Phase 3: per-order trades where the venue's executed quantity is ahead of the trades at hand. */
function tradeQueries(ledger: LedgerSnapshot, answers: readonly ResyncAnswer[], limit: number): MyTradesQuery[] {
  const found = venueOrders(answers);
  const tradeQty = new Map<string, InstanceType<typeof D>>();
  const seen = new Set<string>();
  const add = (orderId: string, tradeId: string, qty: string) => {
    const k = `${orderId} ${tradeId}`;
    if (seen.has(k)) return;
    seen.add(k);
    tradeQty.set(orderId, (tradeQty.get(orderId) ?? new D(0)).plus(qty));
  };
  for (const o of ledger.orders) if (o.orderId !== undefined) for (const t of o.trades) add(o.orderId, t.id, t.qty);
  for (const a of answers) if (a.kind === 'myTrades') for (const t of a.trades) add(t.orderId, t.id, t.qty);
  const out: MyTradesQuery[] = [];
  for (const o of ledger.orders) {
    const v = venueOrderOf(o, found);
    const orderId = v?.orderId ?? o.orderId;
    if (orderId === undefined) continue;
    // What the venue says now, or what an answer without trades told the ledger (a RESULT's FILLED).
    const executed = D.max(v?.executedQty ?? 0, new D(o.executedQty).minus(o.adoptedQty));
    if (executed.gt(tradeQty.get(orderId) ?? 0)) out.push({ kind: 'myTrades', symbol: o.symbol, orderId, fromId: '0', limit });
  }
  return [...out, ...nextPages(answers)];
}

/** The venue's orders in the answers: by order id, and by client order id (several may share one, spec 4.5). */
export interface VenueOrders {
  readonly byOrderId: Map<string, Order>;
  readonly byClientId: Map<string, Order[]>;
}

export function venueOrders(answers: readonly ResyncAnswer[]): VenueOrders {
  const out: VenueOrders = { byOrderId: new Map(), byClientId: new Map() };
  for (const a of answers) {
    if (a.kind !== 'openOrders' && a.kind !== 'queryOrder') continue;
    for (const o of a.orders) {
      if (out.byOrderId.has(o.orderId)) continue;
      out.byOrderId.set(o.orderId, o);
      const same = out.byClientId.get(o.clientOrderId);
      if (same === undefined) out.byClientId.set(o.clientOrderId, [o]);
      else same.push(o);
    }
  }
  return out;
}

/** The venue's order for a held one: by its order id, else the newest carrying its client id on its symbol. */
export function venueOrderOf(held: Pick<LedgerOrder, 'orderId' | 'clientOrderId' | 'symbol'>, v: VenueOrders): Order | undefined {
  if (held.orderId !== undefined) {
    const o = v.byOrderId.get(held.orderId);
    if (o !== undefined) return o;
  }
  const same = (v.byClientId.get(held.clientOrderId) ?? []).filter((o) => o.symbol === held.symbol && (held.orderId === undefined || o.orderId === held.orderId));
  return same.sort((a, b) => (BigInt(a.orderId) < BigInt(b.orderId) ? -1 : 1)).at(-1);
}

function dedupe(qs: readonly ResyncQuery[]): ResyncQuery[] {
  const seen = new Set<string>();
  return qs.filter((q) => {
    const k = queryKey(q);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
