/**
 * Bounded history for long runs (engine option `retain`): once an account has more than twice
 * `retain` closed orders or trades on a symbol, the oldest are forgotten down to `retain`. Open
 * orders are never dropped. Amortised O(1) per order; off by default.
 */
import type { AccountBook } from './account-book.ts';
import type { EngineState } from './state.ts';

export function pruneHistory(st: EngineState, acct: AccountBook, retain: number): void {
  if (acct.trades.length > 2 * retain) acct.trades.splice(0, acct.trades.length - retain);
  const closed = acct.closed;
  if (closed.length <= 2 * retain) return;
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
