/**
 * An order as the REST answers show it (spec 2.4: query order, open orders, history orders, the
 * cancel answer) -> the `order` event of its status now, the shape an executionReport's order
 * events have (from-execution-report.ts). Its fills are not in the answer: they come from
 * myTrades (from-account-trade.ts) or the stream.
 */
import { isAlgoOrder } from '../../core/market/types.ts';
import type { OrderType } from '../../core/orders/types.ts';
import type { CanceledOrder, Order } from '../../exchange/codecs/order.ts';
import type { VenueOrderEvent } from '../../ports/venue.ts';
import { venueStatus } from './venue-status.ts';

/** An order answer (query, open orders, history: they carry isWorking and updateTime). */
export function fromOrder(o: Order, source = 'queryOrder'): VenueOrderEvent {
  return orderEvent(o, venueStatus(o.status, source, 'status'), o.isWorking, o.updateTime);
}

/**
 * A cancel answer (DELETE order, or cancelReplace's cancel leg): which time fields it carries
 * is not shown (spec 4.5), so the first present of updateTime, transactTime, time, else `now`.
 */
export function fromCanceledOrder(o: CanceledOrder, now: number, source = 'cancelOrder'): VenueOrderEvent {
  const status = venueStatus(o.status, source, 'status');
  const working = o.isWorking ?? !(isAlgoOrder(o.type as OrderType) && status === 'NEW');
  return orderEvent(o, status, working, o.updateTime ?? o.transactTime ?? o.time ?? now);
}

function orderEvent(o: CanceledOrder | Order, status: VenueOrderEvent['status'], working: boolean, time: number): VenueOrderEvent {
  const e: { -readonly [K in keyof VenueOrderEvent]: VenueOrderEvent[K] } = {
    kind: 'order',
    symbol: o.symbol,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    status,
    executedQty: o.executedQty,
    cumulativeQuoteQty: o.cummulativeQuoteQty,
    working,
    time,
  };
  if (status === 'PARTIALLY_CANCELED') e.reason = 'self-trade prevention';
  return e;
}
