/**
 * executionReport (protocol notes 4.1, decoded: exchange/streams/user-payload-types.ts) -> the
 * order manager's venue events (core/orders/venue-messages.ts), the same shapes the REST answers
 * map to (from-new-order.ts, from-order.ts, from-account-trade.ts), so the order manager cannot
 * tell which road brought an event:
 *
 * - x NEW: `order` with the status X (NEW; a stop whose trigger fired reports NEW again, `w`
 *   now true), executed z and quote Z, working from `w`.
 * - x TRADE: `fill` of trade t (l at L, quote Y, commission n in N, maker m) with the order's
 *   status after it (X: PARTIALLY_FILLED or FILLED) and its cumulative z / Z. A venue that ends
 *   the order in the same report (X CANCELED, EXPIRED or PARTIALLY_CANCELED) gets the fill as
 *   PARTIALLY_FILLED, then an `order` with that end.
 * - x CANCELED / EXPIRED: `order` with the status X: CANCELED (by the user), EXPIRED (by the
 *   engine: FOK, IOC or MARKET remainder) or PARTIALLY_CANCELED (spec 3.1: the rest cancelled by
 *   self-trade prevention after fills). `r` is the reason when it is not NONE.
 * - x REJECTED: `rejected` with the reason r (the stream carries no code: -2010, spec 7.3
 *   NEW_ORDER_REJECTED).
 *
 * Fills take the trade's time T, other events the event time E.
 */
import type { VenueEvent, VenueFillEvent, VenueOrderEvent } from '../../ports/venue.ts';
import type { ExecutionReport } from '../../exchange/streams/user-payload-types.ts';
import { VenueMappingError } from './mapping-error.ts';
import { venueStatus } from './venue-status.ts';

const SOURCE = 'executionReport';
/** Spec 7.3 NEW_ORDER_REJECTED: the code a stream rejection stands for. */
export const STREAM_REJECT_CODE = -2010;

export function fromExecutionReport(r: ExecutionReport): VenueEvent[] {
  switch (r.executionType) {
    case 'NEW':
      return [orderEvent(r)];
    case 'CANCELED':
    case 'EXPIRED': {
      const e = orderEvent(r);
      if (e.status !== 'CANCELED' && e.status !== 'EXPIRED' && e.status !== 'PARTIALLY_CANCELED') {
        throw new VenueMappingError(SOURCE, 'X', `${r.executionType} report with order status ${e.status} (expected CANCELED, PARTIALLY_CANCELED or EXPIRED)`);
      }
      return [e];
    }
    case 'REJECTED':
      return [{ kind: 'rejected', symbol: r.symbol, clientOrderId: r.clientOrderId, code: STREAM_REJECT_CODE, reason: reasonOf(r) ?? 'rejected by the venue', time: r.eventTime }];
    case 'TRADE':
      return tradeEvents(r);
  }
}

function reasonOf(r: ExecutionReport): string | undefined {
  return r.rejectReason === '' || r.rejectReason === 'NONE' ? undefined : r.rejectReason;
}

function orderEvent(r: ExecutionReport): VenueOrderEvent {
  if (r.orderStatus === 'REJECTED') throw new VenueMappingError(SOURCE, 'X', `REJECTED status with execution type ${r.executionType}`);
  const status = venueStatus(r.orderStatus, SOURCE, 'X');
  const e: { -readonly [K in keyof VenueOrderEvent]: VenueOrderEvent[K] } = {
    kind: 'order',
    symbol: r.symbol,
    clientOrderId: r.clientOrderId,
    orderId: r.orderId,
    status,
    executedQty: r.cumulativeQty,
    cumulativeQuoteQty: r.cumulativeQuoteQty,
    working: r.working,
    time: r.eventTime,
  };
  const reason = reasonOf(r) ?? (status === 'PARTIALLY_CANCELED' ? 'self-trade prevention' : undefined);
  if (reason !== undefined) e.reason = reason;
  return e;
}

function tradeEvents(r: ExecutionReport): VenueEvent[] {
  if (r.tradeId === undefined) throw new VenueMappingError(SOURCE, 't', 'a TRADE report without a trade id');
  if (r.commissionAsset === null) throw new VenueMappingError(SOURCE, 'N', 'a TRADE report without a commission asset');
  const status = r.orderStatus === 'REJECTED' ? undefined : venueStatus(r.orderStatus, SOURCE, 'X');
  if (status === undefined || status === 'NEW') throw new VenueMappingError(SOURCE, 'X', `a TRADE report with order status ${r.orderStatus}`);
  const ends = status !== 'PARTIALLY_FILLED' && status !== 'FILLED';
  const fill: VenueFillEvent = {
    kind: 'fill',
    symbol: r.symbol,
    clientOrderId: r.clientOrderId,
    orderId: r.orderId,
    tradeId: r.tradeId,
    side: r.side,
    price: r.lastPrice,
    qty: r.lastQty,
    quoteQty: r.lastQuoteQty,
    commission: r.commission,
    commissionAsset: r.commissionAsset,
    isMaker: r.maker,
    orderStatus: ends ? 'PARTIALLY_FILLED' : status,
    cumulativeQty: r.cumulativeQty,
    cumulativeQuoteQty: r.cumulativeQuoteQty,
    time: r.transactionTime >= 0 ? r.transactionTime : r.eventTime,
  };
  return ends ? [fill, orderEvent(r)] : [fill];
}
