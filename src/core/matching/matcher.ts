/**
 * The taker side of matching: one incoming (or just triggered) order against the opposite book,
 * best price first, then arrival order; every fill at the maker's price. Then what the book
 * could not give, at the operation's external price if there is one (a triggered stop-market at
 * the operation's stop price for its side when one is set), as much as the symbol's outside
 * liquidity cap leaves (SymbolBook.extLeft), and the order's fate: rest (GTC with a limit, also
 * when the cap ran out), FILLED, or EXPIRED (IOC, FOK, MARKET remainder).
 *
 * With outside liquidity (an external price: backtest and replay) the book is walked only where
 * it is strictly better for the taker than the price that liquidity is offered to it at
 * (`outside`: the external price, or a triggered stop-market's stop price for its side): asks
 * below it for a BUY, bids above it for a SELL. Unlimited liquidity at that price stands before
 * every book order at it or beyond it, as a real market's orders at its price stand before a
 * backtest's own stale ones; at an equal price too, so a backtest makes no self-trade a real
 * book would not. Self-trade prevention applies to the own orders the walk does reach. When the
 * cap runs out the rest meets the order's fate above: book orders at or beyond the outside price
 * are never taken (a backtest's book holds only its own account's orders, no liquidity for it).
 * Without an external price (the sandbox) the book alone is walked, price-time.
 *
 * Self-trade prevention by the taker's stpFlag (spec 2.1) when it meets its own account's order:
 * CN cancels the taker, CO cancels the resting order and keeps matching, CB cancels both.
 * FOK first walks the book without touching it (own orders end the walk unless CO would cancel
 * them) and expires with no fill unless the whole quantity is there.
 *
 * Sizing (sizing.ts): a quantity-sized order fills its remaining quantity; a quote-sized one
 * (quoteOrderQty) fills whole steps while its budget lasts and is FILLED once the rest cannot pay
 * for one step at its last fill price. Funds-limited orders (MARKET BUY by quantity, MARKET SELL
 * by quote) stop when free funds run out. What is left when liquidity or funds end EXPIRES.
 */
import type { BookSide } from './book/book-side.ts';
import { rest, retire, stpCancel } from './lifecycle.ts';
import type { OpContext } from './op-context.ts';
import type { Order } from './book/order.ts';
import { fill } from './settle.ts';
import { capacity } from './numbers/sizing.ts';
import type { EngineState } from './state.ts';
import type { SymbolBook } from './book/symbol-book.ts';

function crosses(o: Order, price: number): boolean {
  return o.price <= 0 || (o.isBuy ? price <= o.price : price >= o.price);
}

/** Whether book price `price` is strictly better for `o` than outside liquidity at `at` (any price when `at` < 0: none). */
function beats(o: Order, price: number, at: number): boolean {
  return at < 0 || (o.isBuy ? price < at : price > at);
}

/**
 * The price outside liquidity is offered to `o` at in this operation: a triggered stop-market's
 * stop price for its side when the operation sets one (slippage), else the external price; -1
 * when there is none or `o`'s limit does not reach the external price.
 */
function outside(ctx: OpContext, o: Order): number {
  const ext = ctx.ext;
  if (ext < 0 || !crosses(o, ext)) return -1;
  const stop = o.price <= 0 && o.isAlgo ? (o.isBuy ? ctx.stopBuy : ctx.stopSell) : -1;
  return stop >= 0 ? stop : ext;
}

/** FOK: would the book (where it beats the outside price `at`) plus the external liquidity the cap leaves fill the whole quantity? */
function fokFillable(o: Order, opp: BookSide, at: number): boolean {
  let need = o.remaining;
  for (const lv of opp.walk()) {
    if (!crosses(o, lv.price) || !beats(o, lv.price, at)) break;
    for (let m = lv.head; m !== null; m = m.next) {
      if (m.acct.accountId === o.acct.accountId) {
        if (o.stp === 'CO') continue;
        return false;
      }
      need -= m.remaining;
      if (need <= 0) return true;
    }
  }
  return at >= 0 && need <= o.sb.extLeft;
}

/** Record a trade price: last price for the symbol, and stops that it triggers join the queue. */
export function setLastPrice(ctx: OpContext, sb: SymbolBook, price: number): void {
  sb.lastPrice = price;
  if (sb.stops.size > 0) sb.stops.collect(price, ctx.pending);
}

export function execute(st: EngineState, ctx: OpContext, o: Order): void {
  const sb = o.sb;
  const opp = o.isBuy ? sb.asks : sb.bids;
  const at = outside(ctx, o);
  if (o.tif === 'FOK' && !fokFillable(o, opp, at)) {
    retire(ctx, o, 'EXPIRED', 'EXPIRED');
    return;
  }
  let outOfCapacity = false;
  const me = o.acct.accountId;
  outer: for (let lv = opp.best(); lv !== undefined && crosses(o, lv.price) && beats(o, lv.price, at); lv = opp.best()) {
    for (let m = lv.head; m !== null; ) {
      const next = m.next;
      if (m.acct.accountId === me) {
        if (o.stp !== 'CN') stpCancel(ctx, m);
        if (o.stp !== 'CO') {
          stpCancel(ctx, o);
          return;
        }
      } else {
        const cap = capacity(o, lv.price);
        if (cap <= 0) {
          outOfCapacity = true;
          break outer;
        }
        fill(st, ctx, sb, o, m, lv.price, cap < m.remaining ? cap : m.remaining);
        setLastPrice(ctx, sb, lv.price);
        if (o.status === 'FILLED') return;
      }
      m = next;
    }
  }
  if (!outOfCapacity && at >= 0) {
    // A triggered stop-market may take at its own price (slippage); the last price stays ctx.ext.
    const cap = capacity(o, at);
    const left = sb.extLeft;
    // Out of capacity (quantity, budget, funds) the order is done; out of outside liquidity (the
    // cap) a GTC LIMIT rests with the rest.
    outOfCapacity = cap <= left;
    const lots = outOfCapacity ? cap : left;
    if (lots > 0) {
      fill(st, ctx, sb, o, null, at, lots);
      if (left !== Infinity) sb.extLeft = left - lots;
      setLastPrice(ctx, sb, ctx.ext);
      if (o.status === 'FILLED') return;
    }
  }
  finish(ctx, o, outOfCapacity);
}

function finish(ctx: OpContext, o: Order, outOfCapacity: boolean): void {
  if (o.price > 0 && o.tif === 'GTC' && !outOfCapacity && !o.byQuote) {
    rest(ctx, o);
    return;
  }
  retire(ctx, o, 'EXPIRED', 'EXPIRED');
}
