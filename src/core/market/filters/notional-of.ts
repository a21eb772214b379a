/**
 * The notional (price * quantity, spec 2.3 NOTIONAL and MIN_NOTIONAL) of an order before it
 * trades. Priced orders use their limit price. Orders that execute at the market use, in order:
 * quoteOrderQty; quantity * stopPrice for stop-market orders (they fire near the stop);
 * quantity * lastPrice; quantity * weightedAvgPrice. Otherwise the check must be skipped.
 */
import type { Dec } from '../../money/decimal.ts';
import type { MarketContext, OrderCheckInput } from '../types.ts';
import { hasLimitPrice } from '../types.ts';
import { w } from './common.ts';

export type Notional = { readonly value: Dec; readonly text: string } | { readonly skip: string };

export function notionalOf(order: OrderCheckInput, market: MarketContext): Notional {
  const { price, quantity: qty, quoteOrderQty: quote } = order;
  const product = (name: string, p: Dec, q: Dec) => {
    const value = p.times(q);
    return { value, text: `notional ${w(value)} (${name} ${w(p)} * quantity ${w(q)})` };
  };
  if (hasLimitPrice(order.type)) {
    return price && qty ? product('price', price, qty) : { skip: `${order.type} order without price and quantity` };
  }
  if (quote) return { value: quote, text: `notional ${w(quote)} (quoteOrderQty)` };
  if (!qty) return { skip: `${order.type} order without quantity or quoteOrderQty` };
  if (order.type !== 'MARKET' && order.stopPrice) return product('stopPrice', order.stopPrice, qty);
  if (market.lastPrice) return product('lastPrice', market.lastPrice, qty);
  if (market.weightedAvgPrice) return product('weightedAvgPrice', market.weightedAvgPrice, qty);
  return { skip: `${order.type} order notional needs quoteOrderQty, lastPrice or weightedAvgPrice` };
}
