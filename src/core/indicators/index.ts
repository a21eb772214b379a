/**
 * Public surface of core/indicators: incremental indicators (one `update` per closed bar) and
 * their batch forms over arrays. Pure: numbers in, numbers out.
 */
export { CANDLE_FIELDS, candleFromText } from './candle.ts';
export type { Candle, CandleField, CandleText, Hlc } from './candle.ts';
export { BaseIndicator, checkPeriod, runSeries, SteppedIndicator } from './indicator.ts';
export type { Indicator } from './indicator.ts';
export { Sma, sma } from './sma.ts';
export { Ema, ema } from './ema.ts';
export { Rsi, rsi } from './rsi.ts';
export { Atr, atr, trueRange } from './atr.ts';
export { Bollinger, bollinger } from './bollinger.ts';
export type { BollingerBands } from './bollinger.ts';
export { Highest, Lowest, highest, lowest } from './extremes.ts';
export { StdDev, stddev } from './stddev.ts';
export { Macd, macd } from './macd.ts';
export type { MacdValue } from './macd.ts';
export { Stochastic, stochastic } from './stochastic.ts';
export type { StochasticValue } from './stochastic.ts';
export { Adx, adx } from './adx.ts';
export type { AdxValue } from './adx.ts';
export { Vwap, vwap } from './vwap.ts';
export type { Hlcv } from './vwap.ts';
export { CrossDetector, crossedAbove, crossedBelow } from './cross.ts';
export type { Crossing } from './cross.ts';
