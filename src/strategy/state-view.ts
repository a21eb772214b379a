/**
 * The port the engine implements so a runner can build the context a strategy reads: account
 * state, the strategy's own orders, instrument rules and the clock. Read-only from the runner's
 * side; the runner converts and freezes everything before a strategy sees it, and never hands
 * this object itself to strategy code. Bars, trades and book tops do not come through here: the
 * engine pushes them into the runner as they close/arrive (runner.ts), which is what keeps the
 * forming bar out of reach.
 */
import type { Instrument } from '../core/market/instrument.ts';
import type { BalanceInput, OpenOrderInput, PositionInput } from './types.ts';

export interface StrategyStateView {
  /** The injected clock's time (virtual in backtests), ms since the epoch. */
  now(): number;
  /** exchangeInfo rules of a symbol (core/market parseInstrument), undefined when unknown. */
  instrument(symbol: string): Instrument | undefined;
  /** Spot balances, free and locked per asset. Assets not listed count as zero. */
  balances(): readonly BalanceInput[];
  /** What is held for a symbol (base quantity, average entry); undefined when nothing. */
  position(symbol: string): PositionInput | undefined;
  /** This strategy's own open orders (never other strategies' or manual ones), optionally for one symbol. */
  openOrders(symbol?: string): readonly OpenOrderInput[];
}
