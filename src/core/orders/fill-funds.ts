/**
 * A fill's effect on free / locked, until the venue's balance event reports it (protocol notes
 * 4.1: outboundAccountPosition carries an asset's free and locked after a change, absolute, and
 * comes after the operation's executionReports). Live, a fill reaches the order manager before
 * that balance (the newOrder FULL answer, or the executionReport frame before the balance frame),
 * and a strategy answering its fill (a protective stop on what it just bought) was denied for
 * funds it holds; the backtest's simulated venue sends the balance in the fill's batch. So the
 * fill moves the account provisionally and the next balance event of the asset replaces it: the
 * same strategy sees the same funds in both.
 *
 * Per fill (applied once: the order's seen trade ids), on the assets no balance event already
 * includes:
 * - the asset received (base of a BUY, quote of a SELL): free + its amount (qty, quoteQty);
 * - the asset paid (quote of a BUY, base of a SELL): what the order held for this part comes out
 *   of locked when the venue locked it in an earlier operation whose balance came first (a
 *   resting order's maker fill, a triggered stop), as far as locked has it; what the order held
 *   beyond what it paid (a BUY limit filled at a better price) returns to free; a fill at the
 *   order's own placement (a taker) pays from free, where the funds still are for us;
 * - the commission: free - commission, in its asset.
 * A balance event includes the fill, and no provisional move is made for its asset, when it comes
 * later in the same batch (one venue operation: the backtest, so its results do not move) or
 * came before with a later venue time. A duplicate never gets here (the seen ledger).
 */
import type { Instrument } from '../market/instrument.ts';
import { hasLimitPrice, isAlgoOrder } from '../market/types.ts';
import type { Dec } from '../money/decimal.ts';
import { D } from '../money/decimal.ts';
import type { AccountState } from './account.ts';
import { parsedDecimal } from './decimal-cache.ts';
import type { ManagedOrder } from './managed-order.ts';
import type { VenueEvent, VenueFillEvent } from './venue-messages.ts';

const ZERO = new D(0);
const NONZERO = /[1-9]/;

/** What the order held at the venue for this fill's part: price * qty for a priced BUY by quantity, else what it paid. */
function heldFor(o: ManagedOrder, e: VenueFillEvent, paid: Dec): Dec {
  const f = o.fields;
  if (e.side === 'BUY' && hasLimitPrice(f.type) && f.price !== undefined && f.quantity !== undefined) return parsedDecimal(f.price).times(parsedDecimal(e.qty));
  return paid;
}

/**
 * Release the fill's part of an order's pending reservation (reserve.ts), for an order the venue
 * has still not acknowledged after it (its reserve stays while it is pending).
 */
export function releaseReserve(o: ManagedOrder, e: VenueFillEvent): void {
  const r = o.reserve;
  if (r === undefined) return;
  const paid = parsedDecimal(e.side === 'BUY' ? e.quoteQty : e.qty);
  const part = heldFor(o, e, paid);
  o.reserve = { ...r, amount: D.max(ZERO, r.amount.minus(part)) };
}

/** Move `account` by the fill `events[index]` of order `o` on instrument `inst`, as above. */
export function creditFill(account: AccountState, o: ManagedOrder, inst: Instrument, events: readonly VenueEvent[], index: number): void {
  const e = events[index] as VenueFillEvent;
  const buy = e.side === 'BUY';
  const paidAsset = buy ? inst.quoteAsset : inst.baseAsset;
  const gotAsset = buy ? inst.baseAsset : inst.quoteAsset;
  const feeAsset = e.commissionAsset !== '' && NONZERO.test(e.commission) ? e.commissionAsset : undefined;
  let paidOpen = true;
  let gotOpen = true;
  let feeOpen = feeAsset !== undefined;
  // A balance later in this batch: the same operation's, it includes the fill (the backtest's case: nothing to compute).
  for (let j = index + 1; j < events.length; j++) {
    const x = events[j] as VenueEvent;
    if (x.kind !== 'balance') continue;
    if (x.asset === paidAsset) paidOpen = false;
    if (x.asset === gotAsset) gotOpen = false;
    if (x.asset === feeAsset) feeOpen = false;
  }
  if (!paidOpen && !gotOpen && !feeOpen) return;
  // One applied before with a later venue time includes it too.
  const after = (asset: string): boolean => (account.balanceTimeOf(asset) ?? -Infinity) > e.time;
  if (paidOpen && after(paidAsset)) paidOpen = false;
  if (gotOpen && after(gotAsset)) gotOpen = false;
  if (feeOpen && after(feeAsset as string)) feeOpen = false;
  const paid = parsedDecimal(buy ? e.quoteQty : e.qty);
  const got = parsedDecimal(buy ? e.qty : e.quoteQty);
  const fee = feeAsset === undefined ? ZERO : parsedDecimal(e.commission);
  // Per asset: free and locked moves, summed (the fee can be in the asset paid or received).
  let paidFree = ZERO;
  let paidLocked = ZERO;
  let gotFree = ZERO;
  if (paidOpen) {
    // Funds locked in an earlier operation: a resting order's maker fill, a triggered stop.
    const lockedEarlier = e.isMaker || isAlgoOrder(o.fields.type);
    if (lockedEarlier) {
      const held = heldFor(o, e, paid);
      const fromLocked = D.min(held, account.lockedOf(paidAsset));
      paidLocked = fromLocked.negated();
      paidFree = fromLocked.minus(paid);
    } else paidFree = paid.negated();
  }
  if (gotOpen) gotFree = got;
  if (feeOpen) {
    if (feeAsset === paidAsset) paidFree = paidFree.minus(fee);
    else if (feeAsset === gotAsset) gotFree = gotFree.minus(fee);
    else account.moveFunds(feeAsset as string, fee.negated(), ZERO);
  }
  if (paidOpen || (feeOpen && feeAsset === paidAsset)) account.moveFunds(paidAsset, paidFree, paidLocked);
  if (gotOpen || (feeOpen && feeAsset === gotAsset)) account.moveFunds(gotAsset, gotFree, ZERO);
}
