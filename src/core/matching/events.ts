/**
 * Builders of the engine's order-update and trade events (types.ts). They only run when the
 * engine records events; formatting decimal strings is the costly part of an operation. With an
 * account stream instead (account-stream.ts) an order update goes to the stream and a public
 * trade nowhere.
 */
import type { Trade } from './accounts/account-book.ts';
import type { OpContext } from './op-context.ts';
import type { Order } from './book/order.ts';
import type { EngineEvent, ExecutionType, OrderUpdateEvent } from './types.ts';

export function orderEvent(ctx: OpContext, o: Order, x: ExecutionType, t: Trade | null, cause: OrderUpdateEvent['cause'] = null): void {
  if (!ctx.record) {
    // The account stream, if any, takes its own account's reports (account-stream.ts).
    const stream = ctx.stream;
    if (stream !== null && o.acct.accountId === stream.accountId) stream.order(o, x, t, cause, ctx.time);
    return;
  }
  const spec = o.sb.spec;

  ctx.push({
    kind: 'order',
    accountId: o.acct.accountId,
    symbol: spec.symbol,
    time: ctx.time,
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    side: o.side,
    type: o.type,
    timeInForce: o.tif,
    quantity: o.origQtyText,
    price: o.priceText,
    stopPrice: o.stopPriceText,
    quoteOrderQty: o.quoteQtyText,
    executionType: x,
    status: o.status,
    rejectReason: 'NONE',
    lastQty: t === null ? '0' : t.qtyText,
    lastPrice: t === null ? '0' : t.priceText,
    lastQuoteQty: t === null ? '0' : t.quoteText,
    cumQty: o.sb.qtyTexts.get(o.executed),
    cumQuoteQty: o.cumQuoteText,
    commission: t === null ? '0' : o.isBuy ? t.buyerFeeText : t.sellerFeeText,
    commissionAsset: t === null ? null : o.isBuy ? spec.baseAsset : spec.quoteAsset,
    tradeId: t === null ? '-1' : t.id,
    isWorking: o.working,
    // On the book now; an order that reaches it later in this operation is marked by reportResting.
    onBook: o.level !== null,
    isMaker: t !== null && (t.buyerIsMaker === o.isBuy),
    orderTime: o.time,
    cause,
  });
}

/**
 * `o` has just been put on the book: its reports of this operation from its NEW on (the NEW,
 * then its fills as a taker) were built before it got there, and now say it rests (notes 4.1
 * `w`, whose sample NEW of a resting LIMIT GTC order has w true). Nobody has seen them yet: the
 * events are delivered when the operation ends.
 */
export function reportResting(ctx: OpContext, o: Order): void {
  if (!ctx.record) return;
  const events = ctx.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as EngineEvent;
    if (e.kind !== 'order' || e.orderId !== o.id) continue;
    (e as { onBook: boolean }).onBook = true;
    if (e.executionType === 'NEW') return;
  }
}

export function tradeEvent(ctx: OpContext, t: Trade, taker: Order | null): void {
  if (!ctx.record) return;
  ctx.push({
    kind: 'trade',
    symbol: t.spec.symbol,
    tradeId: t.id,
    price: t.priceText,
    qty: t.qtyText,
    quoteQty: t.quoteText,
    time: t.time,
    buyerOrderId: t.buyer?.id ?? '',
    sellerOrderId: t.seller?.id ?? '',
    buyerAccountId: t.buyer?.acct.accountId ?? null,
    sellerAccountId: t.seller?.acct.accountId ?? null,
    buyerIsMaker: t.buyerIsMaker,
    // A print fills resting orders only: the outside taker has no id, the aggregate is the maker's.
    takerOrderId: taker?.id ?? (t.buyerIsMaker ? t.buyer?.id : t.seller?.id) ?? '',
    external: t.buyer === null || t.seller === null,
  });
}
