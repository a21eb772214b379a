/**
 * The data a strategy sees, and what the engine hands the runner. Market data carries numbers
 * for indicators plus the venue's exact strings; order and account data carry money as `Dec`
 * (immutable) so a strategy can compute with it and hand it back in an intent without a float
 * ever touching the order path (design rule 4). Spec references: 2.1 (sides, types, intervals),
 * 2.4 (order), 2.6 (klines, book ticker, trades), 3.1 (order status), protocol notes 4.1
 * (executionReport fields).
 */
import type { Candle, CandleText } from '../core/indicators/candle.ts';
import type { Dec } from '../core/money/decimal.ts';
import type { OrderSide, OrderType } from '../core/market/types.ts';

export type { OrderSide, OrderType };

/** Spec 2.1 kline intervals. */
export const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type Interval = (typeof INTERVALS)[number];

export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/** Money as the engine may pass it: a decimal string or a Decimal. Never a float. */
export type Amount = string | Dec;

/** A CLOSED bar of one symbol and interval, frozen. */
export interface Bar extends Candle {
  readonly symbol: string;
  readonly interval: Interval;
  readonly exact: CandleText;
}

/** Best bid and ask (spec 2.6 book ticker), frozen. Numbers for maths, `exact` for orders. */
export interface BookTop {
  readonly symbol: string;
  readonly bidPrice: number;
  readonly bidQty: number;
  readonly askPrice: number;
  readonly askQty: number;
  /** (bid + ask) / 2. */
  readonly mid: number;
  readonly time: number;
  readonly exact: { readonly bidPrice: string; readonly bidQty: string; readonly askPrice: string; readonly askQty: string };
}

export interface BookTopInput {
  readonly symbol: string;
  readonly bidPrice: string;
  readonly bidQty: string;
  readonly askPrice: string;
  readonly askQty: string;
  readonly time: number;
}

/** A public trade (spec 2.6), frozen. */
export interface Trade {
  readonly symbol: string;
  /** Trade ids exceed 2^53: a string. */
  readonly id: string;
  readonly price: number;
  readonly qty: number;
  readonly time: number;
  readonly buyerIsMaker: boolean;
  readonly exact: { readonly price: string; readonly qty: string };
}

export interface TradeInput {
  readonly symbol: string;
  readonly id: string;
  readonly price: string;
  readonly qty: string;
  readonly time: number;
  readonly buyerIsMaker: boolean;
}

/**
 * Spec 3.1 statuses, plus the engine's own: PENDING_NEW (sent, not yet acknowledged), UNKNOWN
 * (live only: the request timed out or met a 5xx, so the order may or may not exist; it is looked
 * up by its client id, never resent, and the next update gives its real status), REJECTED (the
 * venue refused it), DENIED (the pre-trade checks refused it; nothing was sent).
 */
export type OrderStatus = 'PENDING_NEW' | 'UNKNOWN' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'PARTIALLY_CANCELED' | 'CANCELED' | 'EXPIRED' | 'REJECTED' | 'DENIED';

/** Statuses after which the order is gone from the book. */
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'EXPIRED', 'REJECTED', 'DENIED'];

/** One of the strategy's open orders. `A` is the money type (Amount in, Dec out). */
export interface OpenOrderOf<A> {
  readonly symbol: string;
  readonly clientOrderId: string;
  /** The tag of the intent that created the order, when it had one. */
  readonly tag?: string;
  /** Venue id (> 2^53, a string); absent when the order never reached the venue (DENIED). */
  readonly orderId?: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly price?: A;
  readonly stopPrice?: A;
  readonly origQty?: A;
  readonly executedQty: A;
  readonly time: number;
}
/** One of the strategy's own orders changed state: the open order's fields, the quote executed and why. */
export interface OrderUpdateOf<A> extends OpenOrderOf<A> {
  readonly cumulativeQuoteQty: A;
  /** Why it was rejected, denied or expired (venue text or the pre-trade check's reason). */
  readonly reason?: string;
}
export type OrderUpdate = OrderUpdateOf<Dec>;
export type OrderUpdateInput = OrderUpdateOf<Amount>;

