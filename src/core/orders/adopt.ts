/**
 * Adoption: an order this manager did not place in this process (placed before a restart, found
 * open at the venue by the start-up reconciliation or a resync: issue 20 deliverable 6) taken in
 * at the progress the venue (or the journal) reported, so its later fills and its end reach the
 * strategy that placed it and move the account, its capital ledger and its position like any
 * other order's. No transition of the reducer: the order enters at its state, as an order
 * acknowledged long ago would stand.
 *
 * No reserve: an acknowledged order's funds are locked at the venue already (balance events say
 * so), and one whose outcome is UNKNOWN is looked up before anything is assumed. Which strategy it
 * belongs to is the host's to say (the client order id's key names a run and a strategy: the host
 * knows which runs' orders it may take); the tag is read from the id.
 */
import { isDecimalText } from '../money/decimal.ts';
import { parseClientOrderId } from './client-order-id.ts';
import type { OrderState } from './order-state.ts';
import type { OrderFields, OrderSide, OrderType, OrderUpdateOut, TimeInForce } from './types.ts';

/** The states an adopted order may enter at: working at the venue, or its placement's outcome unknown. */
export type AdoptableState = Extract<OrderState, 'NEW' | 'PARTIALLY_FILLED' | 'UNKNOWN'>;

export interface AdoptOrder {
  readonly symbol: string;
  readonly clientOrderId: string;
  /** The venue's id; absent for an order whose placement's outcome is unknown. */
  readonly orderId?: string | undefined;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce?: TimeInForce | undefined;
  readonly price?: string | undefined;
  readonly stopPrice?: string | undefined;
  readonly origQty: string;
  readonly status: OrderState;
  readonly executedQty: string;
  readonly cumulativeQuoteQty: string;
  /** False for a stop order the venue has not triggered yet. */
  readonly working: boolean;
  /** When the venue created it. */
  readonly time: number;
}

export type AdoptResult =
  /** Taken: `update` is the order as its strategy now sees it (the host may tell the strategy). */
  | { readonly taken: true; readonly update: OrderUpdateOut }
  | { readonly taken: false; readonly reason: string };

const ADOPTABLE: ReadonlySet<OrderState> = new Set<OrderState>(['NEW', 'PARTIALLY_FILLED', 'UNKNOWN']);

/** Why `o` cannot be adopted (undefined: it can). Amounts are the venue's texts: checked, as at any boundary. */
export function adoptRefusal(o: AdoptOrder): string | undefined {
  if (!ADOPTABLE.has(o.status)) return `status ${o.status} is not one an order is adopted at (NEW, PARTIALLY_FILLED, UNKNOWN)`;
  for (const [field, v] of [
    ['origQty', o.origQty],
    ['executedQty', o.executedQty],
    ['cumulativeQuoteQty', o.cumulativeQuoteQty],
    ['price', o.price],
    ['stopPrice', o.stopPrice],
  ] as const) {
    if (v !== undefined && (!isDecimalText(v) || v.trim().startsWith('-'))) return `${field} ${JSON.stringify(v)} is not a decimal of at least 0`;
  }
  return undefined;
}

/** The order's fields as `submit` would have kept them; the tag from the client order id. */
export function adoptedFields(o: AdoptOrder): OrderFields {
  const fields: { -readonly [K in keyof OrderFields]: OrderFields[K] } = { side: o.side, type: o.type, quantity: o.origQty };
  if (o.price !== undefined) fields.price = o.price;
  if (o.stopPrice !== undefined) fields.stopPrice = o.stopPrice;
  if (o.timeInForce !== undefined) fields.timeInForce = o.timeInForce;
  const tag = parseClientOrderId(o.clientOrderId)?.tag;
  if (tag !== undefined && tag !== '') fields.tag = tag;
  return fields;
}
