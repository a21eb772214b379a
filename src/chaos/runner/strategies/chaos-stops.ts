/**
 * Chaos strategy: stop orders (issue 22 deliverable 1). Each tick, by the seeded draw: a
 * STOP_LOSS_LIMIT BUY 5-40 bps above the last price (it triggers when the market rises), or, while
 * it holds base, a STOP_LOSS_LIMIT SELL below it; the limit is 20 bps past the stop so a triggered
 * order usually trades. At `maxOpen` open (or one tick in four) it cancels its oldest instead.
 * Stops trigger on the market agents' trades, between the bot's own requests.
 */
import { D } from '../../../core/money/decimal.ts';
import { cancel, place } from '../../../strategy/index.ts';
import { defineChaosStrategy, nextDraw, offset, sellable } from './chaos-common.ts';

export default defineChaosStrategy('chaos-stops', (ctx, price) => {
  const draw = nextDraw(ctx.params);
  if (draw === undefined) return [];
  const { symbol } = ctx.params;
  const open = ctx.openOrders(symbol).filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
  if (open.length > 0 && (open.length >= ctx.params.maxOpen || draw.next() < 0.25)) {
    const oldest = open.reduce((a, b) => (b.time < a.time ? b : a));
    return [cancel({ symbol, clientOrderId: oldest.clientOrderId })];
  }
  const qty = ctx.instrument(symbol).roundQty(new D(ctx.params.quantity).times(draw.int(1, 3)));
  const sell = sellable(ctx).gte(qty) && draw.next() < 0.5;
  const bps = draw.int(5, 40);
  const stop = sell ? -bps : bps;
  return [
    place({
      symbol,
      side: sell ? 'SELL' : 'BUY',
      type: 'STOP_LOSS_LIMIT',
      timeInForce: 'GTC',
      quantity: qty,
      stopPrice: offset(ctx, price, stop),
      price: offset(ctx, price, stop + (sell ? -20 : 20)),
      tag: 's',
    }),
  ];
});
