/**
 * The strategy testing kit: a harness that drives a strategy through its runner with a paper
 * venue, a fake state view, test instruments, and the canned synthetic markets of core/synthetic.
 */
export { StrategyHarness } from './harness.ts';
export type { HarnessOptions, PaperOrder, RecordedIntent } from './harness.ts';
export { FakeStateView } from './fake-state.ts';
export type { FakeStateInit } from './fake-state.ts';
export { testInstrument } from './test-instrument.ts';
export { candlesFromCloses } from './test-candles.ts';
export type { CandleListOptions } from './test-candles.ts';
export type { TestInstrumentSpec } from './test-instrument.ts';
export { CANNED_MARKETS, crash, downThenUp, flat, generateCandles, generateSeries, minuteYear, sharpDown, sharpUp, slowDown, slowUp, upThenDown } from '../../core/synthetic/index.ts';
