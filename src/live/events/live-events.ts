/**
 * What the live adapter's event side produces: the order manager's venue events (ports/venue.ts),
 * plus `adopt` for an order of this bot the venue lists as open but the adapter does not know
 * (placed before a crash: issue 20, deliverable 6). The order manager takes such an order in
 * through its own `adopt` operation (core/orders/adopt.ts), called by the live venue's adopt-order.ts
 * with the strategy the client order id's key names (client-order-id.ts); an order it does not
 * take is journaled and its later events kept away from it.
 */
import type { OrderSide, OrderType, TimeInForce } from '../../core/orders/types.ts';
import type { VenueEvent, VenueOrderStatus } from '../../ports/venue.ts';

export interface VenueAdoptEvent {
  readonly kind: 'adopt';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce?: TimeInForce | undefined;
  readonly price?: string | undefined;
  readonly stopPrice?: string | undefined;
  readonly origQty: string;
  /** NEW or PARTIALLY_FILLED: the order's progress before the fills that follow this event. */
  readonly status: Extract<VenueOrderStatus, 'NEW' | 'PARTIALLY_FILLED'>;
  readonly executedQty: string;
  readonly cumulativeQuoteQty: string;
  readonly working: boolean;
  /** When the venue created it. */
  readonly time: number;
}

export type LiveEvent = VenueEvent | VenueAdoptEvent;

/** Which road brought an event (journaled with what the ledger drops: "duplicate from <path>"). */
export type EventPath = 'stream' | 'newOrder' | 'cancelOrder' | 'queryOrder' | 'resync';
