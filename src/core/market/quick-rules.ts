/**
 * An instrument's spec 2.3 filters and spec 7.4 order rules restated on scaled integers, for a
 * pre-trade fast path that answers only "certainly passes" (core/orders/pre-trade/quick-pre-trade.ts): the
 * order manager checks every order a strategy sends, and building Decimals for its amounts, the
 * bounds and the notional was most of that check's cost. Built once per instrument (cached on
 * it) and only for instruments whose filters are all among PRICE_FILTER, LOT_SIZE, NOTIONAL,
 * MIN_NOTIONAL, MAX_NUM_ORDERS and MAX_NUM_ALGO_ORDERS, each at most once, with no unknown
 * filter: anything else gets no fast path and every order goes through `checkOrder`
 * (filter-engine.ts), which stays the authority for every denial and its text.
 *
 * A value `v * 10^-s` (v a safe integer) is within [min, max] exactly when
 * ceil(min * 10^s) <= v <= floor(max * 10^s): the bounds are kept per scale s, computed on first
 * use. A bound beyond 2^53 is +-Infinity, still exact for any safe v. The step grids are the
 * decimal-grid.ts fast case (a power-of-ten step with its origin on it): a value whose text has
 * at most k decimals is on the grid; any other grid leaves the verdict to the filter engine.
 */
import { D } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';
import { powerOfTenDecimals } from './decimal-grid.ts';
import type { Instrument } from './instrument.ts';

const COVERED: ReadonlySet<string> = new Set(['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MIN_NOTIONAL', 'MAX_NUM_ORDERS', 'MAX_NUM_ALGO_ORDERS']);
/** Scales past this are left to the filter engine (a safe integer has at most 16 digits anyway). */
export const MAX_QUICK_SCALE = 40;
/** Bounds with more significant digits than this are not scaled (Decimal's times rounds at 40). */
const MAX_BOUND_DIGITS = 30;
const MAX = Number.MAX_SAFE_INTEGER;

/** Inclusive [min, max] (either may be absent) as integers at each scale. */
export class ScaledRange {
  private readonly lo: number[] = [];
  private readonly hi: number[] = [];

  constructor(
    private readonly min: Dec | undefined,
    private readonly max: Dec | undefined,
  ) {}

  /** True when v * 10^-s (v a safe integer, s <= MAX_QUICK_SCALE) lies within the range. */
  holds(v: number, s: number): boolean {
    let lo = this.lo[s];
    if (lo === undefined) {
      const p = new D(`1e${s}`);
      lo = this.lo[s] = this.min === undefined ? -Infinity : toBound(this.min.times(p).ceil());
      this.hi[s] = this.max === undefined ? Infinity : toBound(this.max.times(p).floor());
    }
    return v >= lo && v <= (this.hi[s] as number);
  }
}

function toBound(d: Dec): number {
  if (d.gt(MAX)) return Infinity;
  if (d.lt(-MAX)) return -Infinity;
  return Number(d.toFixed());
}

/** Decimals k of a step grid a value with at most k decimals is on; Infinity when there is no grid; -1 when the fast path cannot tell. */
function gridDecimals(step: Dec, origin: Dec): number {
  if (step.isZero()) return Infinity;
  const k = powerOfTenDecimals(step);
  return k >= 0 && origin.decimalPlaces() <= k ? k : -1;
}

export interface QuickRules {
  /** What the rules were built from: a different array means rebuild. */
  readonly filters: Instrument['filters'];
  readonly orderTypes: Instrument['orderTypes'];
  readonly marketEnabled: boolean;
  readonly limitEnabled: boolean;
  /** PRICE_FILTER bounds (undefined: no filter) and tick grid decimals (see gridDecimals). */
  readonly price: ScaledRange | undefined;
  readonly tickDecimals: number;
  /** LOT_SIZE bounds and step grid decimals. */
  readonly qty: ScaledRange | undefined;
  readonly stepDecimals: number;
  /** NOTIONAL and MIN_NOTIONAL together: the larger minimum, NOTIONAL's maximum. */
  readonly notional: ScaledRange | undefined;
  /** MAX_NUM_ORDERS (Infinity: none or disabled). MAX_NUM_ALGO_ORDERS never concerns the orders the fast path takes. */
  readonly maxOrders: number;
}

const cache = new WeakMap<Instrument, QuickRules | null>();

const short = (d: Dec): boolean => d.isZero() || d.sd(true) <= MAX_BOUND_DIGITS;

function build(inst: Instrument): QuickRules | null {
  if (inst.unknownFilters.length !== 0) return null;
  const seen = new Set<string>();
  for (const f of inst.filters) {
    if (!COVERED.has(f.filterType) || seen.has(f.filterType)) return null;
    seen.add(f.filterType);
  }
  const pf = inst.filter('PRICE_FILTER');
  const lot = inst.filter('LOT_SIZE');
  const nf = inst.filter('NOTIONAL');
  const mn = inst.filter('MIN_NOTIONAL');
  const mo = inst.filter('MAX_NUM_ORDERS');
  const bounds = [pf?.minPrice, pf?.maxPrice, lot?.minQty, lot?.maxQty, nf?.minNotional, nf?.maxNotional, mn?.minNotional];
  if (!bounds.every((d) => d === undefined || short(d))) return null;
  let minN: Dec | undefined = nf?.minNotional;
  if (mn) minN = minN === undefined || mn.minNotional.gt(minN) ? mn.minNotional : minN;
  const enabled = (t: string) => inst.orderTypes === undefined || inst.orderTypes.includes(t);
  return {
    filters: inst.filters,
    orderTypes: inst.orderTypes,
    marketEnabled: enabled('MARKET'),
    limitEnabled: enabled('LIMIT'),
    // A zero maximum is disabled (filters/common.ts); a zero minimum bounds nothing a quick value can be.
    price: pf && new ScaledRange(pf.minPrice, pf.maxPrice.isZero() ? undefined : pf.maxPrice),
    tickDecimals: pf ? gridDecimals(pf.tickSize, pf.minPrice) : Infinity,
    qty: lot && new ScaledRange(lot.minQty, lot.maxQty.isZero() ? undefined : lot.maxQty),
    stepDecimals: lot ? gridDecimals(lot.stepSize, lot.minQty) : Infinity,
    notional: nf || mn ? new ScaledRange(minN, nf && !nf.maxNotional.isZero() ? nf.maxNotional : undefined) : undefined,
    maxOrders: mo && mo.maxNumOrders !== 0 ? mo.maxNumOrders : Infinity,
  };
}

/** The instrument's quick rules, or undefined when its filters are not all ones they restate. */
export function quickRules(inst: Instrument): QuickRules | undefined {
  let r = cache.get(inst);
  if (r === undefined || (r !== null && (r.filters !== inst.filters || r.orderTypes !== inst.orderTypes))) {
    r = build(inst);
    cache.set(inst, r);
  }
  return r ?? undefined;
}

/** A value `v * 10^-s` whose text has `s` decimals is on a grid of `decimals` (gridDecimals). */
export const onQuickGrid = (decimals: number, s: number): boolean => decimals === Infinity || (decimals >= 0 && s <= decimals);
