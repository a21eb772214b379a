/**
 * How much a taker may take at a price: its remaining quantity, its remaining quote budget in
 * whole steps (quoteOrderQty orders), or what its free funds pay for (funds-limited market orders:
 * MARKET BUY by quantity, MARKET SELL by quote, which hold nothing locked).
 */
import type { Order } from './order.ts';
import type { SymbolSpec } from './symbol-spec.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

/** Whole steps of quantity that `units` of quote pay for at price int `price`. */
export function lotsFor(units: bigint, price: number, spec: SymbolSpec): number {
  const raw = units / (BigInt(price) * spec.notionalK);
  const lots = raw > MAX_SAFE_BIG ? MAX_SAFE : Number(raw);
  return lots - (lots % spec.stepLots);
}

/** Whole steps of quantity held in `units` of base. */
export function lotsHeld(units: bigint, spec: SymbolSpec): number {
  const raw = units / spec.baseK;
  const lots = raw > MAX_SAFE_BIG ? MAX_SAFE : Number(raw);
  return lots - (lots % spec.stepLots);
}

/** A quote-sized order is complete once its budget cannot pay for one more step at `price`. */
export function budgetSpent(o: Order, price: number): boolean {
  return lotsFor(o.quoteQty - o.cumQuote, price, o.sb.spec) === 0;
}

/** How much the taker can take at `price` now; 0 means it must stop. */
export function capacity(o: Order, price: number): number {
  const spec = o.sb.spec;
  if (!o.byQuote) {
    const rem = o.remaining;
    if (o.locks || !o.isBuy) return rem;
    const afford = lotsFor(o.acct.quote.free, price, spec);
    return afford < rem ? afford : rem;
  }
  const lots = lotsFor(o.quoteQty - o.cumQuote, price, spec);
  if (o.isBuy || o.locks) return lots;
  const held = lotsHeld(o.acct.base.free, spec);
  return held < lots ? held : lots;
}
