/**
 * Convert prices (spec 2.10): the desk's rate for a pair is the symbol's reference price (quote per
 * base) from the engine, i.e. its last trade price, else the mid of its best bid and ask, else the
 * one side it has, else a static reference below so a fresh sandbox can convert at once, turned
 * into "target per source" (inverted when the source is the quote asset), less a small spread in
 * the desk's favour. Prices keep 10 significant digits; amounts round against the customer
 * (target down, source up) to the pair's precisions.
 */
import { D, toWire, type Dec } from '../../../core/money/decimal.ts';
import type { SpotEngine } from '../../../core/matching/index.ts';
import type { ConvertPair } from './pairs.ts';

/** The desk's margin: 0.2 % of the reference rate. */
export const CONVERT_SPREAD = '0.002';

/** Quote lifetime in seconds (the `expiry` field, a string on the wire). */
export const QUOTE_TTL_SECONDS = 10;

/** Reference prices of the default symbols, used until the engine has traded or quoted them. */
export const REFERENCE_PRICES: Readonly<Record<string, string>> = {
  BTCPHP: '3500000',
  ETHPHP: '180000',
  BTCUSDT: '60000',
  ETHUSDT: '3100',
  USDTPHP: '58',
};

const SIGNIFICANT = 10;

/** Quote-per-base price of `symbol`, or undefined when nothing prices it. */
export function referencePrice(engine: SpotEngine | undefined, symbol: string): Dec | undefined {
  if (engine && engine.symbols().includes(symbol)) {
    const last = engine.lastPrice(symbol);
    if (last !== undefined) return new D(last);
    const bid = engine.bestBid(symbol);
    const ask = engine.bestAsk(symbol);
    if (bid && ask) return new D(bid.price).plus(ask.price).div(2);
    if (bid ?? ask) return new D((bid ?? ask)!.price);
  }
  const fixed = REFERENCE_PRICES[symbol];
  return fixed === undefined ? undefined : new D(fixed);
}

/** Target per source, spread applied, 10 significant digits rounded down. */
export function deskPrice(pair: ConvertPair, reference: Dec): Dec {
  const raw = pair.sourceIsBase ? reference : new D(1).div(reference);
  return raw.times(new D(1).minus(CONVERT_SPREAD)).toSignificantDigits(SIGNIFICANT, D.ROUND_DOWN);
}

export function inversePrice(price: Dec): string {
  return toWire(new D(1).div(price).toSignificantDigits(SIGNIFICANT, D.ROUND_DOWN));
}

export interface QuoteAmounts {
  sourceAmount: Dec;
  targetAmount: Dec;
}

/** Amounts for a quote given one side (exactly one of the two is set by the params layer). */
export function quoteAmounts(pair: ConvertPair, price: Dec, given: { sourceAmount?: Dec; targetAmount?: Dec }): QuoteAmounts {
  if (given.sourceAmount !== undefined) {
    return { sourceAmount: given.sourceAmount, targetAmount: given.sourceAmount.times(price).toDecimalPlaces(pair.targetPrecision, D.ROUND_DOWN) };
  }
  const target = given.targetAmount ?? new D(0);
  return { sourceAmount: target.div(price).toDecimalPlaces(pair.sourcePrecision, D.ROUND_UP), targetAmount: target };
}
