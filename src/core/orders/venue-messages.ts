/**
 * The language between the order manager and a venue (live client, sandbox over HTTP, or the
 * backtester's simulated venue): commands out, events in. Defined in core so the order manager
 * stays pure; src/ports/venue.ts re-exports them with the port itself. Events follow the user
 * data stream (protocol notes 4.1): an execution with a trade is a `fill` carrying the order's
 * status after it; other order changes are `order`; a refused new order is `rejected` (spec 7.3 /
 * 7.4 code and text); a write whose outcome is not known (timeout, 5xx) is `unknownOutcome`;
 * `balance` is an asset's free and locked after a change (outboundAccountPosition).
 */
import type { OrderSide, OrderType, TimeInForce } from './types.ts';

export interface PlaceCommand {
  readonly kind: 'place';
  readonly symbol: string;
  /** newClientOrderId: deterministic (client-order-id.ts). */
  readonly clientOrderId: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly quantity?: string | undefined;
  readonly quoteOrderQty?: string | undefined;
  readonly price?: string | undefined;
  readonly stopPrice?: string | undefined;
  readonly timeInForce?: TimeInForce | undefined;
}

export interface CancelCommand {
  readonly kind: 'cancel';
  readonly symbol: string;
  readonly clientOrderId: string;
}

/** Notes 6 cancelReplace with STOP_ON_FAILURE: the new order is placed only if the cancel succeeds. */
export interface CancelReplaceCommand {
  readonly kind: 'cancelReplace';
  readonly symbol: string;
  readonly cancelClientOrderId: string;
  readonly order: PlaceCommand;
}

export type VenueCommand = PlaceCommand | CancelCommand | CancelReplaceCommand;

/** Spec 3.1 statuses a venue reports for an accepted order. */
export type VenueOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'PARTIALLY_CANCELED' | 'EXPIRED';

export interface VenueOrderEvent {
  readonly kind: 'order';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly status: VenueOrderStatus;
  readonly executedQty: string;
  readonly cumulativeQuoteQty: string;
  /** False only for a stop order waiting for its trigger (notes 4.1 `w`). */
  readonly working: boolean;
  readonly time: number;
  readonly reason?: string | undefined;
}

export interface VenueFillEvent {
  readonly kind: 'fill';
  readonly symbol: string;
  readonly clientOrderId: string;
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
  readonly cumulativeQuoteQty: string;
  readonly time: number;
}

export interface VenueRejectedEvent {
  readonly kind: 'rejected';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly code: number;
  readonly reason: string;
  readonly time: number;
}

export interface VenueCancelRejectedEvent {
  readonly kind: 'cancelRejected';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly code: number;
  readonly reason: string;
  readonly time: number;
}

export interface VenueUnknownOutcomeEvent {
  readonly kind: 'unknownOutcome';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly command: 'place' | 'cancel';
  readonly reason: string;
  readonly time: number;
}

export interface VenueBalanceEvent {
  readonly kind: 'balance';
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
  readonly time: number;
}

export type VenueEvent = VenueOrderEvent | VenueFillEvent | VenueRejectedEvent | VenueCancelRejectedEvent | VenueUnknownOutcomeEvent | VenueBalanceEvent;
