/**
 * Whether a parsed new order is accepted, in the venue's order of concerns: the filter engine
 * (spec 2.3 / 7.5, with the 7.4 order rules), then post-only (LIMIT_MAKER), duplicate client
 * order id (4.5: only an open order blocks its id), the stop trigger rule, and funds. Every
 * rejection is spec 7.4 / 7.5 text with code -2010. The duplicate check spans the account's
 * symbols (query and cancel by client id name no symbol).
 *
 * Filters: LIMIT, LIMIT_MAKER and MARKET orders of symbols whose every filter the integer
 * pre-check covers (fast-filters.ts) skip Decimal entirely when they pass; everything else, and every
 * failure, goes through `checkOrder` with the engine's own market context (last price, book
 * tops, the price after the fill from its own book, open order counts, and the caller's
 * reference prices for the PERCENT_PRICE family). Checks the context cannot feed are skipped,
 * as the filter engine defines. MAX_NUM_ORDERS counts working open orders (normal ones and stops
 * after their trigger, spec 2.3); untriggered stops count for MAX_NUM_ALGO_ORDERS only.
 *
 * Funds: the order must be able to lock what it will hold (lockFor). Funds-limited MARKET orders
 * must afford one step at the best price (BUY by quantity) or hold one step (SELL by quote).
 */
import { dec } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';
import { checkOrder, ENGINE_MESSAGE } from '../market/index.ts';
import type { MarketContext, OrderCheckInput } from '../market/index.ts';
import type { AccountBook } from './accounts/account-book.ts';
import { covers, heldScale, quoteHeld } from './numbers/amounts.ts';
import type { Held } from './numbers/amounts.ts';
import { fastPasses, fastPassesMarket } from './numbers/fast-filters.ts';
import { latestByClientId } from './lifecycle.ts';
import { formatScaled, INEXACT } from './numbers/scaled.ts';
import type { EngineState } from './state.ts';
import { wouldTrigger } from './stops.ts';
import type { SymbolBook } from './book/symbol-book.ts';
import { notionalUnits } from './numbers/symbol-spec.ts';
import type { NewOrderRequest, Rejection } from './types.ts';
import { NEW_ORDER_REJECTED, reject } from './validate.ts';
import type { ParsedOrder } from './validate.ts';

/** Reference prices the engine does not compute (decimal strings), by symbol. */
export type MarketRefs = (symbol: string, now: number) => { weightedAvgPrice?: string; simpleAvgPrice?: string; indexPrice?: string } | undefined;

const refused = (msg: string): Rejection => reject(NEW_ORDER_REJECTED, msg);
const priceDec = (sb: SymbolBook, p: number): Dec => dec(formatScaled(p, sb.spec.pd));
const optDec = (v: string | undefined): Dec | undefined => (v === undefined || v === '' ? undefined : dec(v));

/** The last price a walk of the own book would reach (PERCENT_PRICE_ORDER_SIZE), or null. */
function priceAfterFill(sb: SymbolBook, p: ParsedOrder): Dec | null {
  const buy = p.side === 'BUY';
  let leftQty = p.qty;
  let leftQuote = p.quoteQty;
  let last = -1;
  for (const lv of (buy ? sb.asks : sb.bids).walk()) {
    if (p.price > 0 && (buy ? lv.price > p.price : lv.price < p.price)) break;
    last = lv.price;
    if (p.quoteQty > 0n) {
      leftQuote -= notionalUnits(sb.spec, lv.price, lv.qty);
      if (leftQuote <= 0n) break;
    } else if ((leftQty -= lv.qty) <= 0) break;
  }
  return last < 0 ? null : priceDec(sb, last);
}

function slowCheck(sb: SymbolBook, acct: AccountBook, req: NewOrderRequest, p: ParsedOrder, now: number, refs: MarketRefs | undefined): Rejection | undefined {
  const spec = sb.spec;
  const input: OrderCheckInput = {
    symbol: spec.symbol,
    side: p.side,
    type: p.type,
    price: optDec(req.price),
    quantity: optDec(req.quantity),
    quoteOrderQty: optDec(req.quoteOrderQty),
    stopPrice: optDec(req.stopPrice),
  };
  const bid = sb.bids.best();
  const ask = sb.asks.best();
  const r = refs?.(spec.symbol, now);
  const market: MarketContext = {
    lastPrice: sb.lastPrice >= 0 ? priceDec(sb, sb.lastPrice) : undefined,
    bestBid: bid && priceDec(sb, bid.price),
    bestAsk: ask && priceDec(sb, ask.price),
    priceAfterFill: p.inexact ? undefined : () => priceAfterFill(sb, p),
    openOrders: acct.openWorking,
    openAlgoOrders: acct.openAlgo,
    weightedAvgPrice: optDec(r?.weightedAvgPrice),
    simpleAvgPrice: optDec(r?.simpleAvgPrice),
    indexPrice: optDec(r?.indexPrice),
  };
  const result = checkOrder(spec.instrument, input, market);
  const rule = result.rejections.find((x) => x.rule !== 'post-only');
  if (rule) return refused(rule.message);
  const first = result.violations[0];
  if (first) return { ok: false, code: NEW_ORDER_REJECTED, msg: first.message, violations: result.violations };
  return undefined;
}

