/**
 * Market data derived from the sandbox's own trades (spec 2.6, 4.4; notes 4, 5). See store.ts.
 */
export { MarketDataStore } from './store.ts';
export { KLINE_INTERVALS, isKlineInterval, periodOpen, periodClose, type KlineInterval } from '../../core/market/intervals.ts';
export { KLINE_LIMIT_DEFAULT, KLINE_LIMIT_MAX, type KlineQuery, type KlineRow } from './kline-series.ts';
export { TRADES_LIMIT_DEFAULT, TRADES_LIMIT_MAX } from './trade-ring.ts';
export type { BookSource, DepthSnapshot, Level, MarketDataOptions, MarketDataVariants } from './types.ts';
