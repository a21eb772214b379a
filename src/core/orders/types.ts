/**
 * The order manager's inputs and outputs, as plain data. core is pure and imports nothing from the
 * strategy layer, so the shapes a strategy exchanges with the engine are restated here; they are
 * structurally the strategy layer's (src/strategy/intents/intents.ts, types.ts, state-view.ts), and a
 * compile-time test in src/engine holds the two together. Money is decimal strings (or Dec where
 * a strategy will compute with it); ids are strings (they exceed 2^53). Spec refs: 2.1 (sides,
 * types), 2.4 (order fields), 3.1 (statuses), protocol notes 4.1 (executionReport).
 */
import type { Instrument } from '../market/instrument.ts';
import type { OrderSide, OrderType } from '../market/types.ts';
import type { Dec } from '../money/decimal.ts';

export type { OrderSide, OrderType };
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
/** Money as the strategy layer passes it: a decimal string or a Decimal, never a float. */
export type Money = string | Dec;

/** Order fields of a place intent (or the new order of a cancel-replace); money as decimal strings. */
export interface OrderFields {
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly quantity?: string | undefined;
  readonly quoteOrderQty?: string | undefined;
  readonly price?: string | undefined;
  readonly stopPrice?: string | undefined;
  readonly timeInForce?: TimeInForce | undefined;
  readonly tag?: string | undefined;
}

export interface PlaceOrderIntent extends OrderFields {
  readonly kind: 'place';
  readonly symbol: string;
}

/** Names an order of the strategy by tag (its live order with that tag) or by client order id. */
export interface OrderTarget {
  readonly symbol: string;
  readonly tag?: string | undefined;
  readonly clientOrderId?: string | undefined;
}

export interface CancelOrderIntent extends OrderTarget {
  readonly kind: 'cancel';
}

export interface CancelReplaceOrderIntent extends OrderTarget {
  readonly kind: 'cancelReplace';
  readonly order: OrderFields;
}

/** A validated intent (src/strategy/intents/intent-schema.ts produces these). */
export type OrderIntent = PlaceOrderIntent | CancelOrderIntent | CancelReplaceOrderIntent;

/** Statuses a strategy sees: spec 3.1 plus PENDING_NEW (sent, not acknowledged), UNKNOWN (outcome not known, being looked up) and DENIED (pre-trade). */
export type StrategyOrderStatus = 'PENDING_NEW' | 'UNKNOWN' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'PARTIALLY_CANCELED' | 'CANCELED' | 'EXPIRED' | 'REJECTED' | 'DENIED';

/** One open order of a strategy (the strategy layer's OpenOrderInput). */
export interface OpenOrderOut {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly tag?: string;
  readonly orderId?: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly status: StrategyOrderStatus;
  readonly price?: string;
  readonly stopPrice?: string;
  readonly origQty?: string;
  readonly executedQty: string;
  readonly time: number;
}

/** One of a strategy's orders changed state (the strategy layer's OrderUpdateInput): the open order's fields and the quote executed. */
export interface OrderUpdateOut extends OpenOrderOut {
  readonly cumulativeQuoteQty: string;
  readonly reason?: string;
}

/** One execution of a strategy's order (the strategy layer's FillInput). */
export interface FillOut {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly tag?: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly side: OrderSide;
  readonly price: string;
  readonly qty: string;
  readonly quoteQty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly isMaker: boolean;
  readonly orderStatus: 'PARTIALLY_FILLED' | 'FILLED';
  readonly cumulativeQty: string;
  readonly time: number;
}

export interface BalanceOut {
  readonly asset: string;
  readonly free: Money;
  readonly locked: Money;
}

export interface PositionOut {
  readonly symbol: string;
  readonly base: Money;
  readonly avgEntryPrice?: Money;
}

/** What a strategy's context reads (structurally the strategy layer's StrategyStateView). */
export interface StateView {
  now(): number;
  instrument(symbol: string): Instrument | undefined;
  balances(): readonly BalanceOut[];
  position(symbol: string): PositionOut | undefined;
  openOrders(symbol?: string): readonly OpenOrderOut[];
}

/** What the order manager hands back for a strategy: deliver in order. */
export type StrategyEvent =
  | { readonly kind: 'orderUpdate'; readonly strategy: string; readonly update: OrderUpdateOut }
  | { readonly kind: 'fill'; readonly strategy: string; readonly fill: FillOut };
