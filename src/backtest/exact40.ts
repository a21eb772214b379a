/** Moved to core/money/exact40.ts (the order manager's account computes on it too); kept for the backtest's imports. */
export { X40 } from '../core/money/exact40.ts';
