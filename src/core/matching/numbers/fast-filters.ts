/**
 * Integer pre-check of LIMIT, LIMIT_MAKER and MARKET orders against the spec 2.3 filters, so
 * the hot path never builds a Decimal. It answers only "certainly passes": on any doubt (a failure, an
 * overflow, a filter it does not model) the engine runs the real filter engine (`checkOrder` of
 * core/market), whose verdict and texts are authoritative. It mirrors checkOrder exactly for the
 * filters it covers (PRICE_FILTER, LOT_SIZE, NOTIONAL, MIN_NOTIONAL, MAX_NUM_ORDERS,
 * MAX_NUM_ALGO_ORDERS) plus the order rules (status, orderTypes, price * qty > 0); a property
 * test holds the two together. Symbols with any other filter get no fast path.
 */
import type { Dec } from '../../money/decimal.ts';
import type { Instrument } from '../../market/index.ts';

export interface FastFilter {
  readonly instrument: Instrument;
  readonly limitAllowed: boolean;
  readonly makerAllowed: boolean;
  readonly marketAllowed: boolean;
  /** Price bounds and grid in price ints; -Infinity / Infinity / 0 when absent. */
  readonly minP: number;
  readonly maxP: number;
  readonly tickP: number;
  /** Quantity bounds and grid in quantity ints. */
  readonly minQ: number;
  readonly maxQ: number;
  readonly stepQ: number;
  /** Notional bounds in units of 10^-(pd+qd). */
  readonly minN: number;
  readonly maxN: number;
  readonly maxOrders: number;
}

const COVERED = new Set(['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MIN_NOTIONAL', 'MAX_NUM_ORDERS', 'MAX_NUM_ALGO_ORDERS']);

/** ceil / floor of d * 10^scale as a number; beyond 2^53 it is as good as infinite. */
function scaledBound(d: Dec, scale: number, round: 'ceil' | 'floor'): number {
  const v = d.times(`1e${scale}`)[round]();
  return v.gt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v.toFixed());
}

export function buildFastFilter(instrument: Instrument, pd: number, qd: number): FastFilter | undefined {
  const types = instrument.filters.map((f) => f.filterType);
  if (types.some((t) => !COVERED.has(t)) || new Set(types).size !== types.length) return undefined;
  const pf = instrument.filter('PRICE_FILTER');
  const lot = instrument.filter('LOT_SIZE');
  const notional = instrument.filter('NOTIONAL');
  const minNotional = instrument.filter('MIN_NOTIONAL');
  const mno = instrument.filter('MAX_NUM_ORDERS');
  const nd = pd + qd;
  let minN = -Infinity;
  if (notional) minN = scaledBound(notional.minNotional, nd, 'ceil');
  if (minNotional) minN = Math.max(minN, scaledBound(minNotional.minNotional, nd, 'ceil'));
  const allowed = (t: string) => instrument.orderTypes === undefined || instrument.orderTypes.includes(t);
  return new Filter(
    instrument,
    allowed('LIMIT'),
    allowed('LIMIT_MAKER'),
    allowed('MARKET'),
    pf ? scaledBound(pf.minPrice, pd, 'ceil') : -Infinity,
    pf && !pf.maxPrice.isZero() ? scaledBound(pf.maxPrice, pd, 'floor') : Infinity,
    pf && !pf.tickSize.isZero() ? scaledBound(pf.tickSize, pd, 'floor') : 0,
    lot ? scaledBound(lot.minQty, qd, 'ceil') : -Infinity,
    lot && !lot.maxQty.isZero() ? scaledBound(lot.maxQty, qd, 'floor') : Infinity,
    lot && !lot.stepSize.isZero() ? scaledBound(lot.stepSize, qd, 'floor') : 0,
    minN,
    notional && !notional.maxNotional.isZero() ? scaledBound(notional.maxNotional, nd, 'floor') : Infinity,
    mno && mno.maxNumOrders !== 0 ? mno.maxNumOrders : Infinity,
  );
}

/** A FastFilter: a class rather than an object literal (docs/architecture.md, "Objects made once per run": one is built per backtest run). */
class Filter implements FastFilter {
  constructor(
    readonly instrument: Instrument,
    readonly limitAllowed: boolean,
    readonly makerAllowed: boolean,
    readonly marketAllowed: boolean,
    readonly minP: number,
    readonly maxP: number,
    readonly tickP: number,
    readonly minQ: number,
    readonly maxQ: number,
    readonly stepQ: number,
    readonly minN: number,
    readonly maxN: number,
    readonly maxOrders: number,
  ) {}
}

/**
 * True when a LIMIT or LIMIT_MAKER order at price int `p`, quantity int `q` certainly passes
 * every filter and order rule (the post-only rule aside, which the engine checks on its book).
 */
export function fastPasses(f: FastFilter, maker: boolean, p: number, q: number, openOrders: number): boolean {
  if (f.instrument.status !== 'TRADING' || !(maker ? f.makerAllowed : f.limitAllowed)) return false;
  if (p <= 0 || q <= 0 || p < f.minP || p > f.maxP || q < f.minQ || q > f.maxQ) return false;
  // minP and minQ are on the integer scale whenever a tick / step is set (symbol-spec.ts).
  if (f.tickP !== 0 && (p - f.minP) % f.tickP !== 0) return false;
  if (f.stepQ !== 0 && (q - f.minQ) % f.stepQ !== 0) return false;
  const n = p * q;
  if (n > Number.MAX_SAFE_INTEGER || n < f.minN || n > f.maxN) return false;
  return openOrders + 1 <= f.maxOrders;
}

/**
 * True when a MARKET order certainly passes every filter and order rule: sized by quote
 * (`quoteN` on the notional scale, or `quoteUnits` in 1e-18 units when it does not fit there:
 * its own notional, no quantity to check) or by quantity int `q`,
 * whose notional is taken at the book's last price int `last` as notional-of.ts takes it first
 * (no last price: only when no notional bound applies). The scaled notional bounds are rounded
 * inward, so a true answer is always the filter engine's too; near a bound it may say false and
 * leave the verdict to the engine.
 */
export function fastPassesMarket(f: FastFilter, q: number, quoteN: number, quoteUnits: bigint, last: number, openOrders: number, notionalK: bigint): boolean {
  if (f.instrument.status !== 'TRADING' || !f.marketAllowed || openOrders + 1 > f.maxOrders) return false;
  // The budget on the notional scale (quoteN, -1 when it does not fit) compares to the scaled bounds directly.
  if (quoteN > 0) return quoteN >= f.minN && quoteN <= f.maxN;
  if (quoteUnits > 0n) {
    // A bound beyond 2^53 is Infinity (scaledBound): a minimum there is never met, a maximum never hit.
    const aboveMin = f.minN === -Infinity || (f.minN !== Infinity && quoteUnits >= BigInt(f.minN) * notionalK);
    return aboveMin && (f.maxN === Infinity || quoteUnits <= BigInt(f.maxN) * notionalK);
  }
  if (q <= 0 || q < f.minQ || q > f.maxQ) return false;
  if (f.stepQ !== 0 && (q - f.minQ) % f.stepQ !== 0) return false;
  if (last < 0) return f.minN === -Infinity && f.maxN === Infinity;
  const n = last * q;
  return n <= Number.MAX_SAFE_INTEGER && n >= f.minN && n <= f.maxN;
}
