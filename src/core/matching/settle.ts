/**
 * One fill: the exact balance movements, commissions, order progress, trade record and events.
 *
 * Funds: a BUY pays price * qty in quote, a SELL delivers qty in base. Commission is charged in
 * the asset received (buyer: base, seller: quote) at the maker or taker rate, so no order ever
 * needs extra quote locked for fees; it is credited to the fee account, which keeps every asset
 * conserved across accounts. A BUY that locked at its limit price releases limit * qty per fill
 * and gets the difference to the fill price back (price improvement). Orders flagged `locks`
 * draw on `locked`; funds-limited market orders draw on `free` (the matcher never lets them
 * overspend).
 *
 * `taker` or `maker` may be null: an external fill (placeOrder's externalPrice, applyPrint) has
 * one side outside the engine, whose assets appear or vanish with it.
 *
 * The fee account is the venue's own: it gets no balance events (nobody streams it; read it
 * from Balances), which saves formatting two balances per fill.
 */
import { Trade } from './accounts/account-book.ts';
import { addProduct, charge } from './numbers/amounts.ts';
import type { Held } from './numbers/amounts.ts';
import { orderEvent, tradeEvent } from './events.ts';
import { detach } from './lifecycle.ts';
import type { OpContext } from './op-context.ts';
import type { Order } from './book/order.ts';
import { budgetSpent } from './numbers/sizing.ts';
import type { EngineState } from './state.ts';
import type { SymbolBook } from './book/symbol-book.ts';

export function fill(st: EngineState, ctx: OpContext, sb: SymbolBook, taker: Order | null, maker: Order | null, price: number, lots: number): Trade {
  const spec = sb.spec;
  const nd = spec.pd + spec.qd;
  const qd = spec.qd;
  const buyerIsMaker = taker === null ? (maker?.isBuy ?? false) : !taker.isBuy;
  const buyer = buyerIsMaker ? maker : taker;
  const seller = buyerIsMaker ? taker : maker;
  if (buyer !== null) {
    const acct = buyer.acct;
    const q = acct.quote;
    if (buyer.locks && buyer.price > 0 && buyer.price !== price) {
      // Locked at its limit: release limit * lots, the difference to the fill price comes back.
      addProduct(q.l, -buyer.price, lots, nd);
      addProduct(q.f, buyer.price - price, lots, nd);
    } else {
      addProduct(buyer.locks ? q.l : q.f, -price, lots, nd);
    }
    acct.base.f.add(lots, qd);
    charge(acct.base.f, sb.feeBase.f, lots, 1, qd, buyerIsMaker ? spec.maker : spec.taker);
    ctx.touch(q);
    ctx.touch(acct.base);
    progress(buyer, lots, price, ctx.time);
  }
  if (seller !== null) {
    const acct = seller.acct;
    const b = acct.base;
    (seller.locks ? b.l : b.f).add(-lots, qd);
    addProduct(acct.quote.f, price, lots, nd);
    charge(acct.quote.f, sb.feeQuote.f, price, lots, nd, buyerIsMaker ? spec.taker : spec.maker);
    ctx.touch(b);
    ctx.touch(acct.quote);
    progress(seller, lots, price, ctx.time);
  }
  const t = new Trade(sb, spec, st.tradeIds.take(st.tradeSeq++), price, lots, ctx.time, buyer, seller, buyerIsMaker);
  if (buyer !== null) buyer.acct.trades.push(t);
  if (seller !== null) seller.acct.trades.push(t);
  if (maker !== null) {
    const lv = maker.level;
    if (lv !== null) {
      lv.qty -= lots;
      ctx.touchLevel(sb, maker.isBuy, price);
    }
    // A filled maker leaves the book; its TRADE event carries the FILLED status.
    if (maker.status === 'FILLED') detach(ctx, maker, leftover(maker));
  }
  if (taker !== null && taker.status === 'FILLED') detach(ctx, taker, leftover(taker));
  tradeEvent(ctx, t, taker);
  if (maker !== null) orderEvent(ctx, maker, 'TRADE', t);
  if (taker !== null) {
    orderEvent(ctx, taker, 'TRADE', t);
    if (ctx.fillsOf === taker) ctx.addTakerTrade(t);
  }
  return t;
}

/**
 * What a just-FILLED order still holds: nothing for quantity-sized orders (the fills released
 * it all), the unspent budget of a quote-sized BUY.
 */
function leftover(o: Order): Held {
  if (!(o.locks && o.byQuote && o.isBuy)) return 0;
  const left = o.quoteLeftN();
  return left >= 0 ? left : o.quoteLeft;
}

/** Executed quantity and quote, status, and the quote-sized order's reported quantity. */
function progress(o: Order, lots: number, price: number, time: number): void {
  o.executed += lots;
  o.addQuote(price, lots);
  o.updateTime = time;
  if (o.byQuote) {
    o.origQty = o.executed;
    o.status = budgetSpent(o, price) ? 'FILLED' : 'PARTIALLY_FILLED';
  } else {
    o.status = o.executed < o.origQty ? 'PARTIALLY_FILLED' : 'FILLED';
  }
}
