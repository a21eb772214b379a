/**
 * Public surface of core/market: instruments from exchangeInfo (spec 2.2), the spec 2.3 filters,
 * the pre-trade filter engine, and the venue's rejection texts (spec 7.4, 7.5).
 */
export { parseInstrument, parseInstruments } from './instrument.ts';
export type { Instrument, SymbolStatus } from './instrument.ts';
export { InstrumentParseError } from './parse-fields.ts';
export { checkOrder } from './filter-engine.ts';
export type { OrderCheckResult } from './filter-engine.ts';
export { checkOrderRules } from './order-rules.ts';
export type { OrderRule, RuleViolation } from './order-rules.ts';
export { estimatePriceAfterFill } from './book-walk.ts';
export type { FillEstimate } from './book-walk.ts';
export { FILTER_TYPES, checkFilter, isKnownFilterType, parseFilter } from './filters/index.ts';
export type { FilterOf, FilterType, SymbolFilter } from './filters/index.ts';
export type { PriceFilter } from './filters/price-filter.ts';
export type { PercentPrice } from './filters/percent-price.ts';
export type { PercentPriceSa } from './filters/percent-price-sa.ts';
export type { PercentPriceBySide } from './filters/percent-price-by-side.ts';
export type { PercentPriceIndex } from './filters/percent-price-index.ts';
export type { PercentPriceOrderSize } from './filters/percent-price-order-size.ts';
export type { StaticPriceRange } from './filters/static-price-range.ts';
export type { LotSize } from './filters/lot-size.ts';
export type { NotionalFilter } from './filters/notional.ts';
export type { MinNotional } from './filters/min-notional.ts';
export type { MaxNumOrders } from './filters/max-num-orders.ts';
export type { MaxNumAlgoOrders } from './filters/max-num-algo-orders.ts';
export { ENGINE_MESSAGE, FILTER_FAILURE, filterFailureMessage } from './messages.ts';
export { ALGO_ORDER_TYPES, ORDER_TYPES, PRICED_ORDER_TYPES, hasLimitPrice, isAlgoOrder } from './types.ts';
export type {
  BookLevel,
  FilterField,
  FilterViolation,
  MarketContext,
  OrderCheckInput,
  OrderSide,
  OrderType,
  SkippedCheck,
  ViolationReason,
} from './types.ts';
export * from './intervals.ts';
