/** The checks after a chaos run (issue 22 deliverable 2): `checkRun` over gathered data, `formatReport` for the terminal. */
export { checkRun } from './check-run.ts';
export { formatReport } from './format-report.ts';
export type { ChaosCheckOptions, ChaosRunInput, FaultRecord, JournalState, Outcome, StrategyFills, VenueOrder, VenueState, VenueTrade } from './input.ts';
export type { ChaosReport } from './report.ts';
