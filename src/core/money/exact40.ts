/**
 * Decimal arithmetic at 40 significant digits, ROUND_HALF_UP, on BigInts: the same results as
 * the project's Decimal (core/money/decimal.ts: precision 40, ROUND_HALF_UP), bit for bit, for
 * + - * / (each correctly rounded to 40 significant digits), comparisons, rounding to decimal
 * places and conversion to a number. The backtest's round-trip book and the order manager's
 * account do a handful of these per fill; on BigInts they cost a fraction of decimal.js's digit
 * arrays and allocate less. A value is `m * 10^e`; nothing here reads floats.
 */
import { D } from './decimal.ts';
import type { Dec } from './decimal.ts';
import { decimalOfDigits } from './plain-decimal.ts';
import { TextMemo } from './text-memo.ts';

const P = 40;
const POW: bigint[] = [];
for (let i = 0, p = 1n; i <= 128; i++, p *= 10n) POW.push(p);

function pow10(n: number): bigint {
  return n < POW.length ? (POW[n] as bigint) : 10n ** BigInt(n);
}

/** Decimal digits of a >= 0 (1 for 0). */
function digits(a: bigint): number {
  if (a < 10n) return 1;
  if (a >= (POW[POW.length - 1] as bigint)) return a.toString().length;
  let lo = 1;
  let hi = POW.length - 1;
  // Smallest k with a < 10^k.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a < (POW[mid] as bigint)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class X40 {
  constructor(
    readonly m: bigint,
    readonly e: number,
  ) {}

  static readonly ZERO = new X40(0n, 0);

  /** A decimal text; plain ones (digits, optional sign and point) are read directly, others (exponents) through Decimal. */
  static parse(text: string): X40 {
    // A fill's amounts are read by several layers (the account, the round trips): the last few
    // texts are remembered (an X40 is immutable).
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
    const v = X40.read(text);
    memo.set(text, v);
    return v;
  }

  private static read(text: string): X40 {
    const dot = plainDot(text);
    // Exact, as Decimal reads text: rounding happens in the operations only.
    if (dot !== NOT_PLAIN) return dot < 0 ? new X40(BigInt(text), 0) : new X40(BigInt(text.slice(0, dot) + text.slice(dot + 1)), dot + 1 - text.length);
    const d = new D(text);
    if (!d.isFinite()) throw new RangeError(`not a finite decimal: ${JSON.stringify(text)}`);
    return X40.parse(d.toFixed());
  }

  static of(d: Dec): X40 {
    return X40.parse(d.toFixed());
  }

  get sign(): number {
    return this.m > 0n ? 1 : this.m < 0n ? -1 : 0;
  }

  isZero(): boolean {
    return this.m === 0n;
  }

  plus(y: X40): X40 {
    if (y.m === 0n) return round(this.m, this.e);
    if (this.m === 0n) return round(y.m, y.e);
    if (this.e === y.e) return round(this.m + y.m, this.e);
    const e = Math.min(this.e, y.e);
    return round(this.m * pow10(this.e - e) + y.m * pow10(y.e - e), e);
  }

  minus(y: X40): X40 {
    // plus(-y), without the negated operand.
    if (y.m === 0n) return round(this.m, this.e);
    if (this.m === 0n) return round(-y.m, y.e);
    if (this.e === y.e) return round(this.m - y.m, this.e);
    const e = Math.min(this.e, y.e);
    return round(this.m * pow10(this.e - e) - y.m * pow10(y.e - e), e);
  }

  times(y: X40): X40 {
    return round(this.m * y.m, this.e + y.e);
  }

  /** Correctly rounded quotient (throws on division by zero). */
  div(y: X40): X40 {
    if (y.m === 0n) throw new RangeError('division by zero');
    if (this.m === 0n) return X40.ZERO;
    const neg = this.m < 0n !== y.m < 0n;
    const a = this.m < 0n ? -this.m : this.m;
    const b = y.m < 0n ? -y.m : y.m;
    // Scale so the integer quotient has P digits (P + 1 at most; then once more with one less).
    let k = P + digits(b) - digits(a);
    for (;;) {
      const num = k >= 0 ? a * pow10(k) : a;
      const den = k >= 0 ? b : b * pow10(-k);
      let q = num / den;
      if (q >= (POW[P] as bigint)) {
        k--;
        continue;
      }
      const r = num - q * den;
      if (r * 2n >= den) q += 1n;
      return new X40(neg ? -q : q, this.e - y.e - k);
    }
  }

  cmp(y: X40): number {
    if (this.e === y.e) return this.m > y.m ? 1 : this.m < y.m ? -1 : 0;
    const e = Math.min(this.e, y.e);
    const a = this.m * pow10(this.e - e);
    const b = y.m * pow10(y.e - e);
    return a > b ? 1 : a < b ? -1 : 0;
  }

  gt(y: X40): boolean {
    return this.cmp(y) > 0;
  }

  lt(y: X40): boolean {
    return this.cmp(y) < 0;
  }

  lte(y: X40): boolean {
    return this.cmp(y) <= 0;
  }

  /** Rounded half up to `dp` decimal places, in plain notation without trailing zeros (Decimal's toDecimalPlaces(dp).toFixed()). */
  toFixedDp(dp: number): string {
    let m = this.m;
    let e = this.e;
    if (e < -dp) {
      const neg = m < 0n;
      const a = neg ? -m : m;
      const drop = pow10(-dp - e);
      let q = a / drop;
      if ((a - q * drop) * 2n >= drop) q += 1n;
      m = neg ? -q : q;
      e = -dp;
    }
    return plain(m, e);
  }

  /** The same value as a Decimal (what `new D(this.toString())` builds, without printing and parsing). */
  toDec(): Dec {
    const neg = this.m < 0n;
    return decimalOfDigits(neg, (neg ? -this.m : this.m).toString(), this.e);
  }

  toNumber(): number {
    return Number(`${this.m}e${this.e}`);
  }

  toString(): string {
    return plain(this.m, this.e);
  }
}

