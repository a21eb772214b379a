/**
 * The strategy testing kit, on the real engine (the kernel, the order manager's pre-trade checks,
 * the simulated venue's matching engine): a hand-driven harness, `runOnRegime` to backtest a
 * strategy on a canned synthetic market, a fake state view for runner-level tests, test
 * instruments and candles, and the canned markets of core/synthetic.
 */
export { StrategyHarness } from './harness.ts';
export type { HarnessOptions, PaperOrder, RecordedIntent } from './harness.ts';
export { HarnessView } from './harness-view.ts';
export { runOnRegime } from './run-on-regime.ts';
export type { RegimeRun, RegimeRunOptions, SymbolMarkets } from './run-on-regime.ts';
export type { IntentRecord } from '../../backtest/run/run-backtest.ts';
export type { BacktestMetrics, BacktestRun } from '../../backtest/types.ts';
export { FakeStateView } from './fake-state.ts';
export type { FakeStateInit } from './fake-state.ts';
export { testInstrument } from './test-instrument.ts';
export { candlesFromCloses } from './test-candles.ts';
export type { CandleListOptions } from './test-candles.ts';
export type { TestInstrumentSpec } from './test-instrument.ts';
export { CANNED_MARKETS, crash, downThenUp, flat, generateCandles, generateSeries, minuteYear, sharpDown, sharpUp, slowDown, slowUp, upThenDown } from '../../core/synthetic/index.ts';
export type { CannedMarketName } from '../../core/synthetic/index.ts';
