/**
 * The planner's inputs (issue 23 deliverable 2): balances of the master and each sub-account
 * (spec 2.7 account balances, 2.12 sub-account balances), prices in the policy's valuation asset
 * (from book-ticker mids, prices.ts), the convert desk's pairs (spec 2.10 supported pairs), what
 * already moved today (the per-day cap). Decimal strings at the boundary, as everywhere.
 */
import type { AccountRef } from '../moves.ts';
import type { TreasuryPolicy } from '../policy/schema.ts';

export interface Holding {
  free: string;
  locked: string;
}

/** Per account (`master` or a sub-account's email), per asset. */
export type Balances = Record<AccountRef, Record<string, Holding>>;

/** Spec 2.10 supported pair: min/max source amount, the source amount's decimals. */
export interface ConvertPairTerms {
  source: string;
  target: string;
  minSourceAmount?: string;
  maxSourceAmount?: string;
  /** Decimals of the source amount. */
  precision?: number;
}

export interface PlanInput {
  policy: TreasuryPolicy;
  balances: Balances;
  /** Price of one unit of each asset in `policy.valuation` (the valuation asset itself: 1). */
  prices: Record<string, string>;
  /** Time the balances and prices were read (ms). */
  asOf: number;
  /** Absent: any pair between two priced assets is taken to exist. */
  pairs?: readonly ConvertPairTerms[];
  /** Per asset, the amount moved earlier this UTC day (against `limits.maxPerDay`). */
  movedToday?: Record<string, string>;
  /** The bot: conversions and sub-account transfers only (no payouts, ever). */
  internalOnly?: boolean;
  /** Assets left alone (a strategy has orders on them), with why. */
  frozen?: ReadonlyMap<string, string>;
}

/** An account and asset outside its band, with why. */
export interface BandIssue {
  account: AccountRef;
  asset: string;
  reason: string;
}
