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

/** price * quantity, its explaining text built only when read (a violation message). */
class Product {
  readonly value: Dec;

  constructor(
    private readonly name: string,
    private readonly p: Dec,
    private readonly q: Dec,
  ) {
    this.value = p.times(q);
  }

  get text(): string {
    return `notional ${w(this.value)} (${this.name} ${w(this.p)} * quantity ${w(this.q)})`;
  }
}

class QuoteNotional {
  constructor(readonly value: Dec) {}

  get text(): string {
    return `notional ${w(this.value)} (quoteOrderQty)`;
  }
}

export function notionalOf(order: OrderCheckInput, market: MarketContext): Notional {
  const { price, quantity: qty, quoteOrderQty: quote } = order;
  if (hasLimitPrice(order.type)) {
    return price && qty ? new Product('price', price, qty) : { skip: `${order.type} order without price and quantity` };
  }
  if (quote) return new QuoteNotional(quote);
  if (!qty) return { skip: `${order.type} order without quantity or quoteOrderQty` };
  if (order.type !== 'MARKET' && order.stopPrice) return new Product('stopPrice', order.stopPrice, qty);
  if (market.lastPrice) return new Product('lastPrice', market.lastPrice, qty);
  if (market.weightedAvgPrice) return new Product('weightedAvgPrice', market.weightedAvgPrice, qty);
  return { skip: `${order.type} order notional needs quoteOrderQty, lastPrice or weightedAvgPrice` };
}
