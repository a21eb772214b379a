/**
 * Spec 4.5 order queries and cancels: GET/DELETE order, GET/DELETE openOrders, historyOrders,
 * myTrades, asset/tradeFee.
 *
 * GET and DELETE order take no symbol in the spec, so the order is looked up on every symbol (a
 * `symbol` sent anyway, as Binance-style clients do, narrows the search). `orderId` wins over
 * `origClientOrderId`. By client id GET answers the one order as an object, or an array (oldest
 * first, spec 1.2) when several orders used that id (spec 4.5); DELETE cancels the newest open one.
 * Unknown order: GET -2013 "Order does not exist." (spec 7.3 NO_SUCH_ORDER), DELETE the engine's
 * -2011 "Unknown order sent." (spec 7.4).
 */
import { ENGINE_MESSAGE } from '../../../core/market/index.ts';
import { compareIds, type OrderRef, type OrderSnapshot, type SpotEngine } from '../../../core/matching/index.ts';
import { defineHandlers, VenueError, type HandlerContext } from '../../http/route-types.ts';
import { accountIdOf, engineOf, int, optionalSymbol, rejected, requiredSymbol, str } from './context.ts';
import { accountTradeBody, canceledBody, orderBody } from './wire.ts';

const isOpen = (o: OrderSnapshot) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
const oldestFirst = (a: OrderSnapshot, b: OrderSnapshot) => a.time - b.time || compareIds(a.orderId, b.orderId);

function refOf(ctx: HandlerContext): OrderRef {
  const orderId = str(ctx.params['orderId']);
  return orderId !== undefined ? { orderId } : { clientOrderId: str(ctx.params['origClientOrderId']) };
}

function findOrders(ctx: HandlerContext, engine: SpotEngine, accountId: string): OrderSnapshot[] {
  const only = optionalSymbol(ctx);
  const ref = refOf(ctx);
  return (only === undefined ? engine.symbols() : [only]).flatMap((s) => engine.order(accountId, s, ref)).sort(oldestFirst);
}

export const queryHandlers = defineHandlers({
  'spot.queryOrder': (ctx) => {
    const found = findOrders(ctx, engineOf(ctx), accountIdOf(ctx));
    const [first] = found;
    if (first === undefined) throw new VenueError(-2013, 'Order does not exist.');
    return found.length === 1 ? orderBody(first) : found.map(orderBody);
  },

  'spot.cancelOrder': (ctx) => {
    const engine = engineOf(ctx);
    const accountId = accountIdOf(ctx);
    const found = findOrders(ctx, engine, accountId);
    const target = found.findLast(isOpen) ?? found.at(-1);
    if (target === undefined) throw rejected({ code: -2011, msg: ENGINE_MESSAGE.unknownOrder });
    const r = engine.cancelOrder(accountId, target.symbol, { orderId: target.orderId }, ctx.now);
    if (!r.ok) throw rejected(r);
    return canceledBody(r.order, ctx.now);
  },

  'spot.cancelOpenOrders': (ctx) => {
    const r = engineOf(ctx).cancelAll(accountIdOf(ctx), requiredSymbol(ctx), ctx.now);
    return r.orders.map((o) => canceledBody(o, ctx.now));
  },

  'spot.openOrders': (ctx) => engineOf(ctx).openOrders(accountIdOf(ctx), optionalSymbol(ctx)).map(orderBody),

  'spot.historyOrders': (ctx) => {
    const p = ctx.params;
    const q = { orderId: str(p['orderId']), startTime: int(p['startTime']), endTime: int(p['endTime']), limit: int(p['limit']) };
    return engineOf(ctx).historyOrders(accountIdOf(ctx), requiredSymbol(ctx), q).map(orderBody);
  },

  'spot.myTrades': (ctx) => {
    const p = ctx.params;
    const q = { orderId: str(p['orderId']), fromId: str(p['fromId']), startTime: int(p['startTime']), endTime: int(p['endTime']), limit: int(p['limit']) };
    return engineOf(ctx).myTrades(accountIdOf(ctx), requiredSymbol(ctx), q).map(accountTradeBody);
  },

  /** Per-symbol rates from the configuration (`symbols[].fees`); one symbol or all. */
  'spot.tradeFee': (ctx) => {
    const only = optionalSymbol(ctx);
    return ctx.sandbox.config.symbols
      .filter((s) => only === undefined || s.symbol === only)
      .map((s) => ({ symbol: s.symbol, makerCommission: s.fees.maker, takerCommission: s.fees.taker }));
  },
});
