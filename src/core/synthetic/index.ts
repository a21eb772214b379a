/**
 * Public surface of core/synthetic: a seeded PRNG and a generator of OHLCV bars with regimes,
 * plus canned markets for strategy tests. Pure and deterministic.
 */
export { mulberry32, seedOf } from './prng.ts';
export type { Prng, Seed } from './prng.ts';
export { formatUnits, toUnits, unitGrid } from './grid.ts';
export type { UnitGrid } from './grid.ts';
export { REGIMES, REGIME_NAMES, regimeParams } from './regimes.ts';
export type { RegimeName, RegimeParams, Segment } from './regimes.ts';
export { DEFAULT_START_TIME, SyntheticSeries, generateCandles, generateSeries } from './generate.ts';
export type { GenerateOptions, SyntheticCandle } from './generate.ts';
export { CANNED_MARKETS, MINUTES_PER_YEAR, crash, downThenUp, flat, minuteYear, sharpDown, sharpUp, slowDown, slowUp, upThenDown } from './canned.ts';
export type { CannedMarket, CannedMarketName, CannedOptions } from './canned.ts';
