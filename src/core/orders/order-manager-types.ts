/**
 * The order manager's options and results (order-manager.ts).
 */
import type { Instrument } from '../market/instrument.ts';
import type { MarketContext } from '../market/types.ts';
import type { StrategyCapital } from './capital/capital.ts';
import type { PreTradeViolation } from './pre-trade/pre-trade.ts';
import type { OrderIntent, OrderUpdateOut } from './types.ts';
import type { VenueCommand } from './venue-messages.ts';

export type MarketRefs = (symbol: string) => Partial<Pick<MarketContext, 'weightedAvgPrice' | 'simpleAvgPrice' | 'indexPrice' | 'bestBid' | 'bestAsk'>> | undefined;

export interface OrderManagerOptions {
  /** Part of every client order id (client-order-id.ts). */
  readonly runId: string;
  readonly now: () => number;
  readonly instruments: Iterable<Instrument> | ((symbol: string) => Instrument | undefined);
  /** Starting free balances by asset (the venue's balance events replace them). */
  readonly balances?: Readonly<Record<string, string>>;
  /** Reference prices for the PERCENT_PRICE family and the post-only rule. */
  readonly marketRefs?: MarketRefs;
  /** Deny when a filter could not be checked (default: skipped checks pass, as at the venue's engine). */
  readonly requireCompleteChecks?: boolean;
  /** Last sequence used per (strategy, tag), when a run resumes. */
  readonly sequenceStart?: (strategy: string, tag: string) => number;
  /** Closed orders kept for late venue events (default 1000; up to twice that are held). */
  readonly retainClosed?: number;
  /**
   * Per-strategy capital (capital.ts): strategy -> asset -> decimal string. Each strategy named
   * here may only commit its own funds, moved by its own fills; the others share what no ledger
   * holds. Absent: every strategy trades the shared account.
   */
  readonly capital?: StrategyCapital;
}

export interface Denial {
  readonly strategy: string;
  readonly symbol: string;
  readonly intent: OrderIntent;
  readonly tag?: string | undefined;
  readonly clientOrderId?: string | undefined;
  readonly reasons: readonly string[];
  readonly violations: readonly PreTradeViolation[];
  readonly time: number;
  /** The DENIED order update for the strategy; absent when no order is concerned (a cancel that found nothing). */
  readonly update?: OrderUpdateOut | undefined;
}

export interface SubmitResult {
  readonly commands: VenueCommand[];
  readonly denials: Denial[];
}
