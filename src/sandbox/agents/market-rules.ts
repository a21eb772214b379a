/**
 * A symbol's order rules as the market agents need them (spec 2.3 PRICE_FILTER, LOT_SIZE, NOTIONAL,
 * MIN_NOTIONAL): prices as integer ticks on the PRICE_FILTER grid (measured from minPrice, as the
 * spec measures it) so paths and ladders are integer arithmetic, and quantities fitted into the
 * filters with the Instrument's rounding helpers. Every order an agent sends passes through here,
 * so agent orders are never rejected for a filter they could have met.
 */
import type { Instrument } from '../../core/market/index.ts';
import { D, dec, type Dec, type DecimalLike } from '../../core/money/decimal.ts';
import { decimalsOf, roundToStep } from '../../core/money/rounding.ts';

export class MarketRules {
  readonly symbol: string;
  readonly tick: Dec;
  /** The lowest and highest usable prices in ticks (PRICE_FILTER minPrice and maxPrice). */
  readonly minUnits: number;
  readonly maxUnits: number;
  /** Where the tick grid sits: minPrice modulo the tick (0 for the usual minPrice = tick). */
  private readonly origin: Dec;
  private readonly priceDp: number;
  private readonly qtyDp: number;

  constructor(readonly inst: Instrument) {
    this.symbol = inst.symbol;
    const pf = inst.filter('PRICE_FILTER');
    const fallbackTick = new D(10).pow(-inst.quoteAssetPrecision);
    this.tick = pf && pf.tickSize.gt(0) ? pf.tickSize : fallbackTick;
    const minPrice = pf ? pf.minPrice : new D(0);
    this.origin = minPrice.mod(this.tick);
    // Ticks count from zero when minPrice is on the zero-based grid, so levels land on round prices.
    const lowest = minPrice.minus(this.origin).div(this.tick).toNumber();
    this.minUnits = lowest === 0 && this.origin.isZero() ? 1 : lowest;
    const max = pf && pf.maxPrice.gt(0) ? pf.maxPrice.minus(this.origin).div(this.tick).floor().toNumber() : Number.MAX_SAFE_INTEGER;
    this.maxUnits = Math.min(max, Number.MAX_SAFE_INTEGER);
    this.priceDp = Math.max(decimalsOf(this.tick), this.origin.decimalPlaces());
    const lot = inst.filter('LOT_SIZE');
    this.qtyDp = lot && lot.stepSize.gt(0) ? Math.max(decimalsOf(lot.stepSize), lot.minQty.decimalPlaces()) : inst.baseAssetPrecision;
  }

  /** A price as ticks on the PRICE_FILTER grid, rounded to the nearest tick and kept inside the filter. */
  units(price: DecimalLike): number {
    const n = dec(price, 'price').minus(this.origin).div(this.tick).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();
    return this.clampUnits(n);
  }

  clampUnits(n: number): number {
    return Math.min(Math.max(Math.round(n), this.minUnits), this.maxUnits);
  }

  /** Ticks to the price text. */
  price(units: number): string {
    return this.origin.plus(this.tick.times(this.clampUnits(units))).toFixed(this.priceDp);
  }

  /** The ticks' value as a float, for spacing decisions only (never an order field). */
  approx(units: number): number {
    return this.origin.toNumber() + this.tick.toNumber() * units;
  }

  /** The smallest quantity every quantity and notional filter accepts at `price`. */
  minQty(price: DecimalLike): Dec {
    const p = dec(price, 'price');
    const lot = this.inst.filter('LOT_SIZE');
    let min = lot ? lot.minQty : new D(0);
    const notional = D.max(this.inst.filter('NOTIONAL')?.minNotional ?? 0, this.inst.filter('MIN_NOTIONAL')?.minNotional ?? 0);
    if (notional.gt(0) && p.gt(0)) min = D.max(min, this.roundQty(notional.div(p), 'up'));
    if (min.isZero()) min = lot && lot.stepSize.gt(0) ? lot.stepSize : new D(10).pow(-this.qtyDp);
    return min;
  }

  /** The largest quantity the filters accept at `price`. */
  maxQty(price: DecimalLike): Dec {
    const p = dec(price, 'price');
    let max = this.inst.filter('LOT_SIZE')?.maxQty ?? new D(Number.MAX_SAFE_INTEGER);
    const notional = this.inst.filter('NOTIONAL')?.maxNotional;
    if (notional && notional.gt(0) && p.gt(0)) max = D.min(max, this.roundQty(notional.div(p), 'down'));
    return max;
  }

  /** `qty` rounded down to the step and clamped into the filters at `price`; undefined when no quantity fits. */
  fitQty(qty: DecimalLike, price: DecimalLike): string | undefined {
    const min = this.minQty(price);
    const max = this.maxQty(price);
    if (min.gt(max)) return undefined;
    const q = D.min(D.max(this.roundQty(qty, 'down'), min), max);
    return q.toFixed(this.qtyDp);
  }

  private roundQty(qty: DecimalLike, mode: 'up' | 'down'): Dec {
    const lot = this.inst.filter('LOT_SIZE');
    return lot && lot.stepSize.gt(0) ? roundToStep(qty, lot.stepSize, lot.minQty, mode) : dec(qty).toDecimalPlaces(this.qtyDp, mode === 'up' ? D.ROUND_UP : D.ROUND_DOWN);
  }
}
