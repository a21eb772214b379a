/**
 * The spec 2.3 filter table as data: filterType -> parser and checker. Adding a filter type is
 * one file plus one line here; anything not listed is an unknown filter, reported by callers.
 */
import type { RawObject } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { checkLotSize, parseLotSize } from './lot-size.ts';
import type { LotSize } from './lot-size.ts';
import { checkMaxNumAlgoOrders, parseMaxNumAlgoOrders } from './max-num-algo-orders.ts';
import type { MaxNumAlgoOrders } from './max-num-algo-orders.ts';
import { checkMaxNumOrders, parseMaxNumOrders } from './max-num-orders.ts';
import type { MaxNumOrders } from './max-num-orders.ts';
import { checkMinNotional, parseMinNotional } from './min-notional.ts';
import type { MinNotional } from './min-notional.ts';
import { checkNotional, parseNotional } from './notional.ts';
import type { NotionalFilter } from './notional.ts';
import { checkPercentPrice, parsePercentPrice } from './percent-price.ts';
import type { PercentPrice } from './percent-price.ts';
import { checkPercentPriceBySide, parsePercentPriceBySide } from './percent-price-by-side.ts';
import type { PercentPriceBySide } from './percent-price-by-side.ts';
import { checkPercentPriceIndex, parsePercentPriceIndex } from './percent-price-index.ts';
import type { PercentPriceIndex } from './percent-price-index.ts';
import { checkPercentPriceOrderSize, parsePercentPriceOrderSize } from './percent-price-order-size.ts';
import type { PercentPriceOrderSize } from './percent-price-order-size.ts';
import { checkPercentPriceSa, parsePercentPriceSa } from './percent-price-sa.ts';
import type { PercentPriceSa } from './percent-price-sa.ts';
import { checkPriceFilter, parsePriceFilter } from './price-filter.ts';
import type { PriceFilter } from './price-filter.ts';
import { checkStaticPriceRange, parseStaticPriceRange } from './static-price-range.ts';
import type { StaticPriceRange } from './static-price-range.ts';

export type SymbolFilter =
  | PriceFilter
  | PercentPrice
  | PercentPriceSa
  | PercentPriceBySide
  | PercentPriceIndex
  | PercentPriceOrderSize
  | StaticPriceRange
  | LotSize
  | NotionalFilter
  | MinNotional
  | MaxNumOrders
  | MaxNumAlgoOrders;
export type FilterType = SymbolFilter['filterType'];
export type FilterOf<T extends FilterType> = Extract<SymbolFilter, { filterType: T }>;

type Checker<F> = (f: F, order: OrderCheckInput, market?: MarketContext, skipped?: SkipSink) => FilterViolation[];
interface Entry<F> {
  readonly parse: (raw: RawObject, path: string) => F;
  readonly check: Checker<F>;
}

const FILTERS: { readonly [T in FilterType]: Entry<FilterOf<T>> } = {
  PRICE_FILTER: { parse: parsePriceFilter, check: checkPriceFilter },
  PERCENT_PRICE: { parse: parsePercentPrice, check: checkPercentPrice },
  PERCENT_PRICE_SA: { parse: parsePercentPriceSa, check: checkPercentPriceSa },
  PERCENT_PRICE_BY_SIDE: { parse: parsePercentPriceBySide, check: checkPercentPriceBySide },
  PERCENT_PRICE_INDEX: { parse: parsePercentPriceIndex, check: checkPercentPriceIndex },
  PERCENT_PRICE_ORDER_SIZE: { parse: parsePercentPriceOrderSize, check: checkPercentPriceOrderSize },
  STATIC_PRICE_RANGE: { parse: parseStaticPriceRange, check: checkStaticPriceRange },
  LOT_SIZE: { parse: parseLotSize, check: checkLotSize },
  NOTIONAL: { parse: parseNotional, check: checkNotional },
  MIN_NOTIONAL: { parse: parseMinNotional, check: checkMinNotional },
  MAX_NUM_ORDERS: { parse: parseMaxNumOrders, check: checkMaxNumOrders },
  MAX_NUM_ALGO_ORDERS: { parse: parseMaxNumAlgoOrders, check: checkMaxNumAlgoOrders },
};

export const FILTER_TYPES = Object.keys(FILTERS) as readonly FilterType[];

export function isKnownFilterType(filterType: string): filterType is FilterType {
  return Object.hasOwn(FILTERS, filterType);
}

/** Parse a filter object whose filterType is known; fields are read from `raw`, errors name `path`. */
export function parseFilter(filterType: FilterType, raw: RawObject, path: string): SymbolFilter {
  return FILTERS[filterType].parse(raw, path);
}

/** Run one filter's checker; checks it cannot run are pushed onto `skipped`. */
export function checkFilter(filter: SymbolFilter, order: OrderCheckInput, market: MarketContext, skipped: SkipSink): FilterViolation[] {
  // The table pairs each filterType with its own checker, so this widening is sound.
  const entry = FILTERS[filter.filterType] as Entry<SymbolFilter>;
  return entry.check(filter, order, market, skipped);
}
