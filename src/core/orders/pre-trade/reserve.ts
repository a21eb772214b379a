/**
 * What an order claims from free funds (the engine's locking rule, core/matching/admission.ts,
 * seen from the client side): a BUY with a limit price claims price * quantity of quote, a BUY by
 * quoteOrderQty that amount, a SELL by quantity that much base. Orders sized against the market
 * (MARKET BUY by quantity, SELL by quoteOrderQty) are estimated at a reference price (the last
 * price); commissions are charged in the asset received, so they need no extra funds.
 *
 * The order manager uses this for orders the venue has not acknowledged yet (their funds are not
 * in `locked` yet: available = free - reserved by pending orders), and for what a cancel-replace
 * releases from the order it replaces.
 */
import type { Instrument } from '../../market/instrument.ts';
import { hasLimitPrice } from '../../market/types.ts';
import type { Dec } from '../../money/decimal.ts';
import { D, dec } from '../../money/decimal.ts';
import { parsedDecimal } from '../decimal-cache.ts';
import type { OrderFields } from '../types.ts';

export interface Reserve {
  readonly asset: string;
  readonly amount: Dec;
  /** True when the amount rests on a reference price (market-sized orders). */
  readonly estimated: boolean;
}

const ZERO = new D(0);
const opt = (v: string | undefined, _field: string): Dec | undefined => (v === undefined ? undefined : parsedDecimal(v));

/** Funds `order` needs while it is open, in full. */
export function reserveOf(inst: Instrument, order: OrderFields, refPrice: Dec | undefined): Reserve {
  const qty = opt(order.quantity, 'quantity');
  const quote = opt(order.quoteOrderQty, 'quoteOrderQty');
  if (order.side === 'BUY') {
    const price = hasLimitPrice(order.type) ? opt(order.price, 'price') : undefined;
    if (price && qty) return { asset: inst.quoteAsset, amount: price.times(qty), estimated: false };
    if (quote) return { asset: inst.quoteAsset, amount: quote, estimated: false };
    const ref = order.type === 'MARKET' ? refPrice : (opt(order.stopPrice, 'stopPrice') ?? refPrice);
    return { asset: inst.quoteAsset, amount: qty && ref ? qty.times(ref) : ZERO, estimated: true };
  }
  if (qty) return { asset: inst.baseAsset, amount: qty, estimated: false };
  return { asset: inst.baseAsset, amount: quote && refPrice && refPrice.gt(0) ? quote.div(refPrice) : ZERO, estimated: true };
}

/** What an open order still holds after `executed` base (and `cumQuote` quote) filled. */
export function remainingReserve(inst: Instrument, order: OrderFields, executed: Dec, cumQuote: Dec, refPrice: Dec | undefined): Reserve {
  const full = reserveOf(inst, order, refPrice);
  if (order.side === 'SELL' || (order.quantity !== undefined && hasLimitPrice(order.type))) {
    const price = order.side === 'BUY' ? dec(order.price as string, 'price') : undefined;
    const done = price ? executed.times(price) : executed;
    return { ...full, amount: D.max(ZERO, full.amount.minus(done)) };
  }
  return { ...full, amount: D.max(ZERO, full.amount.minus(cumQuote)) };
}
