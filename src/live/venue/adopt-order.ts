/**
 * An order of this bot found open at the venue but not held by the order manager (placed before a
 * restart: issue 20 deliverable 6) taken into the order manager, so its later fills and its end
 * reach the strategy that placed it and move the account like any other order's. The strategy is
 * found by the client order id's key (client-order-id.ts: a hash of run id and strategy name), so
 * the host names the runs whose orders it may adopt (the journal's earlier live runs) and the
 * strategies it hosts. An order whose key matches none is not taken (false): the live venue then
 * journals it and keeps its events from the order manager.
 *
 * The order manager has no adopt event of its own (live/events/live-events.ts); this builds the
 * ManagedOrder as `submit` would have, at the progress the venue reported, through the registry's
 * public `add`. No reserve: the venue already locked the funds, and balance events say so.
 */
import { D } from '../../core/money/decimal.ts';
import { parseClientOrderId, runKey } from '../../core/orders/client-order-id.ts';
import { ManagedOrder } from '../../core/orders/managed-order.ts';
import type { OrderManager } from '../../core/orders/order-manager.ts';
import type { OrderState } from '../../core/orders/order-state.ts';
import type { OrderFields } from '../../core/orders/types.ts';
import type { VenueAdoptEvent } from '../events/live-events.ts';

/** Client-id key -> strategy name, for every (run, strategy) pair whose orders may be adopted. */
export function strategyKeys(runIds: readonly string[], strategies: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const run of runIds) for (const s of strategies) out.set(runKey(run, s), s);
  return out;
}

/** An adopted order, or one found at start-up whose outcome is still unknown (status UNKNOWN). */
export type AdoptInput = Omit<VenueAdoptEvent, 'kind' | 'status' | 'orderId'> & { readonly status: OrderState; readonly orderId?: string | undefined };

/** Put the order in the order manager; false when its strategy is not hosted here or it is held already. */
export function adoptOrder(om: OrderManager, e: AdoptInput, keys: ReadonlyMap<string, string>): boolean {
  const parsed = parseClientOrderId(e.clientOrderId);
  const strategy = parsed === undefined ? undefined : keys.get(parsed.key);
  if (strategy === undefined || parsed === undefined || om.orders.get(e.clientOrderId) !== undefined) return false;
  const fields: { -readonly [K in keyof OrderFields]: OrderFields[K] } = { side: e.side, type: e.type, quantity: e.origQty };
  if (e.price !== undefined) fields.price = e.price;
  if (e.stopPrice !== undefined) fields.stopPrice = e.stopPrice;
  if (e.timeInForce !== undefined) fields.timeInForce = e.timeInForce;
  if (parsed.tag !== '') fields.tag = parsed.tag;
  const o = new ManagedOrder(strategy, e.symbol, e.clientOrderId, fields, e.time, om.orders.nextSeq(), e.status);
  o.orderId = e.orderId;
  o.working = e.working;
  o.executedQty = new D(e.executedQty);
  o.setCumQuoteText(e.cumulativeQuoteQty);
  om.orders.add(o);
  return true;
}
