/**
 * What a strategy sees of an instrument (spec 2.2, 2.3): its assets, its grid, and rounding
 * helpers that turn any number (an indicator's float, a Decimal) into a valid decimal string on
 * the PRICE_FILTER / LOT_SIZE grid (measured from minPrice / minQty, spec 2.3), ready for an
 * intent. Built over core/market's Instrument; frozen.
 */
import type { Dec, DecimalLike } from '../core/money/decimal.ts';
import { D, dec, toWire } from '../core/money/decimal.ts';
import type { RoundMode } from '../core/money/rounding.ts';
import type { Instrument, SymbolStatus } from '../core/market/instrument.ts';
import type { SymbolFilter } from '../core/market/filters/index.ts';

export interface InstrumentView {
  readonly symbol: string;
  readonly status: SymbolStatus;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** PRICE_FILTER tickSize, if the symbol has one. */
  readonly tickSize: string | undefined;
  /** LOT_SIZE stepSize and minQty. */
  readonly stepSize: string | undefined;
  readonly minQty: string | undefined;
  /** LOT_SIZE maxQty; undefined when absent or 0 (no maximum). */
  readonly maxQty: string | undefined;
  /** NOTIONAL (or MIN_NOTIONAL) minNotional. */
  readonly minNotional: string | undefined;
  readonly orderTypes: readonly string[] | undefined;
  readonly filters: readonly SymbolFilter[];
  /** Onto the tick grid (nearest by default), as a decimal string. */
  roundPrice(price: DecimalLike, mode?: RoundMode): string;
  /** Onto the step grid (down by default, never more than asked), as a decimal string; "0" below one step. */
  roundQty(quantity: DecimalLike, mode?: RoundMode): string;
  /**
   * What one order may take of `quantity` (selling a position, say): rounded down onto the step
   * grid, then at most LOT_SIZE maxQty (the rest leaves in further orders); "0" below one step.
   */
  capQty(quantity: DecimalLike): string;
  /** The base quantity `quote` buys at `price`, rounded down to the step. */
  qtyForQuote(quote: DecimalLike, price: DecimalLike): string;
  /**
   * Fixed-risk sizing (NautilusTrader's FixedRiskSizer, Freqtrade's risk-per-trade recipe): the base
   * quantity that loses `risk` (quote, e.g. 1% of equity) if the price goes from `entry` to `stop`,
   * rounded down to the step and at most LOT_SIZE maxQty (the most one order may take). Long or
   * short alike (the distance counts). Refused when entry equals stop or either is not > 0.
   */
  qtyForRisk(risk: DecimalLike, entry: DecimalLike, stop: DecimalLike): string;
  /** True when quantity >= minQty and quantity * price >= minNotional (the filters that are present). */
  meetsMinimums(quantity: DecimalLike, price: DecimalLike): boolean;
}

const text = (d: Dec | undefined) => (d === undefined ? undefined : toWire(d));

export function instrumentView(instrument: Instrument): InstrumentView {
  const lot = instrument.filter('LOT_SIZE');
  const notional = instrument.filter('NOTIONAL')?.minNotional ?? instrument.filter('MIN_NOTIONAL')?.minNotional;
  const onStep = (quantity: DecimalLike, mode: RoundMode): Dec => instrument.roundQty(dec(quantity, 'quantity'), mode);
  /** A rounded quantity as text: "0" for what rounds below zero. */
  const qtyText = (q: Dec): string => toWire(q.isNegative() ? new D(0) : q);
  const roundQty = (quantity: DecimalLike, mode: RoundMode = 'down'): string => qtyText(onStep(quantity, mode));
  const maxQty = lot === undefined || lot.maxQty.isZero() ? undefined : lot.maxQty;
  const maxQtyText = maxQty === undefined ? undefined : toWire(maxQty);
  const capQty = (quantity: DecimalLike): string => {
    const q = onStep(quantity, 'down');
    return maxQty !== undefined && q.gt(maxQty) ? (maxQtyText as string) : qtyText(q);
  };
  return Object.freeze({
    symbol: instrument.symbol,
    status: instrument.status,
    baseAsset: instrument.baseAsset,
    quoteAsset: instrument.quoteAsset,
    tickSize: text(instrument.filter('PRICE_FILTER')?.tickSize),
    stepSize: text(lot?.stepSize),
    minQty: text(lot?.minQty),
    maxQty: maxQtyText,
    minNotional: text(notional),
    orderTypes: instrument.orderTypes,
    filters: instrument.filters,
    roundPrice: (price: DecimalLike, mode: RoundMode = 'nearest') => toWire(instrument.roundPrice(dec(price, 'price'), mode)),
    roundQty,
    // Compared as Decimals before printing: no text printed and parsed again per exit.
    capQty,
    qtyForQuote: (quote: DecimalLike, price: DecimalLike) => {
      const p = dec(price, 'price');
      if (!p.gt(0)) throw new RangeError(`qtyForQuote: price must be > 0, got ${toWire(p)}`);
      return roundQty(dec(quote, 'quote').div(p), 'down');
    },
    qtyForRisk: (risk: DecimalLike, entry: DecimalLike, stop: DecimalLike) => {
      const r = dec(risk, 'risk');
      const e = dec(entry, 'entry');
      const s = dec(stop, 'stop');
      if (r.isNegative()) throw new RangeError(`qtyForRisk: risk must be >= 0, got ${toWire(r)}`);
      if (!e.gt(0) || !s.gt(0)) throw new RangeError(`qtyForRisk: entry and stop must be > 0, got entry ${toWire(e)}, stop ${toWire(s)}`);
      if (e.eq(s)) throw new RangeError(`qtyForRisk: the stop ${toWire(s)} is the entry: no distance to size by`);
      return capQty(r.div(e.minus(s).abs()));
    },
    meetsMinimums: (quantity: DecimalLike, price: DecimalLike) => {
      const q = dec(quantity, 'quantity');
      if (!q.gt(0)) return false;
      if (lot && q.lt(lot.minQty)) return false;
      return notional === undefined || q.times(dec(price, 'price')).gte(notional);
    },
  });
}
