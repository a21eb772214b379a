/**
 * Exact asset amounts as bigint units of 1e-18 (the venue's widest precision: real trades carry
 * 18 decimals, protocol notes 5.2). Decimal strings in, decimal strings out; nothing in between
 * is a float. Used by `Balances` and the matching engine, whose prices and quantities are scaled
 * integers that convert to these units by one multiplication.
 *
 * Why bigint: a quote balance must hold price * quantity exactly (e.g. 2 + 6 decimals on BTCPHP)
 * for any realistic account size, which overflows 2^53 long before it overflows a bigint.
 */
import { dec, isDecimalText } from '../money/decimal.ts';

/** Decimal places of one unit. */
export const AMOUNT_SCALE = 18;
export const AMOUNT_ONE = 10n ** 18n;

const PLAIN = /^\+?(\d*)(?:\.(\d*))?$/;
const ZEROS = '000000000000000000';

/**
 * Parse a non-negative decimal string into units. Throws RangeError for a negative value or one
 * with a non-zero digit beyond the 18th decimal (it cannot be held exactly), TypeError for text
 * that is not a number.
 */
export function parseAmount(text: string, field = 'amount'): bigint {
  let m = PLAIN.exec(text);
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) {
    if (typeof text !== 'string' || !isDecimalText(text)) throw new TypeError(`${field}: ${JSON.stringify(text)} is not a decimal number`);
    // Exponent or signed forms: let decimal.js expand them, then parse the plain form.
    const plain = dec(text, field).toFixed();
    if (plain.startsWith('-') && plain !== '-0') throw new RangeError(`${field}: ${text} is negative`);
    m = PLAIN.exec(plain.replace(/^-/, ''));
    if (m === null) throw new TypeError(`${field}: ${JSON.stringify(text)} is not a decimal number`);
  }
  const whole = m[1] ?? '';
  let frac = m[2] ?? '';
  if (frac.length > AMOUNT_SCALE) {
    if (!/^0*$/.test(frac.slice(AMOUNT_SCALE))) throw new RangeError(`${field}: ${text} has more than ${AMOUNT_SCALE} decimals`);
    frac = frac.slice(0, AMOUNT_SCALE);
  }
  return BigInt((whole === '' ? '0' : whole) + frac + ZEROS.slice(frac.length));
}

/** Units as a plain decimal string: no exponent, no trailing zeros ("1.5", "0", "0.00000001"). */
export function formatAmount(units: bigint): string {
  if (units === 0n) return '0';
  const neg = units < 0n;
  let s = (neg ? -units : units).toString();
  // At least 19 digits, so the last 18 are the fraction and something is left for the integer.
  s = s.padStart(AMOUNT_SCALE + 1, '0');
  const cut = s.length - AMOUNT_SCALE;
  let end = s.length;
  while (end > cut && s.charCodeAt(end - 1) === 48) end--;
  const out = end === cut ? s.slice(0, cut) : `${s.slice(0, cut)}.${s.slice(cut, end)}`;
  return neg ? `-${out}` : out;
}
