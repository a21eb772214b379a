/**
 * Intents: what a strategy asks for. Strategies decide, the engine acts (design rule 3): a
 * handler returns intents as data and never calls an exchange. The order manager turns them into
 * requests after the pre-trade checks; denials and rejections come back as order updates.
 *
 * Money fields are decimal strings or `Dec`, never floats: use `ctx.instrument(symbol).roundPrice`
 * / `roundQty` to turn an indicator's number into a valid string. A `tag` is the strategy's own
 * label for an order slot ("bid", "L3"); the engine derives deterministic client order ids from
 * it and reports it back on order updates and fills. Order fields follow spec 4.5 (new order).
 */
import type { Amount, OrderSide, OrderType, TimeInForce } from '../types.ts';

/** The order fields of a place (or of the new order of a cancel-replace). */
export interface OrderFieldsOf<A> {
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Base quantity. LIMIT, LIMIT_MAKER, *_LIMIT need it; MARKET, STOP_LOSS, TAKE_PROFIT take it or quoteOrderQty. */
  readonly quantity?: A;
  /** Quote amount to spend or receive (MARKET, STOP_LOSS, TAKE_PROFIT). */
  readonly quoteOrderQty?: A;
  /** Limit price (LIMIT, LIMIT_MAKER, STOP_LOSS_LIMIT, TAKE_PROFIT_LIMIT). */
  readonly price?: A;
  /** Trigger price (STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT, TAKE_PROFIT_LIMIT). */
  readonly stopPrice?: A;
  /** LIMIT, STOP_LOSS_LIMIT, TAKE_PROFIT_LIMIT only; the engine defaults to GTC. */
  readonly timeInForce?: TimeInForce;
  /** 1..20 characters of [A-Za-z0-9_-]. */
  readonly tag?: string;
}

export interface PlaceIntentOf<A> extends OrderFieldsOf<A> {
  readonly kind: 'place';
  readonly symbol: string;
}

/** Cancel one of the strategy's orders, by tag (its live order with that tag) or client order id. */
export type CancelIntent =
  | { readonly kind: 'cancel'; readonly symbol: string; readonly tag: string; readonly clientOrderId?: undefined }
  | { readonly kind: 'cancel'; readonly symbol: string; readonly clientOrderId: string; readonly tag?: undefined };

/**
 * Cancel an order and place its replacement (protocol notes: POST /openapi/v1/order/cancelReplace).
 * The old order is named by tag or client order id; the new order keeps the old tag unless given one.
 */
export type CancelReplaceIntentOf<A> =
  | { readonly kind: 'cancelReplace'; readonly symbol: string; readonly tag: string; readonly clientOrderId?: undefined; readonly order: OrderFieldsOf<A> }
  | { readonly kind: 'cancelReplace'; readonly symbol: string; readonly clientOrderId: string; readonly tag?: undefined; readonly order: OrderFieldsOf<A> };

/** What a handler may return (money as string or Dec). */
export type PlaceIntentInput = PlaceIntentOf<Amount>;
export type CancelReplaceIntentInput = CancelReplaceIntentOf<Amount>;
export type IntentInput = PlaceIntentInput | CancelIntent | CancelReplaceIntentInput;

/** What the runner hands the engine: validated, money as plain decimal strings (toFixed form). */
export type PlaceIntent = PlaceIntentOf<string>;
export type CancelReplaceIntent = CancelReplaceIntentOf<string> & { readonly order: OrderFieldsOf<string> & { readonly tag?: string } };
export type Intent = PlaceIntent | CancelIntent | CancelReplaceIntent;
export type IntentKind = Intent['kind'];

/** Handlers return a list of intents, or nothing. */
export type HandlerResult = readonly IntentInput[] | void | undefined;

type Distribute<T> = T extends unknown ? Omit<T, 'kind'> : never;

/** `place({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.01' })` */
export function place(order: Omit<PlaceIntentInput, 'kind'>): PlaceIntentInput {
  return { kind: 'place', ...order };
}

/** `cancel({ symbol, tag: 'bid' })` */
export function cancel(target: Distribute<CancelIntent>): CancelIntent {
  return { kind: 'cancel', ...target } as CancelIntent;
}

/** `cancelReplace({ symbol, tag: 'bid', order: { side: 'BUY', type: 'LIMIT_MAKER', quantity, price } })` */
export function cancelReplace(target: Distribute<CancelReplaceIntentInput>): CancelReplaceIntentInput {
  return { kind: 'cancelReplace', ...target } as CancelReplaceIntentInput;
}
