/**
 * Bounded history for long runs (engine option `retain`): once an account has more than `retain`
 * plus an eighth (for a small retain: retain again, up to 16) closed orders or trades on a
 * symbol, the oldest are forgotten down to `retain`. Open orders are never dropped. Amortised O(1) per order; off by default. The
 * slack is small on purpose: everything retained is still young when the GC runs and gets
 * copied, so a window that overshoots by 2x costs the GC half again as much.
 */
import type { AccountBook } from './account-book.ts';
import type { Order } from '../book/order.ts';
import type { EngineState } from '../state.ts';

export function pruneHistory(st: EngineState, acct: AccountBook, retain: number): void {
  // An eighth of retain, and for small windows as much as retain up to 16: pruning a short
  // window every other order cost more than keeping a few orders longer.
  const slack = Math.max(1, retain >> 3, Math.min(retain, 16));
  if (acct.trades.length > retain + slack) acct.trades.trimTo(retain);
  if (acct.closed.length > retain + slack) acct.closed.trimTo(retain, forget, st, acct);
}

/** Take a dropped closed order out of the id index and the client id chains. */
function forget(o: Order, st: EngineState, acct: AccountBook): void {
  st.ordersById.forget(o);
  // A generated client id is in byClientId only if the client also chose that very text.
  if (o.explicitCid === null && acct.autoLikeIds === 0) return;
  const latest = acct.byClientId.get(o.clientOrderId);
  if (latest === o) acct.byClientId.delete(o.clientOrderId);
  // Later orders with the same client id must not reach a forgotten one: cut the chain above it.
  else for (let x = latest; x !== undefined && x.prevSameClientId !== null; x = x.prevSameClientId) {
    if (x.prevSameClientId === o) {
      x.prevSameClientId = null;
      break;
    }
  }
}
