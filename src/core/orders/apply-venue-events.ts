/**
 * Venue events -> order manager state -> events for the strategies (notes 4.1 semantics):
 * acknowledgements and updates go through the order-state reducer; fills are applied once per
 * trade id of their order (a resent stream message is a no-op; the two sides of a self-trade
 * share a trade id and are two fills), move the position, and reach the strategy as a
 * `fill` followed by an `orderUpdate` with the status after it (and move its strategy's capital
 * ledger, when it has one: capital.ts) and, until the venue's balance event reports them, the
 * account's free / locked (fill-funds.ts); balances replace the account's free / locked of the
 * asset. Anything that contradicts what the manager knows (an illegal
 * transition, an order it never sent) is reported as an issue and not applied; a fill always
 * moves the position (the money moved), even when its status change is illegal.
 *
 * Not applied means none of it: a live venue delivers late (the REST acknowledgement NEW after
 * the stream's first fill; partial fills out of order), and a refused event's cumulative quote
 * quantity and executed text are its own stale ones, so the order keeps those it has (its
 * cumulative quote never goes back with the executed quantity held).
 */
import type { Instrument } from '../market/instrument.ts';
import type { Dec } from '../money/decimal.ts';
import type { AccountState } from './account.ts';
import type { CapitalLedgers } from './capital/capital.ts';
import { parsedDecimal } from './decimal-cache.ts';
import { creditFill, releaseReserve } from './fill-funds.ts';
import type { ManagedOrder } from './managed-order.ts';
import { reduceOrder, reduceVenue } from './order-state.ts';
import type { OrderTrigger, Reduction } from './order-state.ts';
import type { OrderRegistry } from './order-registry.ts';
import type { FillOut, StrategyEvent } from './types.ts';
import type { VenueEvent, VenueFillEvent } from './venue-messages.ts';

/** Venue amounts are decimal strings already checked by the venue adapter: parse without a second validation pass. */
const num = (text: string): Dec => parsedDecimal(text);

export interface OrderIssue {
  readonly kind: 'illegal-transition' | 'unknown-order' | 'unknown-outcome';
  readonly clientOrderId: string;
  readonly time: number;
  readonly message: string;
}

export interface ApplyResult {
  readonly events: StrategyEvent[];
  readonly issues: OrderIssue[];
}

export interface ApplyContext {
  readonly orders: OrderRegistry;
  readonly account: AccountState;
  /** Per-strategy capital: a fill moves its strategy's ledger too (capital.ts). */
  readonly capital?: CapitalLedgers | undefined;
  instrument(symbol: string): Instrument | undefined;
  setLastPrice(symbol: string, price: string): void;
}

function transition(ctx: ApplyContext, o: ManagedOrder, trigger: OrderTrigger, time: number, out: ApplyResult): boolean {
  return settle(ctx, o, reduceOrder(o, trigger), time, out);
}

function settle(ctx: ApplyContext, o: ManagedOrder, r: Reduction, time: number, out: ApplyResult): boolean {
  if (r.kind === 'illegal') {
    out.issues.push({ kind: 'illegal-transition', clientOrderId: o.clientOrderId, time, message: `${o.clientOrderId}: ${r.from} -> ${r.to} refused: ${r.reason}` });
    return false;
  }
  if (r.kind === 'unchanged') return false;
  o.apply(r.next);
  o.updateTime = time;
  if (!o.isPending) o.reserve = undefined;
  ctx.orders.changed(o);
  return true;
}

