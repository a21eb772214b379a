/**
 * Money as `Decimal` inside, decimal strings at every boundary (design rule 4).
 *
 * `toWire` serialises with `toFixed()`, never `toString()`: decimal.js switches to exponent
 * notation below 1e-7 (`1e-8`), which the venue rejects as a malformed number.
 * This module is pure: no I/O, no clock.
 */
import { Decimal } from 'decimal.js';

/** One configured Decimal constructor for the whole project: 40 significant digits, no exponent. */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

/** Anything that may carry a decimal value across a boundary. Numbers are only for tests and indicators. */
export type DecimalLike = Dec | string | number;

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** True when `text` is a plain finite decimal number as the wire carries it. */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text.trim());
}

/**
 * Parse a decimal. Throws a `TypeError` naming `field` when the input is not a finite decimal,
 * so callers at a boundary can say which field was bad.
 */
export function dec(value: DecimalLike, field = 'value'): Dec {
  if (value instanceof D) return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${field}: ${value} is not a finite number`);
    return new D(value);
  }
  if (typeof value !== 'string' || !isDecimalText(value)) {
    throw new TypeError(`${field}: ${JSON.stringify(value)} is not a decimal number`);
  }
  return new D(value.trim());
}

/** Serialise for the wire: plain notation, trailing zeros dropped, never exponent form. */
export function toWire(value: DecimalLike): string {
  const d = dec(value);
  const text = d.toFixed();
  return text === '-0' ? '0' : text;
}

/** Serialise with a fixed number of decimals (for display and venue precisions). */
export function toFixedPlaces(value: DecimalLike, places: number): string {
  return dec(value).toFixed(places, D.ROUND_DOWN);
}

export const ZERO = new D(0);
export const ONE = new D(1);
