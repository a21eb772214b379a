/**
 * STATIC_PRICE_RANGE (spec 2.3): priceDown <= price <= priceUp, fixed bounds needing no market
 * data. A zero priceUp is treated as disabled. No listed 7.5 text: `Filter failure: STATIC_PRICE_RANGE`.
 */
import type { Dec } from '../../money/decimal.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { bound, checkBounds, limitPrice } from './common.ts';

export interface StaticPriceRange {
  readonly filterType: 'STATIC_PRICE_RANGE';
  readonly priceUp: Dec;
  readonly priceDown: Dec;
}

export function parseStaticPriceRange(raw: RawObject, path: string): StaticPriceRange {
  return { filterType: 'STATIC_PRICE_RANGE', priceUp: readDecimal(raw, 'priceUp', path), priceDown: readDecimal(raw, 'priceDown', path) };
}

export function checkStaticPriceRange(f: StaticPriceRange, order: OrderCheckInput, _market: MarketContext = {}, _skipped: SkipSink = []): FilterViolation[] {
  const price = limitPrice(order);
  if (!price) return [];
  return checkBounds(f.filterType, 'price', price, bound('priceDown', f.priceDown), bound('priceUp', f.priceUp));
}
