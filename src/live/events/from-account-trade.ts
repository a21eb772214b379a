/**
 * A myTrades row (spec 2.5 account trade) -> the `fill` an executionReport TRADE maps to
 * (from-execution-report.ts). A row says nothing of the order's client id nor of its progress
 * after the trade: the caller (the resync) knows the order and computes the cumulative quantity
 * and quote and the status from every trade of the order up to this one.
 */
import type { AccountTrade } from '../../exchange/codecs/order.ts';
import type { VenueFillEvent } from '../../ports/venue.ts';

export interface FillProgress {
  readonly clientOrderId: string;
  readonly orderStatus: VenueFillEvent['orderStatus'];
  readonly cumulativeQty: string;
  readonly cumulativeQuoteQty: string;
}

export function fromAccountTrade(t: AccountTrade, p: FillProgress): VenueFillEvent {
  return {
    kind: 'fill',
    symbol: t.symbol,
    clientOrderId: p.clientOrderId,
    orderId: t.orderId,
    tradeId: t.id,
    side: t.isBuyer ? 'BUY' : 'SELL',
    price: t.price,
    qty: t.qty,
    quoteQty: t.quoteQty,
    commission: t.commission,
    commissionAsset: t.commissionAsset,
    isMaker: t.isMaker,
    orderStatus: p.orderStatus,
    cumulativeQty: p.cumulativeQty,
    cumulativeQuoteQty: p.cumulativeQuoteQty,
    time: t.time,
  };
}
