/**
 * Chaos strategy: resting LIMIT orders and cancels (issue 22 deliverable 1). Each tick, by the
 * seeded draw: with room (fewer than `maxOpen` open) a GTC LIMIT 5-60 bps off the last price on its
 * side of the book (one in ten priced through it, so it takes at once, partly or wholly), else a
 * cancel of one of its open orders. The market agents' taker trades through the book and fills the
 * resting ones over time. Sells only what it holds (sellable), else it buys.
 */
import { D } from '../../../core/money/decimal.ts';
import { cancel, place } from '../../../strategy/index.ts';
import { pick } from '../prng.ts';
import { defineChaosStrategy, nextDraw, offset, sellable } from './chaos-common.ts';

export default defineChaosStrategy('chaos-limits', (ctx, price) => {
  const draw = nextDraw(ctx.params);
  if (draw === undefined) return [];
  const { symbol } = ctx.params;
  const open = ctx.openOrders(symbol).filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
  const roll = draw.next();
  if (open.length > 0 && (open.length >= ctx.params.maxOpen || roll < 0.3)) {
    return [cancel({ symbol, clientOrderId: pick(draw, open).clientOrderId })];
  }
  const qty = ctx.instrument(symbol).roundQty(new D(ctx.params.quantity).times(draw.int(1, 4)));
  const sell = sellable(ctx).gte(qty) && draw.next() < 0.5;
  const through = draw.next() < 0.1;
  const bps = draw.int(5, 60) * (through ? -0.5 : 1);
  const px = offset(ctx, price, sell ? bps : -bps);
  return [place({ symbol, side: sell ? 'SELL' : 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: qty, price: px, tag: 'l' })];
});
