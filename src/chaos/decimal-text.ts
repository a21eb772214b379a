/** Decimal strings read exactly (ground rule: money is a decimal string at every boundary, exact inside). */
import { Decimal } from 'decimal.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `text` as an exact Decimal; a RangeError naming `field` for anything else (a number, '1e-8', ''). */
export function decimalOf(text: unknown, field: string): Decimal {
  if (typeof text !== 'string') throw new RangeError(`${field} must be a decimal string, got ${typeof text === 'number' ? `the number ${String(text)}` : `a ${typeof text}`}`);
  if (!DECIMAL.test(text)) throw new RangeError(`${field} must be a decimal string (digits, one optional dot), got ${JSON.stringify(text)}`);
  return new Decimal(text);
}
