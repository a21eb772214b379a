/**
 * Public surface of the backtester's simulation: `runBacktest` (the one code path with the
 * simulated venue), the fill model, the sources (journal, synthetic), the simulated venue, and the
 * result contract (types.ts). Metrics, report and sweeps have their own modules.
 */
export { runBacktest } from './run-backtest.ts';
export type { BacktestOptions, IntentRecord } from './run-backtest.ts';
export type { BacktestSymbol, SeveralBacktestOptions } from './run-several.ts';
export { resolveFillModel } from './fill-model.ts';
export type { FillModel, ResolvedFillModel } from './fill-model.ts';
export { instrumentAt, journalBars, syntheticBars } from './sources.ts';
export type { InstrumentChoice } from './sources.ts';
export { SIM_ACCOUNT, SimVenue } from './sim-venue.ts';
export type { SimVenueOptions } from './sim-venue.ts';
export type { BarInput } from './bar-input.ts';
export type * from './types.ts';
