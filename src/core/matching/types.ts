/**
 * Public data of the spot matching engine: requests (spec 4.5 new order parameters, protocol
 * notes 6 cancelReplace), order snapshots (spec 2.4), account trades (2.5), results and events
 * (what an executionReport of notes 4.1, a trade, a balance position or a depth diff needs).
 * Every amount is a decimal string; ids are decimal strings (they exceed 2^53).
 */
import type { FilterViolation, OrderSide, OrderType } from '../market/index.ts';

export type { OrderSide, OrderType };
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
/** Spec 2.1 anti self-trading: CB both canceled, CN the new (taker) order, CO the old (resting) order. */
export type StpFlag = 'CB' | 'CN' | 'CO';
export type NewOrderRespType = 'ACK' | 'RESULT' | 'FULL';
/** Spec 3.1. Rejected orders are never stored, so REJECTED is not a status here. */
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'PARTIALLY_CANCELED' | 'CANCELED' | 'EXPIRED';
/** Notes 4.1 `x`. */
export type ExecutionType = 'NEW' | 'CANCELED' | 'REJECTED' | 'TRADE' | 'EXPIRED';

export interface NewOrderRequest {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce?: TimeInForce | undefined;
  readonly quantity?: string | undefined;
  readonly quoteOrderQty?: string | undefined;
  readonly price?: string | undefined;
  readonly stopPrice?: string | undefined;
  /** newClientOrderId; generated from the order id when omitted. */
  readonly clientOrderId?: string | undefined;
  /** Default CB. */
  readonly stpFlag?: StpFlag | undefined;
  /** Carried for the caller's response formatting; the engine does not use it. */
  readonly newOrderRespType?: NewOrderRespType | undefined;
}

export interface PlaceOptions {
  /**
   * Backtester / replay liquidity: what the book cannot fill of a marketable order fills as
   * taker at this price, as much as the symbol's outside liquidity cap leaves (unlimited unless
   * capped; see the engine's header). The book is walked first only where it is strictly better
   * than this price for the taker; orders at it or beyond it are not reached.
   */
  readonly externalPrice?: string | undefined;
  /** Where stop-market orders the operation triggers take outside liquidity, by side (default externalPrice). */
  readonly stopPrices?: StopPrices | undefined;
}

/** Prices triggered stop-market orders fill at from outside liquidity, by side (a backtest's slippage). */
export interface StopPrices {
  readonly BUY: string;
  readonly SELL: string;
}

/** Spec 2.4 order fields, plus the owner and the stpFlag (notes 6 echoes it). */
export interface OrderSnapshot {
  readonly symbol: string;
  readonly accountId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  readonly cummulativeQuoteQty: string;
  readonly status: OrderStatus;
  readonly timeInForce: TimeInForce;
  readonly type: OrderType;
  readonly side: OrderSide;
  readonly stopPrice: string;
  readonly origQuoteOrderQty: string;
  readonly stpFlag: StpFlag;
  readonly time: number;
  readonly updateTime: number;
  /** False only for a stop order waiting for its trigger. */
  readonly isWorking: boolean;
}

/** Spec 2.4 fill object (FULL response): the taker fills of the placed order. */
export interface Fill {
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly tradeId: string;
}

/** Spec 2.5. */
export interface AccountTrade {
  readonly symbol: string;
  readonly id: string;
  readonly orderId: string;
  readonly price: string;
  readonly qty: string;
  readonly quoteQty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly time: number;
  readonly isBuyer: boolean;
  readonly isMaker: boolean;
  readonly isBestMatch: boolean;
}

/** Everything an executionReport (notes 4.1) needs; letters name its fields. */
export interface OrderUpdateEvent {
  readonly kind: 'order';
  readonly accountId: string;
  readonly symbol: string;
  /** E and T: when it happened. */
  readonly time: number;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly quantity: string;
  readonly price: string;
  readonly stopPrice: string;
  readonly quoteOrderQty: string;
  readonly executionType: ExecutionType;
  readonly status: OrderStatus;
  /** r: always NONE (the venue's values are unknown, notes 10). */
  readonly rejectReason: 'NONE';
  readonly lastQty: string;
  readonly lastPrice: string;
  readonly lastQuoteQty: string;
  readonly cumQty: string;
  readonly cumQuoteQty: string;
  /** n / N: commission of this fill and its asset; '0' / null without a fill. */
  readonly commission: string;
  readonly commissionAsset: string | null;
  /** t: '-1' without a trade. */
  readonly tradeId: string;
  /** Working: false only for a stop waiting for its trigger (the order's isWorking, spec 2.4). */
  readonly isWorking: boolean;
  /**
   * w (notes 4.1, "on book"): resting on the book after this event, or once the operation ends for
   * the reports built before the order reached the book in it (its NEW, its fills as a taker).
   */
  readonly onBook: boolean;
  /** m. */
  readonly isMaker: boolean;
  /** O. */
  readonly orderTime: number;
  /** Why, beyond the execution type: self-trade prevention, or a stop order's trigger (x NEW). */
  readonly cause: 'STP' | 'TRIGGER' | null;
}

/** One fill (notes 4 `trade`); `takerOrderId` is the aggTrade key. `external` fills have one account side only. */
export interface TradeEvent {
  readonly kind: 'trade';
  readonly symbol: string;
  readonly tradeId: string;
  readonly price: string;
  readonly qty: string;
  readonly quoteQty: string;
  readonly time: number;
  /** '' for the outside side of an external fill. */
  readonly buyerOrderId: string;
  readonly sellerOrderId: string;
  readonly buyerAccountId: string | null;
  readonly sellerAccountId: string | null;
  readonly buyerIsMaker: boolean;
  readonly takerOrderId: string;
  readonly external: boolean;
}

/** An account's position in one asset after an operation (outboundAccountPosition B entries). */
export interface BalanceEvent {
  readonly kind: 'balance';
  readonly accountId: string;
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
  readonly time: number;
}

/** A changed depth level, absolute quantity ('0' removes it); updateId is the symbol's book counter. */
export interface BookEvent {
  readonly kind: 'book';
  readonly symbol: string;
  readonly side: 'bid' | 'ask';
  readonly price: string;
  readonly qty: string;
  readonly updateId: number;
  readonly time: number;
}

export type EngineEvent = OrderUpdateEvent | TradeEvent | BalanceEvent | BookEvent;

/** A venue rejection: spec 7.3 code, 7.4 / 7.5 text. */
export interface Rejection {
  readonly ok: false;
  readonly code: number;
  readonly msg: string;
  /** Every filter failure found, when the rejection came from the filter engine. */
  readonly violations?: readonly FilterViolation[];
}

export interface PlaceSuccess {
  readonly ok: true;
  readonly order: OrderSnapshot;
  readonly fills: Fill[];
  readonly events: EngineEvent[];
}
export type PlaceResult = PlaceSuccess | Rejection;

export type CancelResult = { readonly ok: true; readonly order: OrderSnapshot; readonly events: EngineEvent[] } | Rejection;

export interface OrderRef {
  readonly orderId?: string | undefined;
  readonly clientOrderId?: string | undefined;
}