/** One execution of one of the strategy's orders (notes 4.1 executionReport with x = TRADE). */
export interface FillOf<A> {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly tag?: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly side: OrderSide;
  readonly price: A;
  readonly qty: A;
  readonly quoteQty: A;
  readonly commission: A;
  readonly commissionAsset: string;
  readonly isMaker: boolean;
  /** The order's status after this fill. */
  readonly orderStatus: 'PARTIALLY_FILLED' | 'FILLED';
  /** The order's filled quantity after this fill. */
  readonly cumulativeQty: A;
  readonly time: number;
}
export type Fill = FillOf<Dec>;
export type FillInput = FillOf<Amount>;

export type OpenOrder = OpenOrderOf<Dec>;
export type OpenOrderInput = OpenOrderOf<Amount>;

export interface BalanceOf<A> {
  readonly asset: string;
  readonly free: A;
  readonly locked: A;
}
export type BalanceInput = BalanceOf<Amount>;
export interface Balance extends BalanceOf<Dec> {
  /** free + locked. */
  readonly total: Dec;
}

export interface PositionInput {
  readonly symbol: string;
  /** Base asset held for this symbol (>= 0 on spot). */
  readonly base: Amount;
  /** Average entry price of what is held; absent when flat. */
  readonly avgEntryPrice?: Amount;
}
export interface Position {
  readonly symbol: string;
  readonly base: Dec;
  readonly avgEntryPrice: Dec | undefined;
  /** True when the holding is below the symbol's minimum quantity (dust cannot be sold), or zero. */
  readonly flat: boolean;
}

export const HANDLER_NAMES = ['onStart', 'onBar', 'onTrade', 'onBookTop', 'onOrderUpdate', 'onFill', 'onDenial', 'onTimer', 'onStop'] as const;
export type HandlerName = (typeof HANDLER_NAMES)[number];

/**
 * A cancel or cancel-replace the order manager refused with no order of the strategy to update:
 * nothing open with that tag or client order id (gone, never sent, or another strategy's). What
 * `onDenial` is handed; a refused place (or a refused cancel of an order the strategy has) comes
 * as a DENIED order update instead.
 */
export interface Denied {
  /** The intent's kind. */
  readonly intent: 'cancel' | 'cancelReplace';
  readonly symbol: string;
  /** The target the intent named. */
  readonly tag: string | undefined;
  readonly clientOrderId: string | undefined;
  /** Why, in words (the same reasons the run's denials list). */
  readonly reasons: readonly string[];
  readonly time: number;
}

/** Why a strategy is being stopped (passed to onStop). */
export interface StopReason {
  /** 'requested' by the host (shutdown, end of backtest) or a free-form reason. */
  readonly reason: string;
}

/** What the runner reports when a strategy fails; the host logs it and carries on. */
export interface StrategyFailure {
  readonly strategy: string;
  readonly handler: HandlerName;
  /** threw: the handler threw; bad-intent: an intent failed validation; bad-return: not an intent list (or a Promise). */
  readonly kind: 'threw' | 'bad-intent' | 'bad-return';
  readonly message: string;
  readonly stack?: string;
  /** For bad-intent: the offending field path, e.g. `intents[1].price`. */
  readonly field?: string;
  /** Clock time of the failure. */
  readonly time: number;
}

/** A line a strategy logged through ctx.log. */
export interface StrategyLogEntry {
  readonly strategy: string;
  readonly time: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Where a plotted line is drawn: over the candles (an SMA, a band) or in a pane of its own below them (an RSI). */
export type PlotPane = 'price' | 'below';

export interface PlotOptions {
  /** Default 'price'. */
  readonly pane?: PlotPane;
  /** A CSS hex colour (`#2563eb`); default one of the report's palette. */
  readonly color?: string;
}

/** One value a strategy plotted (`ctx.plot`): the host draws it (the backtest report) or ignores it. */
export interface StrategyPlotEntry {
  readonly strategy: string;
  readonly name: string;
  readonly time: number;
  readonly value: number;
  readonly pane: PlotPane;
  readonly color?: string;
}
