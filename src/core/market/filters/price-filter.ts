/**
 * PRICE_FILTER (spec 2.3): price and stopPrice must be >= minPrice, <= maxPrice and
 * (value - minPrice) % tickSize == 0. Zero minPrice, maxPrice or tickSize disables that part.
 * Spec 7.5 text: `Filter failure: PRICE_FILTER`.
 */
import type { Dec } from '../../money/decimal.ts';
import { onGrid } from '../decimal-grid.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { bound, checkBounds, violation, w } from './common.ts';

export interface PriceFilter {
  readonly filterType: 'PRICE_FILTER';
  readonly minPrice: Dec;
  readonly maxPrice: Dec;
  readonly tickSize: Dec;
}

export function parsePriceFilter(raw: RawObject, path: string): PriceFilter {
  return {
    filterType: 'PRICE_FILTER',
    minPrice: readDecimal(raw, 'minPrice', path),
    maxPrice: readDecimal(raw, 'maxPrice', path),
    tickSize: readDecimal(raw, 'tickSize', path),
  };
}

function checkValue(f: PriceFilter, field: 'price' | 'stopPrice', value: Dec): FilterViolation[] {
  const out = checkBounds(f.filterType, field, value, bound('minPrice', f.minPrice), bound('maxPrice', f.maxPrice));
  if (!f.tickSize.isZero() && !onGrid(value, f.tickSize, f.minPrice)) {
    const detail = `${field} ${w(value)} is not a multiple of tickSize ${w(f.tickSize)} above minPrice ${w(f.minPrice)}`;
    out.push(violation(f.filterType, field, 'off-tick', detail));
  }
  return out;
}

/** Checks whichever of price and stopPrice the order carries; it needs no market data. */
export function checkPriceFilter(f: PriceFilter, order: OrderCheckInput, _market: MarketContext = {}, _skipped: SkipSink = []): FilterViolation[] {
  return [
    ...(order.price ? checkValue(f, 'price', order.price) : []),
    ...(order.stopPrice ? checkValue(f, 'stopPrice', order.stopPrice) : []),
  ];
}