const NOT_PLAIN = -2;
const memo = new TextMemo<X40>(16);

/**
 * Where the point of a plain text is (-1: none), or NOT_PLAIN: what /^[+-]?\d+(?:\.\d+)?$/
 * accepts (a sign, digits, optionally a point followed by digits), read without a regex.
 */
function plainDot(text: string): number {
  const n = text.length;
  let i = 0;
  if (n > 0) {
    const c = text.charCodeAt(0);
    if (c === 43 || c === 45) i = 1;
  }
  let dot = -1;
  let digitsBefore = 0;
  let digitsAfter = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (dot < 0) digitsBefore++;
      else digitsAfter++;
    } else if (c === 46 && dot < 0) dot = i;
    else return NOT_PLAIN;
  }
  if (digitsBefore === 0 || (dot >= 0 && digitsAfter === 0)) return NOT_PLAIN;
  return dot;
}
const POW_P = POW[P] as bigint;

/** Rounded to P significant digits, half up (away from zero). */
function round(m: bigint, e: number): X40 {
  const neg = m < 0n;
  const a = neg ? -m : m;
  // Most results have at most P digits: one comparison, no digit count.
  if (a < POW_P) return new X40(m, e);
  const d = digits(a);
  if (d <= P) return new X40(m, e);
  const drop = d - P;
  const f = pow10(drop);
  let q = a / f;
  if ((a - q * f) * 2n >= f) q += 1n;
  return new X40(neg ? -q : q, e + drop);
}

/** m * 10^e in plain notation, no trailing zeros after the point; "0" for zero (never "-0"). */
function plain(m: bigint, e: number): string {
  if (m === 0n) return '0';
  const neg = m < 0n;
  let s = (neg ? -m : m).toString();
  if (e >= 0) s += '0'.repeat(e);
  else {
    const k = -e;
    if (s.length <= k) s = '0.' + '0'.repeat(k - s.length) + s;
    else s = s.slice(0, s.length - k) + '.' + s.slice(s.length - k);
    let end = s.length;
    while (s.charCodeAt(end - 1) === 48) end--;
    if (s.charCodeAt(end - 1) === 46) end--;
    s = s.slice(0, end);
  }
  return neg ? '-' + s : s;
}
