/**
 * An order of this bot found open at the venue but not held by the order manager (placed before a
 * restart: issue 20 deliverable 6) taken into the order manager, so its later fills and its end
 * reach the strategy that placed it and move the account like any other order's. The strategy is
 * found by the client order id's key (client-order-id.ts: a hash of run id and strategy name), so
 * the host names the runs whose orders it may adopt (the journal's earlier live runs) and the
 * strategies it hosts. An order whose key matches none is not taken (false): the live venue then
 * journals it and keeps its events from the order manager.
 *
 * The order manager's own `adopt` (core/orders/adopt.ts) takes it in; this only says whose it is.
 */
import { parseClientOrderId, runKey } from '../../core/orders/client-order-id.ts';
import type { AdoptOrder } from '../../core/orders/adopt.ts';
import type { OrderManager } from '../../core/orders/order-manager.ts';
import type { OrderState } from '../../core/orders/order-state.ts';
import type { VenueAdoptEvent } from '../events/live-events.ts';

/** Client-id key -> strategy name, for every (run, strategy) pair whose orders may be adopted. */
export function strategyKeys(runIds: readonly string[], strategies: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const run of runIds) for (const s of strategies) out.set(runKey(run, s), s);
  return out;
}

/** An adopted order, or one found at start-up whose outcome is still unknown (status UNKNOWN). */
export type AdoptInput = Omit<VenueAdoptEvent, 'kind' | 'status' | 'orderId'> & { readonly status: OrderState; readonly orderId?: string | undefined };

/** The strategy whose order this is, by its client order id's key; undefined when none hosted here. */
export function strategyOf(clientOrderId: string, keys: ReadonlyMap<string, string>): string | undefined {
  const parsed = parseClientOrderId(clientOrderId);
  return parsed === undefined ? undefined : keys.get(parsed.key);
}

/** Put the order in the order manager; false when its strategy is not hosted here, it is held already, or the manager refused it. */
export function adoptOrder(om: OrderManager, e: AdoptInput, keys: ReadonlyMap<string, string>): boolean {
  const strategy = strategyOf(e.clientOrderId, keys);
  if (strategy === undefined) return false;
  const order: AdoptOrder = e;
  return om.adopt(strategy, order).taken;
}
