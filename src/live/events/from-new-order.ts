/**
 * The new-order answer (spec 4.5, newOrderRespType; decoded shapes: exchange/codecs/order.ts)
 * -> the events the stream brings for the same moment, so whichever arrives first counts and the
 * other is dropped by the seen ledger:
 *
 * - ACK (symbol, orderId, clientOrderId, transactTime): the order was accepted: `order` NEW,
 *   nothing executed. True of the moment it was accepted even if it filled since: the ledger
 *   drops it when the stream already brought more.
 * - RESULT (ACK + the order's state): `order` with its status, executed and quote. The trades
 *   behind an executed quantity are not in it; they come from the stream or myTrades.
 * - FULL (RESULT + fills): one `fill` per entry (trade ids as given; taker fills, since they
 *   matched on arrival: isMaker false; quote = price x qty, exact), each with the cumulative
 *   quantity and quote up to it and the status after it (the last FILLED when the answer is
 *   FILLED and the fills add up to its executed quantity), then an `order` when the answer's
 *   status is not what the fills reached (NEW with no fills, an IOC's EXPIRED rest).
 *
 * `placed` is what the command said: ACK carries no type, and a stop order is not working
 * until its trigger fires.
 */
import { isAlgoOrder } from '../../core/market/types.ts';
import { D } from '../../core/money/decimal.ts';
import type { Dec } from '../../core/money/decimal.ts';
import type { OrderSide, OrderType } from '../../core/orders/types.ts';
import { hasOrderState, isFullResponse } from '../../exchange/codecs/order.ts';
import type { NewOrderResponse, OrderFull } from '../../exchange/codecs/order.ts';
import type { VenueEvent, VenueFillEvent, VenueOrderEvent, VenueOrderStatus } from '../../ports/venue.ts';
import { VenueMappingError } from './mapping-error.ts';
import { venueStatus } from './venue-status.ts';

const SOURCE = 'newOrder';

export interface PlacedOrder {
  readonly side: OrderSide;
  readonly type: OrderType;
}

export function fromNewOrderResponse(r: NewOrderResponse, placed: PlacedOrder): VenueEvent[] {
  if (!hasOrderState(r)) {
    return [{ kind: 'order', symbol: r.symbol, clientOrderId: r.clientOrderId, orderId: r.orderId, status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: !isAlgoOrder(placed.type), time: r.transactTime }];
  }
  const status = venueStatus(r.status, SOURCE, 'status');
  const working = !(isAlgoOrder(placed.type) && status === 'NEW');
  const order: VenueOrderEvent = {
    kind: 'order',
    symbol: r.symbol,
    clientOrderId: r.clientOrderId,
    orderId: r.orderId,
    status,
    executedQty: r.executedQty,
    cumulativeQuoteQty: r.cummulativeQuoteQty,
    working,
    time: r.transactTime,
  };
  if (!isFullResponse(r) || r.fills.length === 0) return [order];
  const fills = fullFills(r, status, placed.side);
  const last = fills[fills.length - 1] as VenueFillEvent;
  // The fills reached the answer's state: nothing more to say.
  if (last.orderStatus === status && new D(last.cumulativeQty).eq(new D(r.executedQty))) return fills;
  return [...fills, order];
}

function fullFills(r: OrderFull, status: VenueOrderStatus, placedSide: OrderSide): VenueFillEvent[] {
  const side = r.side === 'BUY' || r.side === 'SELL' ? r.side : placedSide;
  const executed = new D(r.executedQty);
  let cum: Dec = new D(0);
  let cumQuote: Dec = new D(0);
  return r.fills.map((f, i) => {
    const qty = new D(f.qty);
    if (!qty.isPositive() || qty.isZero()) throw new VenueMappingError(SOURCE, `fills[${i}].qty`, `${f.qty} is not a positive quantity`);
    const quote = new D(f.price).times(qty);
    cum = cum.plus(qty);
    cumQuote = cumQuote.plus(quote);
    const isLast = i === r.fills.length - 1;
    const reachesAnswer = isLast && cum.eq(executed);
    return {
      kind: 'fill',
      symbol: r.symbol,
      clientOrderId: r.clientOrderId,
      orderId: r.orderId,
      tradeId: f.tradeId,
      side,
      price: f.price,
      qty: f.qty,
      quoteQty: quote.toFixed(),
      commission: f.commission,
      commissionAsset: f.commissionAsset,
      isMaker: false,
      orderStatus: reachesAnswer && status === 'FILLED' ? 'FILLED' : 'PARTIALLY_FILLED',
      cumulativeQty: reachesAnswer ? r.executedQty : cum.toFixed(),
      // The venue's own text when the fills reach its answer (it may round the quote its way).
      cumulativeQuoteQty: reachesAnswer ? r.cummulativeQuoteQty : cumQuote.toFixed(),
      time: r.transactTime,
    };
  });
}
