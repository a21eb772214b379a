/**
 * Chaos strategy: cancel-replace (issue 22 deliverable 1; protocol notes: POST
 * /openapi/v1/order/cancelReplace). It keeps one quote, tag `q`: placed when it has none (the last
 * one filled or was cancelled), else moved each tick with a cancelReplace to a new price 2-40 bps
 * behind the last price, sometimes with a new size. Close quotes get filled by the market agents'
 * taker, so replaces race fills. A bid by default; an ask while it holds enough to sell.
 */
import { D } from '../../../core/money/decimal.ts';
import { cancelReplace, place } from '../../../strategy/index.ts';
import { defineChaosStrategy, nextDraw, offset, sellable } from './chaos-common.ts';

export default defineChaosStrategy('chaos-replace', (ctx, price) => {
  // Wait while the quote's last command is unanswered: a replace of an order not yet acknowledged races its own placement.
  const quote = ctx.openOrders(ctx.params.symbol).find((o) => o.tag === 'q');
  if (quote !== undefined && quote.status !== 'NEW' && quote.status !== 'PARTIALLY_FILLED') return [];
  const draw = nextDraw(ctx.params);
  if (draw === undefined) return [];
  const { symbol } = ctx.params;
  const qty = ctx.instrument(symbol).roundQty(new D(ctx.params.quantity).times(draw.int(1, 3)));
  const sell = sellable(ctx).plus(quote?.side === 'SELL' ? (quote.origQty ?? new D(0)).minus(quote.executedQty) : 0).gte(qty) && draw.next() < 0.4;
  const bps = draw.int(2, 40);
  const order = { side: sell ? ('SELL' as const) : ('BUY' as const), type: 'LIMIT' as const, timeInForce: 'GTC' as const, quantity: qty, price: offset(ctx, price, sell ? bps : -bps) };
  if (quote === undefined) return [place({ symbol, ...order, tag: 'q' })];
  return [cancelReplace({ symbol, tag: 'q', order })];
});
