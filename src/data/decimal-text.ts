/**
 * Decimal text as kline files carry it: non-negative, plain notation ("61126.0", "0.00012"), kept as
 * the exact string. Comparing without parsing keeps validation of millions of rows cheap and exact
 * (a float would round 18-digit quantities; decimal.js would allocate per field).
 */

const PLAIN = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Non-negative decimal in plain notation: no sign, no exponent, no spaces. */
export function isPlainDecimal(text: string): boolean {
  return PLAIN.test(text);
}

function split(text: string): [int: string, frac: string] {
  const dot = text.indexOf('.');
  let int = dot < 0 ? text : text.slice(0, dot);
  let frac = dot < 0 ? '' : text.slice(dot + 1);
  let i = 0;
  while (i < int.length - 1 && int.charCodeAt(i) === 48) i++;
  int = int.slice(i) || '0';
  let j = frac.length;
  while (j > 0 && frac.charCodeAt(j - 1) === 48) j--;
  frac = frac.slice(0, j);
  return [int, frac];
}

/** Sign of a - b for two plain decimals (see isPlainDecimal): -1, 0 or 1. */
export function compareDecimalText(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const [ai, af] = split(a);
  const [bi, bf] = split(b);
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  // Trailing zeros are gone, so a shorter fraction that is a prefix is the smaller one.
  if (af === bf) return 0;
  return af < bf ? -1 : 1;
}
