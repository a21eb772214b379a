/**
 * `new D(text)` for plain decimal text (an optional '-', digits, at most one '.'), built without
 * decimal.js's parser: that parser tests a regex, removes the point with `replace`, searches for
 * an exponent with another regex and slices the digits into words, and the order path parses
 * several venue amounts per fill (and prints exact40 results back as Decimals). Here the digits
 * are read once by character code into the same representation decimal.js builds (decimal.js
 * 10: sign `s`, base-10 exponent `e` of the first significant digit, words `d` of 7 digits
 * aligned on multiples of 7 of the exponent, trailing zero words dropped, the last word padded
 * with zeros). The result is a Decimal like any other (made by the constructor, fields then
 * set), equal field for field to `new D(text)` (property-tested in plain-decimal.test.ts).
 * Anything else (exponents, '+', spaces, empty) returns undefined: the caller parses it.
 *
 * Texts of up to 15 digits (every price, quantity and balance of a backtest) are read in one pass
 * into an integer (exact: below 2^53) and split into words by integer arithmetic (`decimalOfInt`,
 * also what exact40 uses for its small values); longer ones by their digits.
 */
import { D } from './decimal.ts';
import type { Dec } from './decimal.ts';
import { digitCount, POW10 } from './safe-int.ts';

const LOG_BASE = 7;

interface Fields {
  s: number;
  e: number;
  d: number[];
}

const { maxE, minE } = D as unknown as { maxE: number; minE: number };

/** 10^i for i in 0..22: every one exact as a double. */

export function plainDecimal(text: string): Dec | undefined {
  const n = text.length;
  let at = 0;
  let neg = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    neg = true;
    at = 1;
  }
  let dot = -1;
  // The digits as an integer on the way: exact while below 2^53 (past it, it stays past it).
  let v = 0;
  for (let k = at; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === 46) {
      if (dot >= 0) return undefined;
      dot = k;
    } else if (c < 48 || c > 57) return undefined;
    else v = v * 10 + (c - 48);
  }
  const count = n - at - (dot >= 0 ? 1 : 0);
  if (count === 0) return undefined;
  if (v <= Number.MAX_SAFE_INTEGER) return decimalOfInt(neg, v, dot >= 0 ? dot + 1 - n : 0);
  // Digit j of the number (point removed) is character j + at before the point, j + at + 1 after it.
  const intDigits = dot >= 0 ? dot - at : count;
  let lead = 0;
  while (lead < count && text.charCodeAt(lead < intDigits ? lead + at : lead + at + 1) === 48) lead++;
  if (lead === count) return build(neg, text, at, intDigits, 0, 0, 0);
  let end = count;
  while (text.charCodeAt(end - 1 < intDigits ? end - 1 + at : end + at) === 48) end--;
  const e = intDigits - lead - 1;
  if (e > maxE || e < minE) return new D(text);
  return build(neg, text, at, intDigits, lead, end, e);
}

/**
 * The Decimal `sign * digits * 10^exp` for a string of decimal digits (no sign, no point; a
 * BigInt's toString()), as `new D` would read the same value written out.
 */
export function decimalOfDigits(neg: boolean, digits: string, exp: number): Dec {
  const count = digits.length;
  let lead = 0;
  while (lead < count && digits.charCodeAt(lead) === 48) lead++;
  if (lead === count) return build(neg, digits, 0, count, 0, 0, 0);
  let end = count;
  while (digits.charCodeAt(end - 1) === 48) end--;
  const e = count - lead - 1 + exp;
  if (e > maxE || e < minE) return new D(`${neg ? '-' : ''}${digits}e${exp}`);
  return build(neg, digits, 0, count, lead, end, e);
}

/**
 * The Decimal `sign * abs * 10^exp` for a safe integer `abs` >= 0, as `decimalOfDigits(neg,
 * String(abs), exp)` builds it (zero keeps the sign, as `new D('-0')` does): the words by integer
 * arithmetic (exact remainders and quotients of integers below 2^53), no digit string.
 */
export function decimalOfInt(neg: boolean, abs: number, exp: number): Dec {
  if (abs === 0) {
    const z = new D(0) as unknown as Fields;
    z.s = neg ? -1 : 1;
    return z as unknown as Dec;
  }
  while (abs % 10 === 0) {
    abs /= 10;
    exp++;
  }
  const len = digitCount(abs);
  const e = len - 1 + exp;
  if (e > maxE || e < minE) return new D(`${neg ? '-' : ''}${abs}e${exp}`);
  const x = new D(0) as unknown as Fields;
  x.s = neg ? -1 : 1;
  // As build(): i digits to the first word, then words of 7, the last padded with zeros. Into the
  // constructor's own fresh [0] (one array less), as small integers (`| 0`: a word is below 10^7)
  // so the array keeps the small-integer elements decimal.js's own arrays have.
  let i = (e + 1) % LOG_BASE;
  if (e < 0) i += LOG_BASE;
  const words = x.d;
  let w = 0;
  if (i >= len) words[w++] = (abs * (POW10[i - len] as number)) | 0;
  else {
    let rest = abs;
    let restLen = len;
    if (i > 0) {
      const p = POW10[len - i] as number;
      const r = rest % p;
      words[w++] = ((rest - r) / p) | 0;
      rest = r;
      restLen = len - i;
    }
    while (restLen > LOG_BASE) {
      const p = POW10[restLen - LOG_BASE] as number;
      const r = rest % p;
      words[w++] = ((rest - r) / p) | 0;
      rest = r;
      restLen -= LOG_BASE;
    }
    words[w++] = (rest * (POW10[LOG_BASE - restLen] as number)) | 0;
  }
  x.e = e;
  return x as unknown as Dec;
}

/** The Decimal of digits [lead, end) of `text` (digit j at `at + j`, one further from `split` on), first digit at 10^e; zero when lead === end. */
function build(neg: boolean, text: string, at: number, split: number, lead: number, end: number, e: number): Dec {
  const x = new D(0) as unknown as Fields;
  x.s = neg ? -1 : 1;
  if (lead === end) return x as unknown as Dec;
  let len = end - lead;
  const words: number[] = [];
  // As decimal.js: i digits go to the first word, then words of 7, the rest padded with zeros.
  let i = (e + 1) % LOG_BASE;
  if (e < 0) i += LOG_BASE;
  let from = 0;
  let pad: number;
  if (i < len) {
    if (i) words.push(wordOf(text, at, split, lead, lead + i));
    for (len -= LOG_BASE; i < len; i += LOG_BASE) words.push(wordOf(text, at, split, lead + i, lead + i + LOG_BASE));
    from = i;
    pad = LOG_BASE - (end - lead - i);
  } else {
    pad = i - len;
  }
  let last = wordOf(text, at, split, lead + from, end);
  for (; pad > 0; pad--) last *= 10;
  words.push(last);
  x.e = e;
  x.d = words;
  return x as unknown as Dec;
}

/** Digits [from, to) of the number as an integer (`at`: where the digits start, `split`: digits before the point). */
function wordOf(text: string, at: number, split: number, from: number, to: number): number {
  let w = 0;
  for (let j = from; j < to; j++) w = w * 10 + (text.charCodeAt(j < split ? j + at : j + at + 1) - 48);
  return w;
}
