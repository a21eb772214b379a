/**
 * Live against backtest (issue 21 deliverable 6): the shapes of the comparison. A *trade* here is
 * one order as it executed, its fills together (a MARKET order that took three levels of the book
 * live and one open price in the backtest is one trade on each side); trades of the live run and
 * of the replay are paired, and each pair, or a trade left alone, lists what differs and, for each
 * difference, the fill-model rule that explains it or why none does. Money stays decimal text.
 */

export type Side = 'BUY' | 'SELL';

/** One execution of a trade. */
export interface TradeFill {
  readonly time: number;
  readonly price: string;
  readonly qty: string;
  readonly quoteQty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly isMaker: boolean;
}

/** One order of a strategy, as the live run or the replay placed and filled it. */
export interface Trade {
  readonly strategy: string;
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly tag?: string | undefined;
  readonly side: Side;
  /** MARKET, LIMIT, STOP_LOSS...; undefined when the record does not say. */
  readonly type?: string | undefined;
  /** The LIMIT (or stop-limit) price. */
  readonly limitPrice?: string | undefined;
  /** The quantity asked for; undefined for a quote-sized order (quoteOrderQty). */
  readonly origQty?: string | undefined;
  /** The quote amount of a quote-sized MARKET order. */
  readonly quoteOrderQty?: string | undefined;
  /** The order's last status (FILLED, CANCELED, EXPIRED, REJECTED, DENIED...). */
  readonly status?: string | undefined;
  /** When the strategy's intent became the order (live: journaled; replay: the backtest clock). */
  readonly placedAt?: number | undefined;
  /** Oldest first; empty when the order never filled. */
  readonly fills: readonly TradeFill[];
}

/** What differs between a paired live trade and its replay, or which side lacks the trade. */
export type DifferenceKind = 'missing-in-backtest' | 'missing-live' | 'time' | 'price' | 'quantity' | 'fees';

/** The fill-model rule (fill-model.ts) or data fact that accounts for a difference. */
export type ExplanationRule =
  /** Rule 1: the strategy only sees closed bars in the backtest; live it also acted between them (onTrade, onBookTop). */
  | 'between-bars'
  /** Rule 2: MARKET at the next bar's open (moved by slippageBps); live took the book inside that bar. */
  | 'market-next-open'
  /** Rules 3-4: a resting LIMIT fills at its price when the bar's 4-point path trades through it (or touches it), at that point's time. */
  | 'limit-path'
  /** Rule 4: the price touched the limit without trading through it: one side filled, the other did not. */
  | 'limit-touched'
  /** Live filled part of the order (the book held less); the model fills all of it without volumeShare. */
  | 'partial-fill'
  /** Rule 7: the model capped the fill at volumeShare of the bar's volume. */
  | 'volume-share'
  /** A quote-sized MARKET order buys quote / price: its quantity follows the price difference. */
  | 'quote-sized'
  /** Rule 9: fees at the maker or taker rate, of the role each side's fill had. */
  | 'fees'
  /** The order's size or existence follows from an earlier explained difference (position, balance, state). */
  | 'knock-on'
  /** Rule 10: decided on the last recorded bar (or filled after it): the replay has no next bar to fill it at. */
  | 'end-of-data';

export interface Explanation {
  readonly rule: ExplanationRule;
  readonly text: string;
}

export interface Difference {
  readonly kind: DifferenceKind;
  /** What differs, with both sides' values: `live 3000250 vs backtest 3000100 (+150, +0.50 bps)`. */
  readonly detail: string;
  /** Set when the fill model (or the data) accounts for it. */
  readonly explanation?: Explanation | undefined;
  /** Set when nothing does: why not. */
  readonly unexplained?: string | undefined;
}

/** A live trade and its replay (either may be missing), with what differs. */
export interface TradePair {
  readonly strategy: string;
  readonly symbol: string;
  readonly live?: Trade | undefined;
  readonly backtest?: Trade | undefined;
  /** How the two were paired: the same client order id, or the same symbol, side and tag nearest in time. */
  readonly pairedBy?: 'client-order-id' | 'nearest' | undefined;
  readonly differences: readonly Difference[];
}

/** One strategy of the live run, replayed. */
export interface StrategyComparison {
  readonly strategy: string;
  readonly params: Record<string, unknown>;
  readonly symbols: readonly string[];
  readonly interval: string;
  /** The replay's range: the first bar's open to the last bar's close + 1, and how many bars. */
  readonly from: number;
  readonly to: number;
  readonly bars: number;
  /** Bars before the run handed to the strategy as its history (its warm-up). */
  readonly historyBars: number;
  readonly fees: { readonly maker: string; readonly taker: string };
  /** Where the fee rates came from: the live fills, --fee, or the default. */
  readonly feesFrom: string;
  readonly balances: Readonly<Record<string, string>>;
  readonly balancesFrom: string;
  readonly fillModel: Readonly<Record<string, unknown>>;
  /** Every trade of either side, in time order. */
  readonly pairs: readonly TradePair[];
  /** What the replay itself reported (strategy failures, warm-up notices). */
  readonly notes: readonly string[];
}

export interface LiveComparison {
  readonly journal: string;
  readonly runId: string;
  readonly runKind: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly exitReason: string | null;
  readonly strategies: readonly StrategyComparison[];
}
