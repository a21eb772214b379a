/**
 * Estimate of "the market price after the fill" for PERCENT_PRICE_ORDER_SIZE (spec 2.3): the last
 * price an order would trade at, walking the opposite side of the book best level first.
 *
 * Assumptions: the book is what the caller passes (no hidden liquidity, no queue effects); a
 * limit price stops the walk at the first level beyond it; an order larger than the visible
 * book ends at the deepest level; levels with zero quantity are ignored.
 */
import type { Dec } from '../money/decimal.ts';
import type { MarketContext, OrderCheckInput } from './types.ts';
import { hasLimitPrice } from './types.ts';

export type FillEstimate =
  | { readonly kind: 'fill'; readonly price: Dec }
  | { readonly kind: 'no-fill' }
  | { readonly kind: 'unknown'; readonly why: string };

export function estimatePriceAfterFill(order: OrderCheckInput, market: MarketContext): FillEstimate {
  if (market.priceAfterFill) {
    const price = market.priceAfterFill(order);
    return price ? { kind: 'fill', price } : { kind: 'no-fill' };
  }
  const buy = order.side === 'BUY';
  const levels = buy ? market.asks : market.bids;
  if (!levels) return { kind: 'unknown', why: `${buy ? 'asks' : 'bids'} unknown (needed to estimate the price after the fill)` };
  // Size by base quantity when given; MARKET orders may be sized in quote instead.
  let left = order.quantity ?? order.quoteOrderQty;
  const inQuote = order.quantity === undefined;
  if (!left) return { kind: 'unknown', why: 'order has neither quantity nor quoteOrderQty' };
  const limit = hasLimitPrice(order.type) ? order.price : undefined;
  let last: Dec | undefined;
  for (const [price, qty] of levels) {
    if (limit && (buy ? price.gt(limit) : price.lt(limit))) break;
    if (!qty.gt(0)) continue;
    last = price;
    left = left.minus(inQuote ? price.times(qty) : qty);
    if (!left.gt(0)) break;
  }
  return last ? { kind: 'fill', price: last } : { kind: 'no-fill' };
}