function applyFill(ctx: ApplyContext, o: ManagedOrder, events: readonly VenueEvent[], index: number, out: ApplyResult): void {
  const e = events[index] as VenueFillEvent;
  // Once per trade id of the order (a resent stream message is a no-op; the order is known, or
  // the event was reported as unknown above).
  if (!o.firstTrade(e.tradeId)) return;
  const inst = ctx.instrument(e.symbol);
  // On the venue's texts: exact BigInt arithmetic, no Decimal parses (account.ts). The account's
  // position and the order's strategy's own (what its context reads).
  ctx.account.applyFillText(
    {
      symbol: e.symbol,
      baseAsset: inst?.baseAsset ?? '',
      side: e.side,
      price: e.price,
      qty: e.qty,
      commission: e.commission,
      commissionAsset: e.commissionAsset,
    },
    o.strategy,
  );
  // Free / locked until the venue's balance event reports the fill (fill-funds.ts).
  if (inst !== undefined) creditFill(ctx.account, o, inst, events, index);
  if (ctx.capital !== undefined && inst !== undefined) ctx.capital.applyFill(o.strategy, e, inst.baseAsset, inst.quoteAsset);
  ctx.setLastPrice(e.symbol, e.price);
  o.orderId ??= e.orderId;
  o.working = true;
  const executed = num(e.cumulativeQty);
  // The order itself is the reducer's progress: nothing allocated to ask.
  const r = reduceVenue(o, e.orderStatus, executed);
  if (r.kind !== 'illegal') {
    o.setCumQuoteText(e.cumulativeQuoteQty);
    o.executedFrom(e.cumulativeQty, executed);
  }
  const moved = settle(ctx, o, r, e.time, out);
  // Still unacknowledged (its reserve stays while pending): the filled part no longer needs it.
  if (o.reserve !== undefined) releaseReserve(o, e);
  out.events.push({ kind: 'fill', strategy: o.strategy, fill: fillOut(e, o.tag) });
  if (moved) out.events.push({ kind: 'orderUpdate', strategy: o.strategy, update: o.update(e.time) });
}

/** The strategy's view of a fill: the event without its kind and cumulative quote, plus the order's tag (written out: no rest/spread copies). */
function fillOut(e: VenueFillEvent, tag: string | undefined): FillOut {
  const f: { -readonly [K in keyof FillOut]: FillOut[K] } = {
    symbol: e.symbol,
    clientOrderId: e.clientOrderId,
    orderId: e.orderId,
    tradeId: e.tradeId,
    side: e.side,
    price: e.price,
    qty: e.qty,
    quoteQty: e.quoteQty,
    commission: e.commission,
    commissionAsset: e.commissionAsset,
    isMaker: e.isMaker,
    orderStatus: e.orderStatus,
    cumulativeQty: e.cumulativeQty,
    time: e.time,
  };
  if (tag !== undefined) f.tag = tag;
  return Object.freeze(f);
}

export function applyVenueEvents(ctx: ApplyContext, events: readonly VenueEvent[]): ApplyResult {
  const out: ApplyResult = { events: [], issues: [] };
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as VenueEvent;
    if (e.kind === 'balance') {
      ctx.account.setBalanceText(e.asset, e.free, e.locked, e.time);
      continue;
    }
    const o = ctx.orders.get(e.clientOrderId);
    if (!o) {
      out.issues.push({ kind: 'unknown-order', clientOrderId: e.clientOrderId, time: e.time, message: `${e.kind} event for ${e.symbol} order ${e.clientOrderId}, which this order manager did not send` });
      continue;
    }
    switch (e.kind) {
      case 'fill':
        applyFill(ctx, o, events, i, out);
        break;
      case 'order': {
        o.orderId ??= e.orderId;
        const executed = num(e.executedQty);
        const r = reduceVenue(o, e.status, executed);
        if (r.kind !== 'illegal') {
          o.working = e.working;
          o.setCumQuoteText(e.cumulativeQuoteQty);
          o.executedFrom(e.executedQty, executed);
        }
        if (settle(ctx, o, r, e.time, out)) {
          out.events.push({ kind: 'orderUpdate', strategy: o.strategy, update: o.update(e.time, e.reason) });
        }
        break;
      }
      case 'rejected':
        if (transition(ctx, o, { kind: 'rejected' }, e.time, out)) {
          out.events.push({ kind: 'orderUpdate', strategy: o.strategy, update: o.update(e.time, `${e.reason} (${e.code})`) });
        }
        break;
      case 'cancelRejected':
        if (transition(ctx, o, { kind: 'cancelRejected' }, e.time, out)) {
          out.events.push({ kind: 'orderUpdate', strategy: o.strategy, update: o.update(e.time, `cancel rejected: ${e.reason} (${e.code})`) });
        }
        break;
      case 'unknownOutcome':
        // A place that became UNKNOWN is an update the strategy sees; a cancel's doubt changes nothing it sees.
        if (transition(ctx, o, { kind: 'unknownOutcome', command: e.command }, e.time, out)) {
          out.events.push({ kind: 'orderUpdate', strategy: o.strategy, update: o.update(e.time, `outcome unknown (${e.reason}): looking it up by client order id, never resent`) });
        }
        out.issues.push({ kind: 'unknown-outcome', clientOrderId: o.clientOrderId, time: e.time, message: `${e.command} of ${o.clientOrderId}: outcome unknown (${e.reason}); reconcile before trusting its status` });
        break;
    }
  }
  return out;
}
