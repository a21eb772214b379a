/**
 * The matching engine's events (core/matching/types.ts) as venue events (ports/venue.ts), for one
 * account: what the user data stream would carry (protocol notes 4.1). An execution report with
 * a trade becomes a `fill` with the order's status after it; other execution reports become
 * `order` events; the account's balance positions become `balance` events. Public trades and
 * depth changes are not the account's business and are dropped.
 *
 * The simulated venue does not translate: its engine streams these events for its account as it
 * runs (core/matching/accounts/account-stream.ts), without building EngineEvents. This is the reference
 * that stream must equal (engine-events.test.ts checks it over random operations), and the way to
 * view a recorded engine's events from one account.
 */
import { venueReason } from '../../core/matching/index.ts';
import type { EngineEvent } from '../../core/matching/index.ts';
import type { VenueEvent, VenueOrderEvent } from '../../ports/venue.ts';

const FINAL = new Set(['FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED']);

/**
 * Translate `events` of `accountId`; `open` tracks the account's open order ids (added while an
 * order is live, removed when it ends) so the simulated venue knows when a bar needs its path.
 */
export function toVenueEvents(events: readonly EngineEvent[], accountId: string, open: Set<string>): VenueEvent[] {
  const out: VenueEvent[] = [];
  for (const e of events) {
    if (e.kind === 'balance') {
      if (e.accountId === accountId) out.push({ kind: 'balance', asset: e.asset, free: e.free, locked: e.locked, time: e.time });
      continue;
    }
    if (e.kind !== 'order' || e.accountId !== accountId) continue;
    if (FINAL.has(e.status)) open.delete(e.orderId);
    else open.add(e.orderId);
    if (e.executionType === 'TRADE') {
      out.push({
        kind: 'fill',
        symbol: e.symbol,
        clientOrderId: e.clientOrderId,
        orderId: e.orderId,
        tradeId: e.tradeId,
        side: e.side,
        price: e.lastPrice,
        qty: e.lastQty,
        quoteQty: e.lastQuoteQty,
        commission: e.commission,
        commissionAsset: e.commissionAsset ?? '',
        isMaker: e.isMaker,
        orderStatus: e.status === 'FILLED' ? 'FILLED' : 'PARTIALLY_FILLED',
        cumulativeQty: e.cumQty,
        cumulativeQuoteQty: e.cumQuoteQty,
        time: e.time,
      });
      continue;
    }
    const reason = venueReason(e.cause, e.executionType, e.type, e.timeInForce);
    // Written out, `reason` only when there is one (not spread in: one of these per order change).
    const o: { -readonly [K in keyof VenueOrderEvent]: VenueOrderEvent[K] } = {
      kind: 'order',
      symbol: e.symbol,
      clientOrderId: e.clientOrderId,
      orderId: e.orderId,
      status: e.status,
      executedQty: e.cumQty,
      cumulativeQuoteQty: e.cumQuoteQty,
      working: e.isWorking,
      time: e.time,
    };
    if (reason !== undefined) o.reason = reason;
    out.push(o);
  }
  return out;
}
