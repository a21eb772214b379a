/**
 * Plain decimal text as an integer and a scale (`v * 10^-s`), for checks that only compare
 * amounts: the order manager's pre-trade fast path (core/orders/pre-trade/quick-pre-trade.ts) reads an
 * intent's amounts, the last price and a free balance this way instead of building Decimals.
 * Exact by construction: only texts whose digits form a safe integer are read (anything else is
 * refused and the caller takes its Decimal path), and comparisons align scales on integers
 * below 2^53 or answer "unknown".
 */
import { POW10 } from './safe-int.ts';

const MAX = Number.MAX_SAFE_INTEGER;

/** Where `readPlainInt` puts what it read (a caller keeps one and reuses it: nothing allocated per read). */
export interface PlainInt {
  /** The digits as an integer (point removed), 0 <= v <= 2^53 - 1. */
  v: number;
  /** Digits after the point (trailing zeros included: '1.10' has scale 2). */
  s: number;
}

/**
 * Reads what /^\d+(\.\d+)?$/ accepts (no sign, digits on both sides of a point) into `out`, when
 * its digits make a safe integer; false (out unspecified) for anything else. The value is exactly
 * the one `new D(text)` holds.
 */
export function readPlainInt(text: string, out: PlainInt): boolean {
  const n = text.length;
  if (n === 0) return false;
  let v = 0;
  let dot = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) v = v * 10 + (c - 48);
    else if (c === 46 && dot < 0 && i > 0 && i < n - 1) dot = i;
    else return false;
  }
  // Exact while below 2^53: past it the computed value stays past it (rounding is monotone).
  if (v > MAX) return false;
  out.v = v;
  out.s = dot < 0 ? 0 : n - 1 - dot;
  return true;
}

/**
 * `readPlainInt`, except that fraction digits past what a safe integer holds are dropped: `out`
 * is then the text's value truncated (at most the value, never more), enough to show that a
 * smaller amount fits within it (a free balance with many decimals). False when the text is not
 * plain or its integer part alone is past 2^53.
 */
export function readPlainIntDown(text: string, out: PlainInt): boolean {
  const n = text.length;
  if (n === 0) return false;
  let v = 0;
  let dot = -1;
  let kept = n;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (kept !== n) continue;
      const next = v * 10 + (c - 48);
      if (next > MAX) {
        if (dot < 0) return false;
        kept = i;
      } else v = next;
    } else if (c === 46 && dot < 0 && i > 0 && i < n - 1) dot = i;
    else return false;
  }
  out.v = v;
  out.s = dot < 0 ? 0 : kept - 1 - dot;
  return true;
}

/**
 * Sign of a * 10^-sa - b * 10^-sb for safe integers a, b >= 0, or undefined when aligning the
 * scales leaves the safe range (the caller compares another way).
 */
export function cmpPlainInt(a: number, sa: number, b: number, sb: number): number | undefined {
  if (sa < sb) {
    const k = sb - sa;
    if (k > 22) return a === 0 ? (b === 0 ? 0 : -1) : undefined;
    a *= POW10[k] as number;
    if (a > MAX) return undefined;
  } else if (sb < sa) {
    const k = sa - sb;
    if (k > 22) return b === 0 ? (a === 0 ? 0 : 1) : undefined;
    b *= POW10[k] as number;
    if (b > MAX) return undefined;
  }
  return a > b ? 1 : a < b ? -1 : 0;
}
