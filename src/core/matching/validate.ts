/**
 * New-order request -> engine values (spec 4.5 parameters and type table). Combinations the type
 * table does not allow answer "Unsupported order combination" (spec 7.4, code -2010): a missing
 * mandatory parameter, quantity and quoteOrderQty together, a price on a market type, a stopPrice
 * on a non-stop type, an unknown stpFlag (notes 6: DC unsupported), and a timeInForce on a type
 * that takes none. LIMIT and the stop-limit types default to GTC; LIMIT_MAKER accepts only GTC;
 * MARKET, STOP_LOSS and TAKE_PROFIT take none (their snapshots show GTC, as the venue's do).
 * Malformed numbers answer -1025 `parameter '<name>' is not valid`. A price or quantity with more
 * decimals than the symbol's scale is not rejected here: it is off the tick or step grid, which
 * the filter engine reports with its own text; `inexact` marks it.
 */
import { ALGO_ORDER_TYPES, ENGINE_MESSAGE, ORDER_TYPES } from '../market/index.ts';
import type { OrderType } from '../market/index.ts';
import { parseAmount } from '../portfolio/amount.ts';
import type { Order } from './book/order.ts';
import { INEXACT, MALFORMED, parseScaled } from './numbers/scaled.ts';
import type { SymbolSpec } from './numbers/symbol-spec.ts';
import type { NewOrderRequest, OrderSide, Rejection, StpFlag, TimeInForce } from './types.ts';

/** A parsed request. The engine reuses one instance per call (no allocation on the hot path). */
export class ParsedOrder {
  readonly ok = true;
  side: OrderSide = 'BUY';
  type: OrderType = 'LIMIT';
  tif: TimeInForce = 'GTC';
  stp: StpFlag = 'CB';
  /** Scaled ints; 0 when absent; INEXACT when off the scale. */
  price = 0;
  stopPrice = 0;
  qty = 0;
  /** Units; 0n when absent. */
  quoteQty = 0n;
  /** The same on the notional scale (price decimals + quantity decimals) when it fits a safe integer there, else -1. */
  quoteN = -1;
  /** Some value has more decimals than the symbol's scale (the filters will say which). */
  inexact = false;
  isAlgo = false;
  /**
   * Set by admission: the account's latest order with the request's client order id (null for
   * none, or no id given), which the new order then chains to (one lookup for both).
   */
  sameClientId: Order | null = null;
}

export const reject = (code: number, msg: string): Rejection => ({ ok: false, code, msg });
export const NEW_ORDER_REJECTED = -2010;
const unsupported = (): Rejection => reject(NEW_ORDER_REJECTED, ENGINE_MESSAGE.unsupportedCombination);
const invalid = (name: string): Rejection => reject(-1025, `parameter '${name}' is not valid`);

const PRICED: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'];
/** Per type: takes a price, is a stop (one Map lookup instead of scanning the type lists). */
const TYPE_RULES: ReadonlyMap<string, { readonly priced: boolean; readonly isAlgo: boolean }> = new Map(
  ORDER_TYPES.map((t) => [t, { priced: PRICED.includes(t), isAlgo: ALGO_ORDER_TYPES.includes(t) }]),
);
/** LIMIT, most orders' type, without the Map lookup. */
const LIMIT_RULE = TYPE_RULES.get('LIMIT') as { readonly priced: boolean; readonly isAlgo: boolean };
const TIFS: readonly string[] = ['GTC', 'IOC', 'FOK'];
const STPS: readonly string[] = ['CB', 'CN', 'CO'];

const given = (v: string | undefined): v is string => v !== undefined && v !== '';

function scaled(text: string | undefined, decimals: number): number {
  return given(text) ? parseScaled(text, decimals) : 0;
}

