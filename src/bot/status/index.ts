/**
 * What the operator sees (issue 21 deliverable 4): the status snapshot (types.ts), its terminal
 * block (render-block.ts), where it goes on each refresh (status-output.ts: redrawn in place on a
 * terminal, pino JSON lines otherwise), the same snapshot from a journal alone (from-journal.ts,
 * `halyard status`), and per-symbol PnL from fills as the backtest counts it (symbol-pnl.ts).
 */
export type * from './types.ts';
export { renderStatusBlock, clockText, durationText, type RenderOptions } from './render-block.ts';
export { StatusOutput, colorWanted, redrawPrefix, statusLogFields, type StatusOutputOptions } from './status-output.ts';
export { statusFromJournal, StatusFromJournalError, STRATEGY_FAILED_INTENT, STRATEGY_STOPPED_INTENT } from './from-journal.ts';
export { SymbolPnl, sumText, PNL_DP, type PnlFill, type SymbolAssets } from './symbol-pnl.ts';
