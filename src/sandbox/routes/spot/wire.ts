/**
 * Engine snapshots -> the spot wire shapes (spec 2.4 order, 2.5 account trade, 4.5 ACK / RESULT /
 * FULL; notes 6 cancel response). Order ids, trade ids of account trades and times are JSON numbers
 * (ids as bigint, written bare by stringifyWire: they exceed 2^53, notes 5.1); a fill's `tradeId`
 * is a string as spec 2.4 documents it (notes 5.5: clients accept both).
 */
import type { AccountTrade, Fill, NewOrderRespType, OrderSnapshot } from '../../../core/matching/index.ts';
import { wireId } from '../../wire-json.ts';

/** ACK (spec 4.5): the order was accepted. */
export function ackOf(o: OrderSnapshot, transactTime: number) {
  return { symbol: o.symbol, orderId: wireId(o.orderId), clientOrderId: o.clientOrderId, transactTime };
}

/** The order-state fields every non-ACK shape carries (spec 2.4), in the spec's order. */
function stateOf(o: OrderSnapshot) {
  return {
    price: o.price,
    origQty: o.origQty,
    executedQty: o.executedQty,
    cummulativeQuoteQty: o.cummulativeQuoteQty,
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    stopPrice: o.stopPrice,
    origQuoteOrderQty: o.origQuoteOrderQty,
  };
}

function fillOf(f: Fill) {
  return { price: f.price, qty: f.qty, commission: f.commission, commissionAsset: f.commissionAsset, tradeId: f.tradeId };
}

/** The new-order answer in the requested shape. */
export function newOrderBody(o: OrderSnapshot, fills: readonly Fill[], respType: NewOrderRespType, transactTime: number) {
  const ack = ackOf(o, transactTime);
  if (respType === 'ACK') return ack;
  const result = { ...ack, ...stateOf(o) };
  return respType === 'RESULT' ? result : { ...result, fills: fills.map(fillOf) };
}

/** Query, open and history orders (spec 2.4 with time, updateTime, isWorking). */
export function orderBody(o: OrderSnapshot) {
  return {
    symbol: o.symbol,
    orderId: wireId(o.orderId),
    clientOrderId: o.clientOrderId,
    ...stateOf(o),
    time: o.time,
    updateTime: o.updateTime,
    isWorking: o.isWorking,
  };
}

/**
 * A canceled order (cancel, cancel all, cancelReplace's cancelResponse): the notes 6 sample's
 * fields in the sample's order (origQuoteOrderQty before cummulativeQuoteQty, stpFlag before
 * stopPrice), so the three answers share the one shape the venue is seen to send.
 */
export function canceledBody(o: OrderSnapshot, transactTime: number) {
  return {
    ...ackOf(o, transactTime),
    price: o.price,
    origQty: o.origQty,
    executedQty: o.executedQty,
    origQuoteOrderQty: o.origQuoteOrderQty,
    cummulativeQuoteQty: o.cummulativeQuoteQty,
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    stpFlag: o.stpFlag,
    stopPrice: o.stopPrice,
  };
}

/** Spec 2.5. */
export function accountTradeBody(t: AccountTrade) {
  return {
    symbol: t.symbol,
    id: wireId(t.id),
    orderId: wireId(t.orderId),
    price: t.price,
    qty: t.qty,
    quoteQty: t.quoteQty,
    commission: t.commission,
    commissionAsset: t.commissionAsset,
    time: t.time,
    isBuyer: t.isBuyer,
    isMaker: t.isMaker,
    isBestMatch: t.isBestMatch,
  };
}