function invalidValue(p: ParsedOrder): string | undefined {
  if (p.price === INEXACT || (p.price <= 0 && p.type !== 'MARKET' && p.type !== 'STOP_LOSS' && p.type !== 'TAKE_PROFIT')) return 'price';
  if (p.stopPrice === INEXACT || (p.isAlgo && p.stopPrice <= 0)) return 'stopPrice';
  if (p.qty === INEXACT || (p.quoteQty === 0n && p.qty <= 0)) return 'quantity';
  return undefined;
}

/** Funds the order holds while open: quote for a BUY, base for a SELL (none when funds-limited); amounts.ts `Held`. */
export function lockFor(sb: SymbolBook, p: ParsedOrder): Held {
  if (p.side === 'BUY') return p.price > 0 ? quoteHeld(sb.spec, p.price, p.qty) : p.quoteN >= 0 ? p.quoteN : p.quoteQty;
  return p.quoteQty > 0n ? 0 : p.qty;
}

/** What the accepted order must lock (see lockFor), or why it is refused. */
export function admit(st: EngineState, sb: SymbolBook, acct: AccountBook, req: NewOrderRequest, p: ParsedOrder, now: number, ext: number, refs: MarketRefs | undefined): Rejection | Held {
  const fast = sb.spec.fast;
  const quick =
    fast !== undefined &&
    !p.inexact &&
    (p.type === 'MARKET'
      ? fastPassesMarket(fast, p.qty, p.quoteN, p.quoteQty, sb.lastPrice, acct.openWorking, sb.spec.notionalK)
      : (p.type === 'LIMIT' || p.type === 'LIMIT_MAKER') && fastPasses(fast, p.type === 'LIMIT_MAKER', p.price, p.qty, acct.openWorking));
  if (!quick) {
    const failed = slowCheck(sb, acct, req, p, now, refs);
    if (failed) return failed;
    const bad = invalidValue(p);
    if (bad !== undefined) return reject(-1025, `parameter '${bad}' is not valid`);
  }
  const buy = p.side === 'BUY';
  if (p.type === 'LIMIT_MAKER') {
    const top = (buy ? sb.asks : sb.bids).best();
    const takes = (q: number) => (buy ? q <= p.price : q >= p.price);
    if ((top !== undefined && takes(top.price)) || (ext >= 0 && takes(ext))) return refused(ENGINE_MESSAGE.wouldMatchAndTake);
  }
  const cid = req.clientOrderId;
  const same = cid !== undefined && cid !== '' ? (latestByClientId(st, acct, cid) ?? null) : null;
  p.sameClientId = same;
  if (same?.isOpen === true || (cid !== undefined && cid !== '' && openElsewhere(st, acct, cid))) return refused(ENGINE_MESSAGE.duplicateOrder);
  if (p.isAlgo && sb.lastPrice >= 0 && wouldTrigger(p.type, p.side, p.stopPrice, sb.lastPrice)) return refused(ENGINE_MESSAGE.wouldTriggerImmediately);
  return fundsCheck(sb, acct, p, ext);
}

/**
 * Whether the account has an open order with client id `cid` on another symbol. Query and cancel
 * find an order by origClientOrderId without a symbol (spec 4.5), so the id is unique among the
 * account's open orders on every symbol, not per symbol. An indexed loop: nothing allocated.
 */
function openElsewhere(st: EngineState, acct: AccountBook, cid: string): boolean {
  const books = acct.siblings;
  for (let i = 0; i < books.length; i++) {
    const other = books[i] as AccountBook;
    if (other !== acct && latestByClientId(st, other, cid)?.isOpen === true) return true;
  }
  return false;
}

function fundsCheck(sb: SymbolBook, acct: AccountBook, p: ParsedOrder, ext: number): Rejection | Held {
  const spec = sb.spec;
  const buy = p.side === 'BUY';
  const entry = buy ? acct.quote : acct.base;
  const lock = lockFor(sb, p);
  if (!covers(entry, lock, heldScale(spec, buy))) return refused(ENGINE_MESSAGE.insufficientBalance);
  if (p.type !== 'MARKET') return lock;
  // Funds-limited market orders must afford at least one step.
  if (p.side === 'BUY' && p.quoteQty === 0n) {
    // The first price it takes: the best ask, unless outside liquidity offers as good or better
    // (matcher.ts); -1 when there is neither.
    const top = sb.asks.best()?.price;
    const ask = top !== undefined && (ext < 0 || top < ext) ? top : ext;
    const one = Math.min(spec.stepLots, p.qty);
    if (ask > 0 && !covers(entry, quoteHeld(spec, ask, one), spec.pd + spec.qd)) return refused(ENGINE_MESSAGE.insufficientBalance);
  }
  if (p.side === 'SELL' && p.quoteQty > 0n && !entry.f.covers(spec.stepLots, spec.qd)) return refused(ENGINE_MESSAGE.insufficientBalance);
  return lock;
}