export function parseOrder(spec: SymbolSpec, req: NewOrderRequest, out: ParsedOrder = new ParsedOrder()): ParsedOrder | Rejection {
  const { type, side } = req;
  if (type === 'LIMIT') {
    const limit = parseLimit(spec, req, out);
    if (limit !== undefined) return limit;
  }
  const rule = type === 'LIMIT' ? LIMIT_RULE : TYPE_RULES.get(type);
  if (rule === undefined || (side !== 'BUY' && side !== 'SELL')) return unsupported();
  const stp = req.stpFlag ?? 'CB';
  if (stp !== 'CB' && !STPS.includes(stp)) return unsupported();
  const { priced, isAlgo } = rule;
  const hasQty = given(req.quantity);
  const hasQuote = given(req.quoteOrderQty);
  if (given(req.stopPrice) !== isAlgo) return unsupported();
  if (priced ? !given(req.price) || !hasQty || hasQuote : given(req.price) || hasQty === hasQuote) return unsupported();
  // LIMIT and the stop-limit types take a time in force (GTC by default); the others none.
  const tif = req.timeInForce;
  const takesTif = priced && type !== 'LIMIT_MAKER';
  // GTC (the usual value) first: LIMIT_MAKER accepts it as its only value.
  if (tif !== undefined && !(tif === 'GTC' ? takesTif || type === 'LIMIT_MAKER' : takesTif && TIFS.includes(tif))) return unsupported();

  const price = scaled(req.price, spec.pd);
  if (price === MALFORMED) return invalid('price');
  const stopPrice = scaled(req.stopPrice, spec.pd);
  if (stopPrice === MALFORMED) return invalid('stopPrice');
  const qty = scaled(req.quantity, spec.qd);
  if (qty === MALFORMED) return invalid('quantity');
  let quoteQty = 0n;
  let quoteN = -1;
  if (hasQuote) {
    // Most budgets have no more decimals than a notional: a scaled number, one bigint product.
    const n = parseScaled(req.quoteOrderQty as string, spec.pd + spec.qd);
    if (n >= 0) {
      quoteN = n;
      quoteQty = BigInt(n) * spec.notionalK;
    } else {
      try {
        quoteQty = parseAmount(req.quoteOrderQty as string, 'quoteOrderQty');
      } catch {
        return invalid('quoteOrderQty');
      }
    }
  }
  out.side = side;
  out.type = type;
  out.tif = tif ?? 'GTC';
  out.stp = stp as StpFlag;
  out.price = price;
  out.stopPrice = stopPrice;
  out.qty = qty;
  out.quoteQty = quoteQty;
  out.quoteN = quoteN;
  out.inexact = price === INEXACT || stopPrice === INEXACT || qty === INEXACT;
  out.isAlgo = isAlgo;
  return out;
}

/**
 * The usual LIMIT order (a side, a price and a quantity in the symbol's scale, GTC / IOC / FOK or
 * none, nothing else) in one pass; undefined sends everything else, errors included, through
 * the general path above, which gives the same result for these.
 */
function parseLimit(spec: SymbolSpec, req: NewOrderRequest, out: ParsedOrder): ParsedOrder | undefined {
  const { side, price: priceText, quantity, timeInForce: tif } = req;
  if ((side !== 'BUY' && side !== 'SELL') || req.stpFlag !== undefined || req.stopPrice !== undefined || req.quoteOrderQty !== undefined) return undefined;
  if (tif !== undefined && tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') return undefined;
  if (priceText === undefined || quantity === undefined) return undefined;
  const price = parseScaled(priceText, spec.pd);
  const qty = parseScaled(quantity, spec.qd);
  if (price < 0 || qty < 0) return undefined;
  out.side = side;
  out.type = 'LIMIT';
  out.tif = tif ?? 'GTC';
  out.stp = 'CB';
  out.price = price;
  out.stopPrice = 0;
  out.qty = qty;
  out.quoteQty = 0n;
  out.quoteN = -1;
  out.inexact = false;
  out.isAlgo = false;
  return out;
}
