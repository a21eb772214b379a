/**
 * Bounded history for long runs (engine option `retain`): once an account has more than `retain`
 * plus an eighth (at least one) closed orders or trades on a symbol, the oldest are forgotten down
 * to `retain`. Open orders are never dropped. Amortised O(1) per order; off by default. The
 * slack is small on purpose: everything retained is still young when the GC runs and gets
 * copied, so a window that overshoots by 2x costs the GC half again as much.
 */
import type { AccountBook } from './account-book.ts';
import type { EngineState } from './state.ts';

export function pruneHistory(st: EngineState, acct: AccountBook, retain: number): void {
  const slack = Math.max(1, retain >> 3);
  if (acct.trades.length > retain + slack) acct.trades.splice(0, acct.trades.length - retain);
  const closed = acct.closed;
  if (closed.length <= retain + slack) return;
  const gone = closed.splice(0, closed.length - retain);
  for (const o of gone) {
    st.ordersById.forget(o);
    // A generated client id is in byClientId only if the client also chose that very text.
    if (o.explicitCid === null && acct.autoLikeIds === 0) continue;
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
}
