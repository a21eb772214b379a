/**
 * What the journal knows when a bot starts again after a stop or a crash (issue 20 deliverable 6),
 * put into a fresh SeenLedger so the start-up resync asks and delivers only what the journal does
 * not hold:
 *
 * - the orders it holds open (NEW, PARTIALLY_FILLED), each with the fills it journaled: the ledger
 *   then knows their trades (never applied twice) and their order ids (open orders matched);
 * - requests whose outcome it never learnt (request-store `pending`: sent with no answer, or
 *   unknown): the order is held as an unknown outcome, so the resync looks it up by client id;
 * - per symbol, the highest trade id journaled: myTrades asks from the next one;
 * - orders a crashed run journaled as ended short of their fills (a status found by query before
 *   its trades were journaled): held as still filling, so the resync brings the missing trades.
 *
 * Nothing here reaches the order manager: `journalOrders` says what to adopt into it (the state as
 * journaled); the resync's events then move those orders on.
 */
import { D } from '../../core/money/decimal.ts';
import type { OrderSide, OrderType, TimeInForce } from '../../core/orders/types.ts';
import type { FillRecord } from '../../journal/fill-store.ts';
import type { Journal } from '../../journal/journal.ts';
import type { OrderRecord } from '../../journal/order-store.ts';
import type { RequestRecord } from '../../journal/request-store.ts';
import type { PlaceCommand, VenueFillEvent } from '../../ports/venue.ts';
import type { LiveEvent } from '../events/live-events.ts';
import type { SeenLedger } from '../events/seen-ledger.ts';
import type { AdoptInput } from '../venue/adopt-order.ts';
import { compareIds } from '../events/ids.ts';
import { isFinalStatus } from '../events/venue-status.ts';

export interface JournalState {
  /** Orders as the journal left them, for the order manager (open ones, and unknown outcomes as UNKNOWN). */
  readonly orders: AdoptInput[];
  readonly pending: RequestRecord[];
  /** Highest journaled trade id per symbol. */
  readonly lastTradeIds: Record<string, string>;
}

const TIFS: readonly string[] = ['GTC', 'IOC', 'FOK'];

/** Seed `ledger` from `journal` (runs other than `runId`); returns what to adopt into the order manager. */
export function seedFromJournal(journal: Journal, ledger: SeenLedger, symbols: readonly string[], runId: string): JournalState {
  const orders: AdoptInput[] = [];
  const pending = journal.requests.pending().filter((r) => r.runId !== runId);
  const lastTradeIds: Record<string, string> = {};
  for (const symbol of symbols) {
    const last = journal.fills.lastTradeId(symbol);
    if (last !== undefined) lastTradeIds[symbol] = last;
  }
  const seen = new Set<string>();
  for (const o of journal.orders.active()) {
    if (!symbols.includes(o.symbol) || o.exchangeOrderId === null) continue;
    seen.add(o.clientOrderId);
    const fills = journal.fills.list({ clientOrderId: o.clientOrderId }).sort((a, b) => compareIds(a.tradeId, b.tradeId));
    ledger.admit(seedEvents(o, fills), 'resync');
    let quote = new D(0);
    for (const f of fills) quote = quote.plus(f.quoteQty);
    orders.push({ ...orderFields(o), status: o.status === 'PARTIALLY_FILLED' ? 'PARTIALLY_FILLED' : 'NEW', orderId: o.exchangeOrderId, executedQty: o.executedQty, cumulativeQuoteQty: quote.toFixed(), working: true });
  }
  for (const r of pending) {
    const cmd = placeOf(r);
    if (cmd === undefined || seen.has(cmd.clientOrderId) || !symbols.includes(cmd.symbol)) continue;
    seen.add(cmd.clientOrderId);
    ledger.placed(cmd);
    ledger.admit([{ kind: 'unknownOutcome', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, command: 'place', reason: 'sent by an earlier run that never learnt the outcome', time: r.sentAt }], 'resync');
    // Its fills the journal holds (the stream brought them, the process died before the answer):
    // known, so the resync does not apply them again (positions and capital are replayed from the
    // journal; issue 22 --kill found them applied twice). Seeded short of an end status, so the
    // query's status still moves the order on.
    const held = journal.orders.get(cmd.clientOrderId);
    if (held !== undefined && held.exchangeOrderId !== null) {
      const fills = journal.fills.list({ clientOrderId: cmd.clientOrderId }).sort((a, b) => compareIds(a.tradeId, b.tradeId));
      const known = seedEvents(held, fills).flatMap((e) => (e.kind === 'fill' ? [{ ...e, orderStatus: 'PARTIALLY_FILLED' as const }] : []));
      if (known.length > 0) ledger.admit(known, 'resync');
    }
    orders.push({
      symbol: cmd.symbol,
      clientOrderId: cmd.clientOrderId,
      side: cmd.side,
      type: cmd.type,
      timeInForce: cmd.timeInForce,
      price: cmd.price,
      stopPrice: cmd.stopPrice,
      origQty: cmd.quantity ?? cmd.quoteOrderQty ?? '0',
      status: 'UNKNOWN',
      executedQty: '0',
      cumulativeQuoteQty: '0',
      working: true,
      time: r.sentAt,
    });
  }
  // Orders a crashed (or failed) run journaled as ended whose journaled fills fall short of what it
  // journaled as executed: a status found by query (venue-commands.ts: a placement in doubt, a
  // cancel refused as unknown) is journaled before the trades a later delivery brings, and a crash
  // in between (issue 22 --kill: fill-half-written inside that delivery) left them out. Not held,
  // their trades found by myTrades matched no order and were lost for good. Held here as still
  // filling, at what the journaled fills explain (positions and capital are replayed from those):
  // the resync's query and trades then end them with the missing fills, once.
  for (const run of journal.liveRuns.list()) {
    if (run.id === runId || (run.exitReason !== 'crashed' && run.exitReason !== 'error')) continue;
    for (const o of journal.orders.byRun(run.id)) {
      if (seen.has(o.clientOrderId) || !symbols.includes(o.symbol) || o.exchangeOrderId === null || !isFinalStatus(o.status)) continue;
      const fills = journal.fills.list({ clientOrderId: o.clientOrderId }).sort((a, b) => compareIds(a.tradeId, b.tradeId));
      let traded = new D(0);
      let quote = new D(0);
      for (const f of fills) {
        traded = traded.plus(f.qty);
        quote = quote.plus(f.quoteQty);
      }
      if (traded.gte(o.executedQty)) continue;
      seen.add(o.clientOrderId);
      const status = traded.isZero() ? 'NEW' : 'PARTIALLY_FILLED';
      ledger.admit(seedEvents({ ...o, status, executedQty: traded.toFixed() }, fills), 'resync');
      orders.push({ ...orderFields(o), status, orderId: o.exchangeOrderId, executedQty: traded.toFixed(), cumulativeQuoteQty: quote.toFixed(), working: true });
    }
  }
  ledger.noteTradeIds(lastTradeIds);
  return { orders, pending, lastTradeIds };
}

