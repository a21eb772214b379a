/**
 * The resync's answers (plan-resync.ts) -> exactly the events the adapter missed, in an order the
 * order manager accepts (issue 20 deliverables 5 and 6):
 *
 * - per order, its missed fills in trade-id order, then its status now when the fills do not
 *   reach it (CANCELED, EXPIRED, PARTIALLY_CANCELED; NEW for an order only sent so far). A fill
 *   built from a myTrades row carries the order's cumulative quantity and quote after it, summed
 *   over every trade of the order known (the ledger's and the answers') up to its id, so the order
 *   manager reaches the venue's executed quantity; its status is FILLED when that reaches the
 *   order's quantity (or the venue's executed quantity of a FILLED order), else PARTIALLY_FILLED.
 *   Orders one after the other, by the time of their first event;
 * - an order of an unknown outcome (the POST timed out) that the venue does not know (-2013):
 *   `rejected`, "not placed (unknown outcome resolved by query)". Found: its events as above;
 * - an open order with this bot's client ids (`ownsClientOrderId`) the ledger does not hold
 *   (placed before a crash): `adopt` with its progress before the missed fills, then those;
 *   with another client id: reported as foreign, left alone, or cancelled when `cancelForeign`;
 * - last, the balances of account information (an asset the ledger saw that the answer no
 *   longer lists: zero), which replace whatever the fills moved.
 *
 * Nothing the ledger already holds is repeated; what does not add up is reported, never guessed:
 * an order the venue executed further than the trades found (`incomplete`; its status is still
 * applied), a held order the venue does not know, trades of orders nobody holds (`unmatched`).
 */
import { parseClientOrderId } from '../../core/orders/client-order-id.ts';
import { D } from '../../core/money/decimal.ts';
import type { Dec } from '../../core/money/decimal.ts';
import { ORDER_SIDES, ORDER_TYPES, TIME_IN_FORCE } from '../../exchange/codecs/order.ts';
import type { AccountTrade, Order } from '../../exchange/codecs/order.ts';
import type { CancelCommand, VenueBalanceEvent, VenueFillEvent, VenueOrderEvent } from '../../ports/venue.ts';
import { fromAccount } from '../events/from-account.ts';
import { fromAccountTrade } from '../events/from-account-trade.ts';
import { fromOrder } from '../events/from-order.ts';
import { maxId } from '../events/ids.ts';
import type { LiveEvent, VenueAdoptEvent } from '../events/live-events.ts';
import { VenueMappingError } from '../events/mapping-error.ts';
import type { LedgerOrder, LedgerSnapshot, LedgerStatus } from '../events/seen-ledger.ts';
import { isFinalStatus, statusRank } from '../events/venue-status.ts';
import { venueOrderOf, venueOrders } from './plan-resync.ts';
import type { ResyncAnswer } from './resync-queries.ts';

export const NOT_PLACED_REASON = 'not placed (unknown outcome resolved by query)';

export interface ResyncOptions {
  /** Time of events the venue gives none for (an unknown outcome resolved as not placed). */
  readonly now: number;
  /** Whether an open order is this bot's (default: a client order id made by client-order-id.ts). */
  readonly ownsClientOrderId?: (clientOrderId: string) => boolean;
  /** Cancel open orders that are not this bot's (default: report them and leave them alone). */
  readonly cancelForeign?: boolean;
}

export interface ForeignOrder {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly side: string;
  readonly type: string;
  readonly status: string;
  readonly executedQty: string;
}

export interface ResyncProblem {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId?: string | undefined;
  readonly message: string;
}

export interface ResyncResult {
  /** For the seen ledger, then the order manager (adopt events through its `adopt`: live-events.ts). */
  readonly events: LiveEvent[];
  readonly foreign: ForeignOrder[];
  /** Cancels of foreign orders (only with `cancelForeign`). */
  readonly cancels: CancelCommand[];
  /** Trades of orders neither held nor listed open: another client's, or of an order the ledger forgot. */
  readonly unmatched: AccountTrade[];
  /** What does not add up; the adapter logs each and resyncs again later. */
  readonly incomplete: ResyncProblem[];
  /** Highest trade id in the answers per symbol (SeenLedger.noteTradeIds: the next resync starts above). */
  readonly highestTradeIds: Record<string, string>;
}

