/**
 * An open order as a harness test looks at it: the order manager's record flattened to strings.
 */
import type { ManagedOrder } from '../../core/orders/index.ts';
import type { PlaceIntent } from '../intents/intents.ts';

/** A resting order, as tests look at it. */
export interface PaperOrder {
  readonly clientOrderId: string;
  readonly tag?: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: PlaceIntent['type'];
  readonly price?: string;
  readonly stopPrice?: string;
  readonly quantity: string;
  readonly executedQty: string;
}

export function paper(o: ManagedOrder): PaperOrder {
  const f = o.fields;
  return {
    clientOrderId: o.clientOrderId,
    ...(f.tag === undefined ? {} : { tag: f.tag }),
    symbol: o.symbol,
    side: f.side,
    type: f.type,
    ...(f.price === undefined ? {} : { price: f.price }),
    ...(f.stopPrice === undefined ? {} : { stopPrice: f.stopPrice }),
    quantity: f.quantity ?? '0',
    executedQty: o.executedQty.toFixed(),
  };
}
