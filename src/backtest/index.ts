/**
 * Public surface of the backtester's simulation: `runBacktest` (the one code path with the
 * simulated venue), the fill model, the sources (journal, synthetic), the simulated venue, and the
 * result contract (types.ts). Metrics, report and sweeps have their own modules.
 */
export { runBacktest } from './run/run-backtest.ts';
export type { BacktestOptions, IntentRecord } from './run/run-backtest.ts';
export type { BacktestSymbol, SeveralBacktestOptions } from './run/run-several.ts';
export { resolveFillModel } from './run/fill-model.ts';
export type { FillModel, ResolvedFillModel } from './run/fill-model.ts';
export { instrumentAt, journalBars, syntheticBars } from './sources/sources.ts';
export type { InstrumentChoice } from './sources/sources.ts';
export { SIM_ACCOUNT, SimVenue } from './run/sim-venue.ts';
export type { SimVenueOptions } from './run/sim-venue.ts';
export type { BarInput } from './sources/bar-input.ts';
export type * from './types.ts';