interface Group {
  readonly time: number;
  readonly orderId: bigint;
  readonly events: LiveEvent[];
}

const ZERO = new D(0);
const byId = (a: AccountTrade, b: AccountTrade) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);

export function eventsFromResync(ledger: LedgerSnapshot, answers: readonly ResyncAnswer[], opts: ResyncOptions): ResyncResult {
  const owns = opts.ownsClientOrderId ?? ((cid: string) => parseClientOrderId(cid) !== undefined);
  const result: ResyncResult = { events: [], foreign: [], cancels: [], unmatched: [], incomplete: [], highestTradeIds: {} };
  const venue = venueOrders(answers);
  const trades = tradesByOrder(answers, result.highestTradeIds);
  const notFound = new Map<string, { code: number; message: string }>();
  for (const a of answers) if (a.kind === 'orderNotFound') notFound.set(a.query.clientOrderId, { code: a.code, message: a.message });

  const groups: Group[] = [];
  const claimed = new Set<string>();
  for (const held of ledger.orders) {
    const v = venueOrderOf(held, venue);
    const orderId = held.orderId ?? v?.orderId;
    if (orderId !== undefined) claimed.add(orderId);
    const group = heldOrderEvents(held, v, orderId === undefined ? [] : (trades.get(orderId) ?? []), notFound.get(held.clientOrderId), opts.now, result);
    if (group !== undefined) groups.push(group);
  }
  for (const a of answers) {
    if (a.kind !== 'openOrders') continue;
    for (const o of a.orders) {
      if (claimed.has(o.orderId)) continue;
      claimed.add(o.orderId);
      if (owns(o.clientOrderId)) groups.push(adoptEvents(o, trades.get(o.orderId) ?? [], result));
      else {
        result.foreign.push({ symbol: o.symbol, clientOrderId: o.clientOrderId, orderId: o.orderId, side: o.side, type: o.type, status: o.status, executedQty: o.executedQty });
        if (opts.cancelForeign === true) result.cancels.push({ kind: 'cancel', symbol: o.symbol, clientOrderId: o.clientOrderId });
      }
    }
  }
  for (const [orderId, list] of trades) if (!claimed.has(orderId)) result.unmatched.push(...list);

  groups.sort((a, b) => a.time - b.time || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0));
  for (const g of groups) result.events.push(...g.events);
  result.events.push(...balances(ledger, answers));
  return result;
}

