/**
 * Exact ordering of book prices without floats or Decimal objects (design rule: no float compare
 * on the order path). Depth levels are plain non-negative decimal text (wire-fields.ts checks it),
 * and the same price may come as `3500000` in one message and `3500000.00` in another (notes 4
 * levels are text as sent): `priceKey` normalises the text (no leading zeros in the integer part,
 * no trailing zeros in the fraction), so equal prices get equal keys, and `compareKeys` orders two
 * keys by the length of their integer parts, then digit by digit (lexicographic order of digit
 * strings of equal length, and of fractions without trailing zeros, is numeric order).
 */
const UNSIGNED_DECIMAL = /^\d+(?:\.\d+)?$/;

/** The normal form of non-negative plain decimal text; throws a TypeError naming `field` otherwise. */
export function priceKey(text: string, field = 'price'): string {
  if (!UNSIGNED_DECIMAL.test(text)) throw new TypeError(`${field}: expected a plain non-negative decimal, got ${JSON.stringify(text)}`);
  const dot = text.indexOf('.');
  const intEnd = dot < 0 ? text.length : dot;
  let start = 0;
  while (start < intEnd - 1 && text.charCodeAt(start) === 48) start++;
  let end = text.length;
  if (dot >= 0) {
    while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
    if (end === dot + 1) end = dot;
  }
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Negative, zero or positive as key `a` is below, equal to or above key `b` (keys from `priceKey`). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const da = a.indexOf('.');
  const db = b.indexOf('.');
  const ia = da < 0 ? a.length : da;
  const ib = db < 0 ? b.length : db;
  if (ia !== ib) return ia - ib;
  // Same integer length: plain string order decides the integer part, then the fraction (after
  // the point, a missing fraction sorts first, which is right: "5" < "5.1").
  return a < b ? -1 : 1;
}

/** True when the normalised key is zero (a quantity that removes its level). */
export function isZeroKey(key: string): boolean {
  return key === '0';
}
