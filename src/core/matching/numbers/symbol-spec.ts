/**
 * Per-symbol constants of the engine: the integer scales of prices and quantities, the factors
 * that turn them into exact asset units (core/portfolio/amount.ts, 1e-18), and the fee rates.
 *
 * Scales: prices count units of 10^-pd, quantities units of 10^-qd. With a PRICE_FILTER tick,
 * pd is the decimals of tickSize and minPrice, so every valid price is an integer (spec 2.3 grid
 * `minPrice + n * tickSize`); without one, pd is max(8, quoteAssetPrecision). Same for LOT_SIZE
 * and qd. A price * quantity then has pd + qd decimals, which must fit the 18 of an amount.
 */
import type { Instrument } from '../../market/index.ts';
import { AMOUNT_SCALE } from '../../portfolio/amount.ts';
import { buildFastFilter } from './fast-filters.ts';
import type { FastFilter } from './fast-filters.ts';
import { decimalsOf, INEXACT, MALFORMED, parseScaled } from './scaled.ts';

/** A commission rate as num / den with den a power of ten (exact). */
export interface FeeRate {
  readonly num: bigint;
  readonly den: bigint;
  readonly text: string;
  /** num as a number and den's decimals (the rate is n / 10^d), for exact number arithmetic. */
  readonly n: number;
  readonly d: number;
}

/** Maker and taker rates of one symbol, decimal strings such as '0.001'. */
export interface FeeRates {
  readonly maker: string;
  readonly taker: string;
}

export interface SymbolSpec {
  readonly instrument: Instrument;
  readonly symbol: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** Price decimals: a price is an integer count of 10^-pd. */
  readonly pd: number;
  /** Quantity decimals: a quantity is an integer count of 10^-qd ("lots"). */
  readonly qd: number;
  /** price int * qty int * notionalK = quote units (1e-18). */
  readonly notionalK: bigint;
  /** qty int * baseK = base units. */
  readonly baseK: bigint;
  /** Quantities the engine computes itself (quote-sized and funds-limited orders) are multiples of this. */
  readonly stepLots: number;
  readonly maker: FeeRate;
  readonly taker: FeeRate;
  /** Integer pre-check of LIMIT / LIMIT_MAKER orders, when every filter of the symbol is covered. */
  readonly fast: FastFilter | undefined;
}

export function parseFeeRate(text: string, what: string): FeeRate {
  const d = decimalsOf(text);
  const num = parseScaled(text, d);
  if (num === MALFORMED || num === INEXACT || d > AMOUNT_SCALE) throw new RangeError(`${what}: ${JSON.stringify(text)} is not a usable fee rate`);
  return { num: BigInt(num), den: 10n ** BigInt(d), text, n: num, d };
}

/** A symbol's rates from a Map or a plain record (own keys only). */
export function feesFor(fees: ReadonlyMap<string, FeeRates> | Readonly<Record<string, FeeRates>> | undefined, symbol: string): FeeRates | undefined {
  if (fees === undefined) return undefined;
  if (fees instanceof Map) return (fees as ReadonlyMap<string, FeeRates>).get(symbol);
  return Object.hasOwn(fees, symbol) ? (fees as Readonly<Record<string, FeeRates>>)[symbol] : undefined;
}

const ZERO_FEES: FeeRates = { maker: '0', taker: '0' };

export function buildSymbolSpec(instrument: Instrument, fees: FeeRates = ZERO_FEES): SymbolSpec {
  const pf = instrument.filter('PRICE_FILTER');
  const lot = instrument.filter('LOT_SIZE');
  const pd =
    pf && !pf.tickSize.isZero()
      ? Math.max(pf.tickSize.decimalPlaces(), pf.minPrice.decimalPlaces())
      : Math.max(8, instrument.quoteAssetPrecision, pf ? pf.minPrice.decimalPlaces() : 0);
  const qd =
    lot && !lot.stepSize.isZero()
      ? Math.max(lot.stepSize.decimalPlaces(), lot.minQty.decimalPlaces())
      : Math.max(8, instrument.baseAssetPrecision, lot ? lot.minQty.decimalPlaces() : 0);
  if (pd + qd > AMOUNT_SCALE) {
    throw new RangeError(`${instrument.symbol}: price (${pd}) plus quantity (${qd}) decimals exceed the ${AMOUNT_SCALE} an amount holds`);
  }
  const step = lot && !lot.stepSize.isZero() ? parseScaled(lot.stepSize.toFixed(), qd) : 1;
  return new Spec(
    instrument,
    pd,
    qd,
    10n ** BigInt(AMOUNT_SCALE - pd - qd),
    10n ** BigInt(AMOUNT_SCALE - qd),
    step > 0 ? step : 1,
    parseFeeRate(fees.maker, `${instrument.symbol} maker fee`),
    parseFeeRate(fees.taker, `${instrument.symbol} taker fee`),
    buildFastFilter(instrument, pd, qd),
  );
}

/**
 * A SymbolSpec. A class rather than an object literal because a backtest builds one per run
 * (docs/architecture.md, "Objects made once per run": a literal's fields that hold objects are
 * generalised when the literal runs again, deoptimising the code that read them).
 */
class Spec implements SymbolSpec {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;

  constructor(
    readonly instrument: Instrument,
    readonly pd: number,
    readonly qd: number,
    readonly notionalK: bigint,
    readonly baseK: bigint,
    readonly stepLots: number,
    readonly maker: FeeRate,
    readonly taker: FeeRate,
    readonly fast: FastFilter | undefined,
  ) {
    this.symbol = instrument.symbol;
    this.baseAsset = instrument.baseAsset;
    this.quoteAsset = instrument.quoteAsset;
  }
}

/** Exact quote units of price * qty (both scaled integers). */
export function notionalUnits(spec: SymbolSpec, price: number, lots: number): bigint {
  const product = price * lots;
  // Below 2^53 the double product is exact and one BigInt conversion is cheaper than two.
  return (product <= Number.MAX_SAFE_INTEGER ? BigInt(product) : BigInt(price) * BigInt(lots)) * spec.notionalK;
}

/** Commission on `units` at `rate`, rounded down to 1e-18 (exact whenever qd or pd + qd plus the rate's decimals <= 18). */
export function commissionUnits(units: bigint, rate: FeeRate): bigint {
  return rate.num === 0n ? 0n : (units * rate.num) / rate.den;
}
