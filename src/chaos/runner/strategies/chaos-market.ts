/**
 * Chaos strategy: MARKET orders (issue 22 deliverable 1). Each tick one market order, BUY or SELL
 * by the seeded draw, sized in base (`quantity` times 1-3) or, for a third of the buys, in quote
 * (quoteOrderQty, what that base costs at the last price); it sells only what it holds, so its
 * position stays within 0..10 orders' worth and no sell is denied for want of base.
 */
import { D } from '../../../core/money/decimal.ts';
import { place } from '../../../strategy/index.ts';
import { defineChaosStrategy, nextDraw, sellable } from './chaos-common.ts';

export default defineChaosStrategy('chaos-market', (ctx, price) => {
  const draw = nextDraw(ctx.params);
  if (draw === undefined) return [];
  const { symbol } = ctx.params;
  const inst = ctx.instrument(symbol);
  const qty = inst.roundQty(new D(ctx.params.quantity).times(draw.int(1, 3)));
  const held = sellable(ctx);
  const full = held.gte(new D(ctx.params.quantity).times(10));
  const sell = full || (held.gte(qty) && draw.next() < 0.5);
  if (sell) return [place({ symbol, side: 'SELL', type: 'MARKET', quantity: qty, tag: 'm' })];
  if (draw.next() < 0.33) return [place({ symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: inst.roundPrice(price.times(qty), 'up'), tag: 'm' })];
  return [place({ symbol, side: 'BUY', type: 'MARKET', quantity: qty, tag: 'm' })];
});
