/**
 * The report of the checks after a chaos run (issue 22 deliverable 2). Plain data: ids and money
 * are strings, times are ms numbers, so `JSON.stringify` writes it as it is and a failing seed's
 * report can be kept beside the seed.
 */

/** A fill named by the venue's order id and trade id (spec 2.5 `orderId`, `id`). */
export interface FillKey {
  orderId: string;
  tradeId: string;
}

export interface DuplicateIntent {
  clientOrderId: string;
  /** The venue orders that carry it: two or more. */
  orderIds: string[];
}

export interface DoubledFill extends FillKey {
  /** `journal`, or the strategy (strategies) that were told of it; `times` counts every delivery. */
  where: string;
  times: number;
}

export interface BalanceMismatch {
  asset: string;
  field: 'free' | 'locked';
  journal: string;
  venue: string;
  /** journal - venue, exact. */
  diff: string;
}

export interface BlindStretch {
  start: number;
  end: number;
  ms: number;
}

export interface FaultHeal {
  kind: string;
  start: number;
  end: number | null;
  /** When the user stream was LIVE again at or after the fault ended; null: never, before the run ended. */
  healedAt: number | null;
  /** healedAt - end: how long the bot took to be whole once the fault stopped. */
  healMs: number | null;
}

export interface ChaosReport {
  seed: string;
  ok: boolean;
  /** Why not ok, one line each; empty when ok. */
  failures: string[];
  orders: {
    /** Distinct client order ids journaled as place or cancelReplace: the intents sent. */
    intents: number;
    venue: number;
    duplicates: DuplicateIntent[];
    /** Venue orders of no journaled request: sent without being journaled first. */
    unjournaled: string[];
  };
  fills: {
    venue: number;
    journal: number;
    /** Venue fills the journal lacks. */
    lostFromJournal: FillKey[];
    /** Venue fills no strategy was told of. */
    lostFromStrategies: FillKey[];
    doubled: DoubledFill[];
    /** Journal fills the venue never made. */
    phantom: FillKey[];
  };
  balances: { equal: boolean; mismatches: BalanceMismatch[] };
  bans: { earned: number; injected: number };
  crashes: number;
  blind: { longest: BlindStretch | null; totalMs: number; limitMs: number | null };
  faults: { heals: FaultHeal[]; unhealed: number; longestHealMs: number | null };
}
