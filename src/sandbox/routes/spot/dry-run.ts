/**
 * POST order/test (spec 4.5): everything a new order would be checked for (order combination,
 * filters, post-only, duplicate client order id, stop trigger rule, funds), nothing placed. The
 * engine's `testOrder` runs the same admission code as `placeOrder`, hence the same answers.
 */
import type { NewOrderRequest, Rejection, SpotEngine } from '../../../core/matching/index.ts';

/** undefined when the order would be accepted. */
export function dryRunOrder(engine: SpotEngine, accountId: string, req: NewOrderRequest, now: number): Rejection | undefined {
  return engine.testOrder(accountId, req, now);
}
