/**
 * Matching-engine rejections that pre-trade checks can predict from the instrument alone
 * (spec 7.4, carried with -1010/-2010/-2011; texts verbatim): symbol not trading, order type not
 * enabled, price * quantity zero or less, and a LIMIT_MAKER that would take. These are not
 * filters, so they are reported apart from filter violations.
 */
import { ENGINE_MESSAGE } from './messages.ts';
import type { Instrument } from './instrument.ts';
import type { MarketContext, OrderCheckInput, OrderType } from './types.ts';
import { hasLimitPrice } from './types.ts';

export type OrderRule = 'symbol-status' | 'order-type' | 'price-qty' | 'post-only';

export interface RuleViolation {
  readonly rule: OrderRule;
  /** The venue's text, spec 7.4. */
  readonly message: string;
  readonly detail: string;
}

/** Spec 7.4 names a text per disabled type; LIMIT and LIMIT_MAKER have none listed. */
const NOT_SUPPORTED: Readonly<Record<OrderType, string>> = {
  MARKET: ENGINE_MESSAGE.marketNotSupported,
  STOP_LOSS: ENGINE_MESSAGE.stopLossNotSupported,
  STOP_LOSS_LIMIT: ENGINE_MESSAGE.stopLossLimitNotSupported,
  TAKE_PROFIT: ENGINE_MESSAGE.takeProfitNotSupported,
  TAKE_PROFIT_LIMIT: ENGINE_MESSAGE.takeProfitLimitNotSupported,
  LIMIT: ENGINE_MESSAGE.unsupportedCombination,
  LIMIT_MAKER: ENGINE_MESSAGE.unsupportedCombination,
};

/**
 * Every rule that fails, in a fixed order. The post-only rule needs the opposite best price
 * (bestBid/bestAsk or the book top); without it that rule is not evaluated.
 */
export function checkOrderRules(instrument: Instrument, order: OrderCheckInput, market: MarketContext = {}): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (instrument.status !== 'TRADING') {
    out.push({ rule: 'symbol-status', message: ENGINE_MESSAGE.marketClosed, detail: `${instrument.symbol} status is ${instrument.status}` });
  }
  if (instrument.orderTypes && !instrument.orderTypes.includes(order.type)) {
    const detail = `${order.type} is not among ${instrument.symbol} orderTypes [${instrument.orderTypes.join(', ')}]`;
    out.push({ rule: 'order-type', message: NOT_SUPPORTED[order.type], detail });
  }
  const { price, quantity } = order;
  if (hasLimitPrice(order.type) && price && quantity && !price.times(quantity).gt(0)) {
    const detail = `price ${price.toFixed()} * quantity ${quantity.toFixed()} is not above zero`;
    out.push({ rule: 'price-qty', message: ENGINE_MESSAGE.priceQtyZero, detail });
  }
  if (order.type === 'LIMIT_MAKER' && price) {
    const buy = order.side === 'BUY';
    const opposite = buy ? (market.bestAsk ?? market.asks?.[0]?.[0]) : (market.bestBid ?? market.bids?.[0]?.[0]);
    if (opposite && (buy ? price.gte(opposite) : price.lte(opposite))) {
      const detail = `LIMIT_MAKER ${order.side} at ${price.toFixed()} would cross ${buy ? 'bestAsk' : 'bestBid'} ${opposite.toFixed()}`;
      out.push({ rule: 'post-only', message: ENGINE_MESSAGE.wouldMatchAndTake, detail });
    }
  }
  return out;
}
