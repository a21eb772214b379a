/**
 * POST order/test (spec 4.5): everything a new order would be checked for (order combination,
 * filters, post-only, duplicate client order id, stop trigger rule, funds), nothing placed.
 *
 * The engine has no validate-only call, so this runs its own admission steps (validate.ts
 * `parseOrder`, admission.ts `admit`) on its live book: the same code, hence the same answers, as
 * `placeOrder`. It reaches engine-internal helpers; it belongs in SpotEngine as `testOrder` and
 * should move there (reported to the lead). `account()` creates the account's empty per-symbol
 * record on first use, which changes nothing observable.
 */
import { admit } from '../../../core/matching/admission.ts';
import type { NewOrderRequest, Rejection, SpotEngine } from '../../../core/matching/index.ts';
import { ParsedOrder, parseOrder } from '../../../core/matching/validate.ts';

/** undefined when the order would be accepted. */
export function dryRunOrder(engine: SpotEngine, accountId: string, req: NewOrderRequest, now: number): Rejection | undefined {
  const sb = engine.books.get(req.symbol);
  if (sb === undefined) return { ok: false, code: -1025, msg: "parameter 'symbol' is not valid" };
  const parsed = parseOrder(sb.spec, req, new ParsedOrder());
  if (!parsed.ok) return parsed;
  // No external price (-1) and no reference prices: the sandbox's engine is built without them.
  return admit(engine.st, sb, engine.account(accountId, sb), req, parsed, now, -1, undefined);
}