/** The new order a place or cancelReplace request carried. */
export function placeOf(r: RequestRecord): PlaceCommand | undefined {
  const req = r.request as { kind?: string; order?: PlaceCommand } | PlaceCommand | null;
  if (req === null || typeof req !== 'object') return undefined;
  if (r.kind === 'place' && req.kind === 'place') return req as PlaceCommand;
  if (r.kind === 'cancelReplace' && 'order' in req && req.order !== undefined) return req.order;
  return undefined;
}

function orderFields(o: OrderRecord): Omit<AdoptInput, 'status' | 'orderId' | 'executedQty' | 'cumulativeQuoteQty' | 'working'> {
  return {
    symbol: o.symbol,
    clientOrderId: o.clientOrderId,
    side: o.side as OrderSide,
    type: o.type as OrderType,
    timeInForce: o.timeInForce !== null && TIFS.includes(o.timeInForce) ? (o.timeInForce as TimeInForce) : undefined,
    price: o.price ?? undefined,
    stopPrice: o.stopPrice ?? undefined,
    origQty: o.qty,
    time: o.createdAt,
  };
}

/** The ledger's picture of a journaled order: adopted at what its journaled fills do not explain, then those fills. */
function seedEvents(o: OrderRecord, fills: readonly FillRecord[]): LiveEvent[] {
  let traded = new D(0);
  for (const f of fills) traded = traded.plus(f.qty);
  const base = D.max(new D(o.executedQty).minus(traded), 0);
  const out: LiveEvent[] = [
    { kind: 'adopt', ...orderFields(o), orderId: o.exchangeOrderId as string, status: base.isZero() ? 'NEW' : 'PARTIALLY_FILLED', executedQty: base.toFixed(), cumulativeQuoteQty: '0', working: true },
  ];
  let cum = base;
  let quote = new D(0);
  for (const f of fills) {
    cum = cum.plus(f.qty);
    quote = quote.plus(f.quoteQty);
    const fill: VenueFillEvent = {
      kind: 'fill',
      symbol: f.symbol,
      clientOrderId: o.clientOrderId,
      orderId: o.exchangeOrderId as string,
      tradeId: f.tradeId,
      side: f.side,
      price: f.price,
      qty: f.qty,
      quoteQty: f.quoteQty,
      commission: f.commission,
      commissionAsset: f.commissionAsset,
      isMaker: f.isMaker,
      orderStatus: new D(o.qty).gt(0) && cum.gte(o.qty) ? 'FILLED' : 'PARTIALLY_FILLED',
      cumulativeQty: cum.toFixed(),
      cumulativeQuoteQty: quote.toFixed(),
      time: f.time,
    };
    out.push(fill);
  }
  return out;
}
