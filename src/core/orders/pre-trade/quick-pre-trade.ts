/**
 * The pre-trade check's fast path (pre-trade.ts is the general one): the orders a strategy sends
 * most (MARKET by quoteOrderQty or quantity, LIMIT by price and quantity) with short plain
 * amounts, checked on scaled integers (core/market/quick-rules.ts, money/plain-int.ts) without
 * a Decimal. It answers only "certainly approved", with the same reserve the general check
 * would return; on any doubt (a failure, an amount it cannot read exactly, a filter or order
 * shape it does not restate, funds claimed by pending orders) it answers undefined and the caller
 * runs `preTradeCheck`, which produces every denial and its text. A property test
 * (quick-pre-trade.test.ts) holds the two together.
 *
 * Mirrors, for these orders: checkOrder's rules (symbol TRADING, order type enabled, price *
 * quantity > 0), PRICE_FILTER on the limit price, LOT_SIZE on the quantity, NOTIONAL and
 * MIN_NOTIONAL on notional-of.ts's notional (limit price * quantity; quoteOrderQty; quantity *
 * last price), MAX_NUM_ORDERS; then reserve.ts's reserve against the free balance.
 */
import type { Instrument } from '../../market/instrument.ts';
import { MAX_QUICK_SCALE, onQuickGrid, quickRules } from '../../market/quick-rules.ts';
import type { QuickRules, ScaledRange } from '../../market/quick-rules.ts';
import { cmpPlainInt, readPlainInt, readPlainIntDown } from '../../money/plain-int.ts';
import type { PlainInt } from '../../money/plain-int.ts';
import { parsedDecimal } from '../decimal-cache.ts';
import type { Reserve } from './reserve.ts';
import type { OrderFields } from '../types.ts';

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * reserve.ts's reserve, as reserveOf computes it: the parsed text (a memo hit for a repeated
 * amount; a SELL's quantity parsed here is the memo's hit when its fill arrives with the same
 * text), or price * quantity, quantity * reference price.
 */
const reserve = (asset: string, a: string, b: string | undefined, estimated: boolean): Reserve => ({
  asset,
  amount: b === undefined ? parsedDecimal(a) : parsedDecimal(a).times(parsedDecimal(b)),
  estimated,
});

/** Scratch for the amounts read (one order at a time, synchronously). */
const P: PlainInt = { v: 0, s: 0 };
const Q: PlainInt = { v: 0, s: 0 };
const L: PlainInt = { v: 0, s: 0 };
const F: PlainInt = { v: 0, s: 0 };

const within = (r: ScaledRange | undefined, v: number, s: number): boolean => r === undefined || r.holds(v, s);

/** LOT_SIZE on the quantity read into Q. */
const lotPasses = (r: QuickRules): boolean => Q.s <= MAX_QUICK_SCALE && within(r.qty, Q.v, Q.s) && onQuickGrid(r.stepDecimals, Q.s);

/** NOTIONAL / MIN_NOTIONAL on a notional v * 10^-s. */
const notionalPasses = (r: QuickRules, v: number, s: number): boolean => v <= MAX && s <= MAX_QUICK_SCALE && within(r.notional, v, s);

export interface QuickContext {
  /** Open orders on the symbol (this one not included). */
  readonly openOrders: number;
  /** The last price as set (text), if any. */
  readonly lastText: string | undefined;
  /** The free balance of `asset` as text when nothing else claims it (no pending reserve, no credit); undefined sends the order to the general check. */
  freeText(asset: string): string | undefined;
}

/** `{ ok: true, reserve }` of preTradeCheck, as the reserve alone; undefined when the general check must answer. */
export function quickPreTrade(symbol: string, order: OrderFields, inst: Instrument, ctx: QuickContext): Reserve | undefined {
  if (inst.symbol !== symbol || inst.status !== 'TRADING' || order.stopPrice !== undefined) return undefined;
  const r = quickRules(inst);
  if (r === undefined || ctx.openOrders + 1 > r.maxOrders) return undefined;
  // The general check parses the last price for every order (a bad one throws there): unreadable here, it answers.
  const lastText = ctx.lastText;
  if (lastText !== undefined && !readPlainInt(lastText, L)) return undefined;
  const buy = order.side === 'BUY';
  const qtyText = order.quantity;
  if (order.type === 'MARKET') {
    if (!r.marketEnabled || order.price !== undefined) return undefined;
    const quoteText = order.quoteOrderQty;
    if (quoteText !== undefined) {
      // BUY by quote: the notional and the reserve are the quote itself. (SELL by quote, or both sizes: general.)
      if (!buy || qtyText !== undefined || !readPlainInt(quoteText, Q) || !notionalPasses(r, Q.v, Q.s)) return undefined;
      return funds(ctx, inst.quoteAsset, Q.v, Q.s) ? reserve(inst.quoteAsset, quoteText, undefined, false) : undefined;
    }
    // By quantity: the notional at the last price (without one the general check skips or estimates otherwise).
    if (qtyText === undefined || lastText === undefined || !readPlainInt(qtyText, Q) || !lotPasses(r)) return undefined;
    const n = L.v * Q.v;
    const ns = L.s + Q.s;
    if (!notionalPasses(r, n, ns)) return undefined;
    if (!buy) return funds(ctx, inst.baseAsset, Q.v, Q.s) ? reserve(inst.baseAsset, qtyText, undefined, false) : undefined;
    return funds(ctx, inst.quoteAsset, n, ns) ? reserve(inst.quoteAsset, qtyText, lastText, true) : undefined;
  }
  if (order.type !== 'LIMIT' || !r.limitEnabled) return undefined;
  const priceText = order.price;
  if (priceText === undefined || qtyText === undefined || order.quoteOrderQty !== undefined) return undefined;
  if (!readPlainInt(priceText, P) || !readPlainInt(qtyText, Q)) return undefined;
  // price * quantity > 0 (spec 7.4), PRICE_FILTER, LOT_SIZE, the notional price * quantity.
  if (P.v === 0 || Q.v === 0 || P.s > MAX_QUICK_SCALE || !within(r.price, P.v, P.s) || !onQuickGrid(r.tickDecimals, P.s) || !lotPasses(r)) return undefined;
  const n = P.v * Q.v;
  const ns = P.s + Q.s;
  if (!notionalPasses(r, n, ns)) return undefined;
  if (!buy) return funds(ctx, inst.baseAsset, Q.v, Q.s) ? reserve(inst.baseAsset, qtyText, undefined, false) : undefined;
  return funds(ctx, inst.quoteAsset, n, ns) ? reserve(inst.quoteAsset, priceText, qtyText, false) : undefined;
}

/** The reserve v * 10^-s is at most the free balance of `asset` (nothing else claims it). */
function funds(ctx: QuickContext, asset: string, v: number, s: number): boolean {
  const free = ctx.freeText(asset);
  // The free balance truncated to what a safe integer holds (balances collect many decimals from
  // fees): a reserve within the truncated amount is within the balance.
  if (free === undefined || !readPlainIntDown(free, F)) return false;
  const c = cmpPlainInt(v, s, F.v, F.s);
  return c !== undefined && c <= 0;
}
