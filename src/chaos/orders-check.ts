/**
 * Orders sent vs orders the venue holds (issue 22 deliverable 2: "duplicates: any two venue orders
 * from one intent"). An intent's client order id is deterministic and journaled before it leaves
 * (core/orders/client-order-id.ts, journal/request-store.ts), so one intent is one client id; the
 * venue keeps client ids unique only among open orders (spec 4.5 newClientOrderId), so a resend
 * after the first order closed would show as two venue orders (spec 2.4) with one client id.
 */
import type { ChaosRunInput } from './input.ts';
import type { ChaosReport, DuplicateIntent } from './report.ts';

export function checkOrders(input: ChaosRunInput): ChaosReport['orders'] {
  const intents = new Set<string>();
  const journaled = new Set<string>();
  for (const r of input.journal.requests) {
    if (r.kind !== 'cancel') intents.add(r.clientOrderId);
    journaled.add(r.clientOrderId);
  }
  for (const o of input.journal.orders) journaled.add(o.clientOrderId);

  const byClientId = new Map<string, Set<string>>();
  for (const o of input.venue.orders) {
    let ids = byClientId.get(o.clientOrderId);
    if (ids === undefined) byClientId.set(o.clientOrderId, (ids = new Set()));
    // One order listed twice (allOrders and openOrders both hold it) is one order, not a duplicate.
    ids.add(o.orderId);
  }
  const duplicates: DuplicateIntent[] = [];
  const unjournaled: string[] = [];
  for (const [clientOrderId, ids] of byClientId) {
    if (ids.size > 1) duplicates.push({ clientOrderId, orderIds: [...ids] });
    if (!journaled.has(clientOrderId)) unjournaled.push(clientOrderId);
  }
  const venue = [...byClientId.values()].reduce((n, ids) => n + ids.size, 0);
  return { intents: intents.size, venue, duplicates, unjournaled };
}
