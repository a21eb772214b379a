/**
 * How much a taker may take at a price: its remaining quantity, its remaining quote budget in
 * whole steps (quoteOrderQty orders), or what its free funds pay for (funds-limited market orders:
 * MARKET BUY by quantity, MARKET SELL by quote, which hold nothing locked). Budgets and funds are
 * read on the notional / quantity scale as numbers while they fit (amounts.ts), else as bigint
 * units.
 */
import { floorDiv } from '../../money/safe-int.ts';
import type { Order } from '../book/order.ts';
import type { SymbolSpec } from './symbol-spec.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

const whole = (lots: number, spec: SymbolSpec): number => lots - (lots % spec.stepLots);

/** Whole steps of quantity that `units` of quote pay for at price int `price`. */
export function lotsFor(units: bigint, price: number, spec: SymbolSpec): number {
  const raw = units / (BigInt(price) * spec.notionalK);
  return whole(raw > MAX_SAFE_BIG ? MAX_SAFE : Number(raw), spec);
}

/** The same for quote `n` on the notional scale (price int * lots). */
function lotsForScaled(n: number, price: number, spec: SymbolSpec): number {
  return whole(floorDiv(n, price), spec);
}

/** Whole steps of quantity held in `units` of base. */
export function lotsHeld(units: bigint, spec: SymbolSpec): number {
  const raw = units / spec.baseK;
  return whole(raw > MAX_SAFE_BIG ? MAX_SAFE : Number(raw), spec);
}

/** Whole steps the unspent budget of a quote-sized order pays for at `price`. */
function budgetLots(o: Order, price: number, spec: SymbolSpec): number {
  const left = o.quoteLeftN();
  return left >= 0 ? lotsForScaled(left, price, spec) : lotsFor(o.quoteLeft, price, spec);
}

/** A quote-sized order is complete once its budget cannot pay for one more step at `price`. */
export function budgetSpent(o: Order, price: number): boolean {
  return budgetLots(o, price, o.sb.spec) === 0;
}

/** How much the taker can take at `price` now; 0 means it must stop. */
export function capacity(o: Order, price: number): number {
  const spec = o.sb.spec;
  if (!o.byQuote) {
    const rem = o.remaining;
    if (o.locks || !o.isBuy) return rem;
    const free = o.acct.quote.f.floorAt(spec.pd + spec.qd);
    const afford = free >= 0 ? lotsForScaled(free, price, spec) : lotsFor(o.acct.quote.free, price, spec);
    return afford < rem ? afford : rem;
  }
  const lots = budgetLots(o, price, spec);
  if (o.isBuy || o.locks) return lots;
  const base = o.acct.base.f.floorAt(spec.qd);
  const held = base >= 0 ? whole(base, spec) : lotsHeld(o.acct.base.free, spec);
  return held < lots ? held : lots;
}