/** Every trade in the answers once, per order id, ascending by id; the highest id per symbol noted. */
function tradesByOrder(answers: readonly ResyncAnswer[], highest: Record<string, string>): Map<string, AccountTrade[]> {
  const out = new Map<string, AccountTrade[]>();
  const seen = new Set<string>();
  for (const a of answers) {
    if (a.kind !== 'myTrades') continue;
    for (const t of a.trades) {
      const k = `${t.orderId} ${t.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      highest[t.symbol] = maxId(highest[t.symbol], t.id) as string;
      const list = out.get(t.orderId);
      if (list === undefined) out.set(t.orderId, [t]);
      else list.push(t);
    }
  }
  for (const list of out.values()) list.sort(byId);
  return out;
}

/** Where the order manager stands on an order after the ledger's events: status and executed quantity. */
interface Reached {
  status: LedgerStatus;
  executed: Dec;
  working: boolean;
}

function heldOrderEvents(held: LedgerOrder, v: Order | undefined, venueTrades: readonly AccountTrade[], missing: { code: number; message: string } | undefined, now: number, result: ResyncResult): Group | undefined {
  if (v === undefined && missing !== undefined) {
    if (held.status === 'UNKNOWN') {
      return { time: now, orderId: 0n, events: [{ kind: 'rejected', symbol: held.symbol, clientOrderId: held.clientOrderId, code: missing.code, reason: NOT_PLACED_REASON, time: now }] };
    }
    result.incomplete.push({ symbol: held.symbol, clientOrderId: held.clientOrderId, orderId: held.orderId, message: `held as ${held.status}, but the venue does not know it: ${missing.message} (${missing.code})` });
    return undefined;
  }
  const known = new Map(held.trades.map((t) => [t.id, t] as const));
  const missed = venueTrades.filter((t) => !known.has(t.id));
  if (v === undefined && missed.length === 0) return undefined;
  const reached: Reached = { status: held.status, executed: new D(held.executedQty), working: held.working };
  const events: LiveEvent[] = [];
  const placedQty = held.quantity === undefined ? undefined : new D(held.quantity);
  const origQty = v === undefined || new D(v.origQty).isZero() ? placedQty : new D(v.origQty);
  // Without an answer (an order the ledger holds as ended, whose trades the stream missed), its own end is the target.
  const target: Target = v ?? { status: held.status, executedQty: held.executedQty, cummulativeQuoteQty: undefined };
  const start = { qty: new D(held.adoptedQty), quote: new D(held.adoptedQuoteQty) };
  const total = replayFills(held.clientOrderId, held.trades, missed, target, origQty, reached, events, start);
  if (v !== undefined) finalStatus(held.clientOrderId, v, total, reached, events, result);
  if (events.length === 0) return undefined;
  return { time: firstTime(events), orderId: BigInt(v?.orderId ?? held.orderId ?? '0'), events };
}

/** What the fills head for: the venue's order now (or the ledger's end of it). */
interface Target {
  readonly status: string;
  readonly executedQty: string;
  /** The venue's text, when it gave one. */
  readonly cummulativeQuoteQty: string | undefined;
}

/**
 * Fills of the `missed` trades, with cumulative quantity and quote over `known` and `missed` up
 * to each (from `start`: what an adopted order had executed before the trades held); `reached`
 * moves with them. Returns the order's total executed quantity over every trade.
 */
function replayFills(
  clientOrderId: string,
  known: readonly { id: string; qty: string; quoteQty: string }[],
  missed: readonly AccountTrade[],
  target: Target,
  origQty: Dec | undefined,
  reached: Reached,
  out: LiveEvent[],
  start: { qty: Dec; quote: Dec },
): Dec {
  const all = [...known.map((t) => ({ id: t.id, qty: t.qty, quoteQty: t.quoteQty, row: undefined as AccountTrade | undefined })), ...missed.map((t) => ({ id: t.id, qty: t.qty, quoteQty: t.quoteQty, row: t as AccountTrade | undefined }))];
  all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
  const targetQty = new D(target.executedQty);
  let cum = start.qty;
  let quote = start.quote;
  for (const t of all) {
    cum = cum.plus(t.qty);
    quote = quote.plus(t.quoteQty);
    if (t.row === undefined) continue;
    const atTarget = cum.eq(targetQty);
    const filled = (atTarget && target.status === 'FILLED') || (origQty !== undefined && origQty.gt(0) && cum.gte(origQty));
    const fill: VenueFillEvent = fromAccountTrade(t.row, {
      clientOrderId,
      orderStatus: filled ? 'FILLED' : 'PARTIALLY_FILLED',
      cumulativeQty: atTarget ? target.executedQty : cum.toFixed(),
      // The venue's own quote text once the trades reach its executed quantity (it may round its way).
      cumulativeQuoteQty: atTarget && target.cummulativeQuoteQty !== undefined ? target.cummulativeQuoteQty : quote.toFixed(),
    });
    out.push(fill);
    if (!isFinalStatus(reached.status) && statusRank(fill.orderStatus) >= statusRank(reached.status)) reached.status = fill.orderStatus;
    if (cum.gt(reached.executed)) reached.executed = cum;
    reached.working = true;
  }
  return cum;
}

/** The venue's status now, after the fills, when it moves the order on; a report when the trades do not add up to it. */
function finalStatus(clientOrderId: string, v: Order, total: Dec, reached: Reached, out: LiveEvent[], result: ResyncResult): void {
  const e: VenueOrderEvent = { ...fromOrder(v, 'resync'), clientOrderId };
  const executed = new D(v.executedQty);
  if (executed.gt(total)) {
    result.incomplete.push({ symbol: v.symbol, clientOrderId, orderId: v.orderId, message: `the venue executed ${v.executedQty}, the trades found add up to ${total.toFixed()}: fills missing` });
  }
  // The answer is older than what the ledger holds (the stream moved on while the queries ran).
  if (executed.lt(reached.executed)) return;
  if (isFinalStatus(reached.status)) return;
  const to = statusRank(e.status);
  const from = statusRank(reached.status);
  if (to > from || (to === from && (executed.gt(reached.executed) || (e.working && !reached.working)))) out.push(e);
}

/** An open order of this bot the ledger does not hold: adopted as it stood before the missed trades, then those. */
function adoptEvents(o: Order, venueTrades: readonly AccountTrade[], result: ResyncResult): Group {
  const side = ORDER_SIDES.find((s) => s === o.side);
  const type = ORDER_TYPES.find((t) => t === o.type);
  if (side === undefined) throw new VenueMappingError('openOrders', 'side', `${JSON.stringify(o.side)} is not BUY or SELL (order ${o.orderId})`);
  if (type === undefined) throw new VenueMappingError('openOrders', 'type', `${JSON.stringify(o.type)} is not an order type of spec 2.1 (order ${o.orderId})`);
  let tradedQty = ZERO;
  let tradedQuote = ZERO;
  for (const t of venueTrades) {
    tradedQty = tradedQty.plus(t.qty);
    tradedQuote = tradedQuote.plus(t.quoteQty);
  }
  let before = new D(o.executedQty).minus(tradedQty);
  let beforeQuote = new D(o.cummulativeQuoteQty).minus(tradedQuote);
  if (before.isNegative()) {
    result.incomplete.push({ symbol: o.symbol, clientOrderId: o.clientOrderId, orderId: o.orderId, message: `open order lists ${o.executedQty} executed, its trades found add up to ${tradedQty.toFixed()}` });
    before = ZERO;
    beforeQuote = ZERO;
  }
  if (beforeQuote.isNegative()) beforeQuote = ZERO;
  const tif = TIME_IN_FORCE.find((t) => t === o.timeInForce);
  const adopt: VenueAdoptEvent = {
    kind: 'adopt',
    symbol: o.symbol,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    side,
    type,
    timeInForce: tif,
    price: new D(o.price).isZero() ? undefined : o.price,
    stopPrice: new D(o.stopPrice).isZero() ? undefined : o.stopPrice,
    origQty: o.origQty,
    status: before.isZero() ? 'NEW' : 'PARTIALLY_FILLED',
    executedQty: before.toFixed(),
    cumulativeQuoteQty: beforeQuote.toFixed(),
    working: o.isWorking,
    time: o.time,
  };
  const events: LiveEvent[] = [adopt];
  const reached: Reached = { status: adopt.status, executed: before, working: adopt.working };
  const origQty = new D(o.origQty);
  const total = replayFills(o.clientOrderId, [], venueTrades, o, origQty.isZero() ? undefined : origQty, reached, events, { qty: before, quote: beforeQuote });
  finalStatus(o.clientOrderId, o, total, reached, events, result);
  return { time: o.time, orderId: BigInt(o.orderId), events };
}

function firstTime(events: readonly LiveEvent[]): number {
  let t = Number.POSITIVE_INFINITY;
  for (const e of events) if (e.time < t) t = e.time;
  return t;
}

/** The account's balances; an asset seen before that the answer no longer lists is zero now. */
function balances(ledger: LedgerSnapshot, answers: readonly ResyncAnswer[]): VenueBalanceEvent[] {
  const a = answers.find((x) => x.kind === 'account');
  if (a === undefined || a.kind !== 'account') return [];
  const out = fromAccount(a.account);
  const listed = new Set(out.map((b) => b.asset));
  for (const asset of ledger.balanceAssets) if (!listed.has(asset)) out.push({ kind: 'balance', asset, free: '0', locked: '0', time: a.account.updateTime });
  return out;
}
