/**
 * PERCENT_PRICE_BY_SIDE (spec 2.3), against lastPrice:
 * BUY: bidMultiplierDown * lastPrice <= price <= bidMultiplierUp * lastPrice;
 * SELL: askMultiplierDown * lastPrice <= price <= askMultiplierUp * lastPrice.
 * Skipped without a last price. No listed 7.5 text: `Filter failure: PERCENT_PRICE_BY_SIDE`.
 */
import type { Dec } from '../../money/decimal.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { checkBounds, limitPrice, scaled } from './common.ts';

export interface PercentPriceBySide {
  readonly filterType: 'PERCENT_PRICE_BY_SIDE';
  readonly bidMultiplierUp: Dec;
  readonly bidMultiplierDown: Dec;
  readonly askMultiplierUp: Dec;
  readonly askMultiplierDown: Dec;
}

export function parsePercentPriceBySide(raw: RawObject, path: string): PercentPriceBySide {
  return {
    filterType: 'PERCENT_PRICE_BY_SIDE',
    bidMultiplierUp: readDecimal(raw, 'bidMultiplierUp', path),
    bidMultiplierDown: readDecimal(raw, 'bidMultiplierDown', path),
    askMultiplierUp: readDecimal(raw, 'askMultiplierUp', path),
    askMultiplierDown: readDecimal(raw, 'askMultiplierDown', path),
  };
}

export function checkPercentPriceBySide(f: PercentPriceBySide, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  const price = limitPrice(order);
  if (!price) return [];
  const last = market.lastPrice;
  if (!last) {
    skipped.push('lastPrice unknown');
    return [];
  }
  const buy = order.side === 'BUY';
  const side = buy ? 'bid' : 'ask';
  const up = buy ? f.bidMultiplierUp : f.askMultiplierUp;
  const down = buy ? f.bidMultiplierDown : f.askMultiplierDown;
  const lower = scaled('lastPrice', last, `${side}MultiplierDown`, down);
  const upper = scaled('lastPrice', last, `${side}MultiplierUp`, up);
  return checkBounds(f.filterType, 'price', price, lower, upper);
}
