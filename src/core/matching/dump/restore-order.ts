/**
 * One dumped order (dump.ts OrderDump) back into an engine Order: the decimal strings onto the
 * symbol's integer scales exactly as placement parses them (validate.ts), then the fields that
 * changed since placement (executed quantity, cumulative quote, status, times, working). What
 * does not fit the symbol's current scales (its rules changed between dump and restore) or is
 * not a valid combination comes back as the reason text instead.
 */
import { ALGO_ORDER_TYPES, ORDER_TYPES } from '../../market/index.ts';
import { parseAmount } from '../../portfolio/amount.ts';
import type { AccountBook } from '../accounts/account-book.ts';
import type { OrderDump } from './dump.ts';
import { Order } from '../book/order.ts';
import { parseScaled } from '../numbers/scaled.ts';
import type { OrderStatus, StpFlag, TimeInForce } from '../types.ts';
import { ParsedOrder } from '../validate.ts';

const TIFS: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];
const STPS: readonly StpFlag[] = ['CB', 'CN', 'CO'];
const OPEN: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED'];
const CLOSED: readonly OrderStatus[] = ['FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'EXPIRED'];

class Unfit extends Error {}

/** `text` on `decimals`: a safe integer, or Unfit naming the field. */
function scaled(text: string, decimals: number, field: string): number {
  const n = parseScaled(text, decimals);
  if (n < 0) throw new Unfit(`${field} ${text} does not fit the symbol's scale (${decimals} decimals)`);
  return n;
}

function units(text: string, field: string): bigint {
  try {
    return parseAmount(text, field);
  } catch {
    throw new Unfit(`${field} ${text} is not an amount`);
  }
}

/** A cumulative quote on the notional scale (cumN), or past 2^53 of it as a bigint count (cumBig). */
function quote(text: string, acct: AccountBook, field: string): { n: number; big: bigint | null } {
  const spec = acct.sb.spec;
  const n = parseScaled(text, spec.pd + spec.qd);
  if (n >= 0) return { n, big: null };
  const u = units(text, field);
  if (u % spec.notionalK !== 0n) throw new Unfit(`${field} ${text} does not fit the symbol's scale`);
  return { n: -1, big: u / spec.notionalK };
}

/**
 * The order at `position` of the id sequence, for `acct` (its symbol's book). `open`: it was
 * among the account's open orders (else its closed ones). A string when it cannot be restored.
 */
export function restoreOrder(acct: AccountBook, position: number, d: OrderDump, open: boolean): Order | string {
  try {
    return build(acct, position, d, open);
  } catch (e) {
    if (e instanceof Unfit) return e.message;
    throw e;
  }
}

function build(acct: AccountBook, position: number, d: OrderDump, open: boolean): Order {
  const spec = acct.sb.spec;
  if (d.side !== 'BUY' && d.side !== 'SELL') throw new Unfit(`side ${String(d.side)} is unknown`);
  if (!ORDER_TYPES.includes(d.type) || !TIFS.includes(d.timeInForce) || !STPS.includes(d.stpFlag)) throw new Unfit(`type ${d.type} / ${d.timeInForce} / ${d.stpFlag} is unknown`);
  if (!(open ? OPEN : CLOSED).includes(d.status)) throw new Unfit(`status ${d.status} is not ${open ? 'an open' : 'a closed'} one`);
  const p = new ParsedOrder();
  p.side = d.side;
  p.type = d.type;
  p.tif = d.timeInForce;
  p.stp = d.stpFlag;
  p.price = scaled(d.price, spec.pd, 'price');
  p.stopPrice = scaled(d.stopPrice, spec.pd, 'stopPrice');
  p.isAlgo = ALGO_ORDER_TYPES.includes(d.type);
  if (p.isAlgo !== p.stopPrice > 0) throw new Unfit(`stopPrice ${d.stopPrice} does not suit a ${d.type} order`);
  const byQuote = d.origQuoteOrderQty !== '0';
  if (byQuote) {
    // As parseOrder: on the notional scale when it fits there, else bigint units.
    const n = parseScaled(d.origQuoteOrderQty, spec.pd + spec.qd);
    p.quoteN = n >= 0 ? n : -1;
    p.quoteQty = n >= 0 ? BigInt(n) * spec.notionalK : units(d.origQuoteOrderQty, 'origQuoteOrderQty');
    if (p.quoteQty === 0n) throw new Unfit('origQuoteOrderQty is zero');
  } else {
    p.qty = scaled(d.origQty, spec.qd, 'origQty');
  }
  const o = new Order(acct, position, d.clientOrderId, p, d.time);
  o.executed = scaled(d.executedQty, spec.qd, 'executedQty');
  if (byQuote) o.origQty = scaled(d.origQty, spec.qd, 'origQty');
  if (o.executed > o.origQty) throw new Unfit(`executedQty ${d.executedQty} exceeds origQty ${d.origQty}`);
  const cum = quote(d.cummulativeQuoteQty, acct, 'cummulativeQuoteQty');
  if (cum.big === null) o.cumN = cum.n;
  else o.cumBig = cum.big;
  o.updateTime = d.updateTime;
  o.status = d.status;
  o.working = d.isWorking;
  o.locks = d.locks;
  if (open && o.working && !o.hasLimit) throw new Unfit(`an open working ${d.type} order has no limit price to rest at`);
  if (open && !o.working && !o.isAlgo) throw new Unfit(`an open ${d.type} order is not working`);
  return o;
}

/**
 * A stand-in for an order no longer retained that a retained trade still names (its other side,
 * or its own side past the order's retention): it carries the id and the account, nothing else.
 */
export function ghostOrder(acct: AccountBook, position: number, isBuy: boolean, price: number, qty: number, time: number): Order {
  const p = new ParsedOrder();
  p.side = isBuy ? 'BUY' : 'SELL';
  p.price = price;
  p.qty = qty;
  const o = new Order(acct, position, null, p, time);
  o.executed = qty;
  o.status = 'FILLED';
  return o;
}
