/**
 * Prices and quantities inside the engine: safe integers counting units of 10^-decimals (price
 * decimals from PRICE_FILTER, quantity decimals from LOT_SIZE; see symbol-spec.ts). Integer
 * arithmetic on doubles is exact below 2^53, and comparisons and level keys stay plain numbers,
 * which is what makes the book fast. Parsing never goes through a float: digits are accumulated.
 */
import { dec, isDecimalText } from '../../money/decimal.ts';
import { POW10 } from '../../money/safe-int.ts';

/** parseScaled: the text is not a plain non-negative decimal. */
export const MALFORMED = -1;
/** parseScaled: more decimals than the scale holds, or too large for a safe integer. */
export const INEXACT = -2;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** `text` as an integer count of 10^-decimals, or MALFORMED / INEXACT. */
export function parseScaled(text: string, decimals: number): number {
  const len = text.length;
  let i = text.charCodeAt(0) === 43 ? 1 : 0;
  let v = 0;
  let digits = 0;
  let frac = -1;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (frac >= 0) return MALFORMED;
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return parseUnusual(text, decimals);
    digits++;
    if (frac >= 0) {
      if (frac === decimals) {
        if (d !== 0) return INEXACT;
        continue;
      }
      frac++;
    }
    v = v * 10 + d;
    if (v > MAX_SAFE) return INEXACT;
  }
  if (digits === 0) return MALFORMED;
  v *= POW10[decimals - (frac < 0 ? 0 : frac)] ?? NaN;
  return v > MAX_SAFE ? INEXACT : v;
}

/**
 * parseScaled remembering its last text and scale: a call site that meets the same text again
 * (a backtest's order priced at the open a print has just parsed as the previous close) skips the
 * digit loop, about half a microsecond until the optimizing compiler takes the function, which
 * is where a fresh backtest places its first thousands of orders. A different text costs one
 * string comparison more.
 */
export class LastParse {
  private text = '';
  private decimals = -1;
  private value = 0;

  parse(text: string, decimals: number): number {
    if (text === this.text && decimals === this.decimals) return this.value;
    const v = parseScaled(text, decimals);
    this.text = text;
    this.decimals = decimals;
    this.value = v;
    return v;
  }
}

/** Exponent notation and the like: expand with decimal.js once (rare, off the hot path). */
function parseUnusual(text: string, decimals: number): number {
  if (!isDecimalText(text)) return MALFORMED;
  const plain = dec(text).toFixed();
  if (plain.startsWith('-')) return plain === '-0' ? 0 : MALFORMED;
  return /^[\d.]+$/.test(plain) ? parseScaled(plain, decimals) : MALFORMED;
}

/** An integer count of 10^-decimals as a plain decimal string without trailing zeros. */
export function formatScaled(n: number, decimals: number): string {
  if (n === 0) return '0';
  if (decimals === 0) return String(n);
  const neg = n < 0;
  let s = String(neg ? -n : n);
  if (s.length <= decimals) s = s.padStart(decimals + 1, '0');
  const cut = s.length - decimals;
  let end = s.length;
  while (end > cut && s.charCodeAt(end - 1) === 48) end--;
  const out = end === cut ? s.slice(0, cut) : `${s.slice(0, cut)}.${s.slice(cut, end)}`;
  return neg ? `-${out}` : out;
}

/** Decimal places a value needs (trailing zeros do not count). */
export function decimalsOf(text: string): number {
  return dec(text).decimalPlaces();
}
