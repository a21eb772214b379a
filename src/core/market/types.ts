/**
 * Inputs and outputs of the filter checks: spec 2.1 (order types and sides), 2.3 (filters),
 * 7.5 (filter failure messages). Pure data, no behaviour beyond tiny predicates.
 */
import type { Dec } from '../money/decimal.ts';

/** Spec 2.1 order types. */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export type OrderSide = 'BUY' | 'SELL';

/** Spec 2.3 MAX_NUM_ALGO_ORDERS: the "algo" order types (stop-loss and take-profit families). */
export const ALGO_ORDER_TYPES: readonly OrderType[] = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
/** Order types that carry a limit price; the others execute at the market (on trigger for stops). */
export const PRICED_ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'];

export const isAlgoOrder = (type: OrderType): boolean => ALGO_ORDER_TYPES.includes(type);
export const hasLimitPrice = (type: OrderType): boolean => PRICED_ORDER_TYPES.includes(type);

/** The order being considered, before it is sent. */
export interface OrderCheckInput {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly price?: Dec;
  readonly quantity?: Dec;
  readonly quoteOrderQty?: Dec;
  readonly stopPrice?: Dec;
}

/** One book level: [price, quantity]. */
export type BookLevel = readonly [price: Dec, qty: Dec];

/**
 * What the caller knows about the market. Everything is optional: a check whose reference is
 * missing is reported in `skipped`, never as a violation and never silently passed.
 */
export interface MarketContext {
  readonly lastPrice?: Dec;
  /** Volume-weighted average over the filter's avgPriceMins (PERCENT_PRICE). */
  readonly weightedAvgPrice?: Dec;
  /** Simple average over avgPriceMins (PERCENT_PRICE_SA). */
  readonly simpleAvgPrice?: Dec;
  readonly indexPrice?: Dec;
  readonly bestBid?: Dec;
  readonly bestAsk?: Dec;
  /** Book sides, best level first (bids descending, asks ascending): PERCENT_PRICE_ORDER_SIZE walks them. */
  readonly bids?: readonly BookLevel[];
  readonly asks?: readonly BookLevel[];
  /** Overrides the book walk: the last price the order would trade at, or null when it would not trade. */
  readonly priceAfterFill?: (order: OrderCheckInput) => Dec | null;
  /**
   * Working orders on the symbol (normal and triggered), the count MAX_NUM_ORDERS limits (spec 2.3;
   * the matching engine passes this). Untriggered algo orders are `openAlgoOrders`.
   */
  readonly openOrders?: number;
  /** Untriggered STOP_LOSS/STOP_LOSS_LIMIT/TAKE_PROFIT/TAKE_PROFIT_LIMIT orders on the symbol. */
  readonly openAlgoOrders?: number;
}

export type FilterField = 'price' | 'stopPrice' | 'quantity' | 'notional' | 'priceAfterFill' | 'openOrders' | 'openAlgoOrders';
export type ViolationReason = 'below-min' | 'above-max' | 'off-tick' | 'off-step' | 'too-many';

export interface FilterViolation {
  readonly filterType: string;
  readonly field: FilterField;
  readonly reason: ViolationReason;
  /** The venue's text, spec 7.5 (e.g. `Filter failure: PRICE_FILTER`). */
  readonly message: string;
  /** Human explanation with the numbers involved. */
  readonly detail: string;
}

export interface SkippedCheck {
  readonly filterType: string;
  readonly why: string;
}

/** Where a checker records checks it could not run (missing reference data). */
export type SkipSink = string[];
