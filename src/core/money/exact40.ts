/**
 * Decimal arithmetic at 40 significant digits, ROUND_HALF_UP: the same results as the project's
 * Decimal (core/money/decimal.ts: precision 40, ROUND_HALF_UP), bit for bit, for + - * / (each
 * correctly rounded to 40 significant digits), comparisons, rounding to decimal places and
 * conversion to a number. The backtest's round-trip book and the order manager's account do a
 * handful of these per fill; they cost a fraction of decimal.js's digit arrays and allocate less.
 * A value is `m * 10^e`; nothing here reads floats.
 *
 * Two representations of the mantissa m. Most amounts of a backtest (prices, quantities,
 * balances, their sums and products) have at most 15 or 16 digits: m is then a safe integer
 * held as a number (`n`, |n| <= 2^53 - 1, `b` undefined), and + - * and comparisons run on
 * doubles where that is provably exact: the operands are integers below 2^53 and so is the
 * true result, checked on the computed one (a true result of 2^53 or more never computes to less,
 * rounding being monotone), and 10^k (k <= 22) is exact. Anything else (a result past 2^53, a
 * quotient that does not end, a long text) runs on BigInts (`b`), as before; a BigInt result that
 * fits a safe integer goes back to a number. Which representation holds a value never changes
 * what it is: every output (texts, Decimals, numbers, comparisons) depends on the value only, and
 * every operation rounds the exact value.
 */
import { D } from './decimal.ts';
import type { Dec } from './decimal.ts';
import { decimalOfDigits, decimalOfInt } from './plain-decimal.ts';
import { digitCount, POW10 } from './safe-int.ts';
import { TextMemo } from './text-memo.ts';

const P = 40;
const POW: bigint[] = [];
for (let i = 0, p = 1n; i <= 128; i++, p *= 10n) POW.push(p);
/** 10^i for i in 0..22: every one exact as a double. */
const MAX = Number.MAX_SAFE_INTEGER;
const MAX_BIG = BigInt(MAX);

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
  /**
   * The mantissa: `n` (a safe integer) when `b` is undefined, else `b`. Use `X40.parse` or the
   * operations; the representation is internal.
   */
  private constructor(
    private readonly n: number,
    private readonly b: bigint | undefined,
    readonly e: number,
  ) {}

  static readonly ZERO = new X40(0, undefined, 0);

  /** The mantissa (the value is m * 10^e). */
  get m(): bigint {
    return this.b ?? BigInt(this.n);
  }

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

  /**
   * `parse` without the memo, for texts read once each (a run's fills and trades, summed by the
   * metrics): there the memo only misses, and its lookup and store cost as much as the reading.
   */
  static parseOnce(text: string): X40 {
    return X40.read(text);
  }

  /**
   * What /^[+-]?\d+(?:\.\d+)?$/ accepts (a sign, digits, optionally a point followed by digits),
   * read in one pass without a regex: into a number while the digits stay below 2^53, else as a
   * BigInt. Exact, as Decimal reads text: rounding happens in the operations only. Other texts
   * (exponents, '.5') through Decimal, which also refuses what is not a number.
   */
  private static read(text: string): X40 {
    const len = text.length;
    let i = 0;
    let neg = false;
    if (len > 0) {
      const c = text.charCodeAt(0);
      if (c === 45) {
        neg = true;
        i = 1;
      } else if (c === 43) i = 1;
    }
    const start = i;
    let dot = -1;
    let v = 0;
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) v = v * 10 + (c - 48);
      else if (c === 46 && dot < 0) dot = i;
      else return X40.viaDecimal(text);
    }
    // At least one digit before the point and one after it.
    if (dot === start || dot === len - 1 || len === start) return X40.viaDecimal(text);
    const e = dot < 0 ? 0 : dot + 1 - len;
    // Exact while below 2^53: past it the computed value stays past it (rounding is monotone).
    if (v <= MAX) return v === 0 ? (e === 0 ? X40.ZERO : new X40(0, undefined, e)) : new X40(neg ? -v : v, undefined, e);
    const s = dot < 0 ? text.slice(start) : text.slice(start, dot) + text.slice(dot + 1);
    const m = BigInt(s);
    return big(neg ? -m : m, e);
  }

  private static viaDecimal(text: string): X40 {
    const d = new D(text);
    if (!d.isFinite()) throw new RangeError(`not a finite decimal: ${JSON.stringify(text)}`);
    return X40.parse(d.toFixed());
  }

  static of(d: Dec): X40 {
    return X40.parse(d.toFixed());
  }

  /**
   * xs[0] + xs[1] + ... as folding `plus` from ZERO in order gives it (each step rounded to 40
   * digits): a metric's sum over a year of fills or trades. When every term has a safe-integer
   * mantissa and the magnitudes add up to less than half of 10^(40 + the smallest exponent), every
   * partial sum of any subset is a multiple of that power of ten with at most 40 digits: no step
   * of the fold rounds, and the fold is the exact sum, whatever the order. That sum is taken per
   * exponent on doubles (exact while below 2^53, as in plus; a group past that is carried into a
   * BigInt), and the groups are added with plus at the end: a sum past 2^53 then costs a BigInt
   * operation per group instead of per term. Anything else folds.
   */
  static sum(xs: readonly X40[]): X40 {
    const acc = new Float64Array(SUM_GROUPS);
    const mag = new Float64Array(SUM_GROUPS);
    let carry: (bigint | undefined)[] | undefined;
    let lo = SUM_GROUPS;
    let hi = -1;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as X40;
      if (x.b !== undefined) return fold(xs);
      const v = x.n;
      if (v === 0) continue;
      const g = x.e + SUM_BIAS;
      if (g < 0 || g >= SUM_GROUPS) return fold(xs);
      if (g < lo) lo = g;
      if (g > hi) hi = g;
      mag[g] = (mag[g] as number) + (v < 0 ? -v : v);
      const a = acc[g] as number;
      const t = a + v;
      // Both safe integers: a computed sum within the safe range is exact (see addSmall).
      if (t > MAX || t < -MAX) {
        carry ??= new Array<bigint | undefined>(SUM_GROUPS).fill(undefined);
        carry[g] = (carry[g] ?? 0n) + BigInt(a);
        acc[g] = v;
      } else acc[g] = t;
    }
    if (hi < 0) return X40.ZERO;
    // The magnitudes in units of 10^(lo - SUM_BIAS), on doubles: a relative error far below the half kept as margin.
    let total = 0;
    for (let g = lo; g <= hi; g++) total += (mag[g] as number) * 10 ** (g - lo);
    if (!(total < 5e39)) return fold(xs);
    let r = X40.ZERO;
    for (let g = lo; g <= hi; g++) {
      const c = carry?.[g];
      const a = acc[g] as number;
      if (c === undefined) {
        if (a !== 0) r = r.plus(make(a, undefined, g - SUM_BIAS));
      } else r = r.plus(big(c + BigInt(a), g - SUM_BIAS));
    }
    return r;
  }

  get sign(): number {
    if (this.b === undefined) return this.n > 0 ? 1 : this.n < 0 ? -1 : 0;
    return this.b > 0n ? 1 : this.b < 0n ? -1 : 0;
  }

  isZero(): boolean {
    return this.b === undefined ? this.n === 0 : this.b === 0n;
  }

  plus(y: X40): X40 {
    if (this.b === undefined && y.b === undefined) {
      if (y.n === 0) return this;
      if (this.n === 0) return y;
      const r = addSmall(this.n, this.e, y.n, y.e);
      if (r !== undefined) return r;
    }
    const a = this.m;
    const c = y.m;
    if (c === 0n) return round(a, this.e);
    if (a === 0n) return round(c, y.e);
    if (this.e === y.e) return round(a + c, this.e);
    // Only the operand with the larger exponent is scaled.
    return this.e > y.e ? round(a * pow10(this.e - y.e) + c, y.e) : round(a + c * pow10(y.e - this.e), this.e);
  }

  minus(y: X40): X40 {
    // plus(-y), without the negated operand.
    if (this.b === undefined && y.b === undefined) {
      if (y.n === 0) return this;
      if (this.n === 0) return new X40(-y.n, undefined, y.e);
      const r = addSmall(this.n, this.e, -y.n, y.e);
      if (r !== undefined) return r;
    }
    const a = this.m;
    const c = y.m;
    if (c === 0n) return round(a, this.e);
    if (a === 0n) return round(-c, y.e);
    if (this.e === y.e) return round(a - c, this.e);
    return this.e > y.e ? round(a * pow10(this.e - y.e) - c, y.e) : round(a - c * pow10(y.e - this.e), this.e);
  }

  times(y: X40): X40 {
    if (this.b === undefined && y.b === undefined) {
      if (this.n === 0 || y.n === 0) return X40.ZERO;
      const p = this.n * y.n;
      // Both integers below 2^53: a product that computes to at most 2^53 - 1 is exact (at most 16 digits, no rounding).
      if (p <= MAX && p >= -MAX) return new X40(p, undefined, this.e + y.e);
    }
    return round(this.m * y.m, this.e + y.e);
  }

  /** Correctly rounded quotient (throws on division by zero). */
  div(y: X40): X40 {
    if (y.isZero()) throw new RangeError('division by zero');
    if (this.isZero()) return X40.ZERO;
    if (this.b === undefined && y.b === undefined) {
      // A quotient that ends within the digits a safe integer has is exact as it is (at most 16
      // digits, no rounding): the dividend scaled to 15 digits, if the divisor divides it.
      const a = this.n;
      const k = 15 - digitCount(a < 0 ? -a : a);
      const s = k > 0 ? a * (POW10[k] as number) : a;
      const c = y.n;
      // s and c are integers below 2^53: % is exact, and so is a quotient that is an integer.
      if (s % c === 0) return new X40(s / c, undefined, this.e - y.e - (k > 0 ? k : 0));
    }
    const m = this.m;
    const ym = y.m;
    const neg = m < 0n !== ym < 0n;
    const a = m < 0n ? -m : m;
    const b = ym < 0n ? -ym : ym;
    // Scale so the integer quotient has P digits (P + 1 at most; then once more with one less).
    let k = P + digits(b) - digits(a);
    for (;;) {
      const num = k >= 0 ? a * pow10(k) : a;
      const den = k >= 0 ? b : b * pow10(-k);
      let q = num / den;
      if (q >= POW_P) {
        k--;
        continue;
      }
      const r = num - q * den;
      if (r * 2n >= den) q += 1n;
      return big(neg ? -q : q, this.e - y.e - k);
    }
  }

  cmp(y: X40): number {
    if (this.b === undefined && y.b === undefined) {
      const a = this.n;
      const c = y.n;
      if (this.e === y.e || a === 0 || c === 0) return a > c ? 1 : a < c ? -1 : 0;
      const r = cmpSmall(a, this.e, c, y.e);
      if (r !== undefined) return r;
    }
    if (this.e === y.e) {
      const a = this.m;
      const c = y.m;
      return a > c ? 1 : a < c ? -1 : 0;
    }
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

  /**
   * Rounded half up to `dp` decimal places (Decimal's toDecimalPlaces(dp)): the value itself when
   * it has no more places. What toFixedDp prints; a reader that only compares or sums the rounded
   * amounts (the backtest's trade metrics) takes it without the text.
   */
  roundDp(dp: number): X40 {
    const e = this.e;
    if (e >= -dp) return this;
    if (this.b === undefined) {
      const n = this.n;
      const drop = -dp - e;
      // |n| < 10^16: more than 22 places dropped leaves less than half a unit (0).
      if (drop > 22) return X40.ZERO;
      const f = POW10[drop] as number;
      const a = n < 0 ? -n : n;
      const r = a % f;
      let q = (a - r) / f;
      if (r * 2 >= f) q += 1;
      return q === 0 ? X40.ZERO : make(n < 0 ? -q : q, undefined, -dp);
    }
    const m = this.b;
    const neg = m < 0n;
    const a = neg ? -m : m;
    const drop = pow10(-dp - e);
    let q = a / drop;
    if ((a - q * drop) * 2n >= drop) q += 1n;
    return big(neg ? -q : q, -dp);
  }

  /** Rounded half up to `dp` decimal places, in plain notation without trailing zeros (Decimal's toDecimalPlaces(dp).toFixed()). */
  toFixedDp(dp: number): string {
    const r = this.roundDp(dp);
    return r.b === undefined ? plainSmall(r.n, r.e) : plain(r.b, r.e);
  }

  /** The same value as a Decimal (what `new D(this.toString())` builds, without printing and parsing). */
  toDec(): Dec {
    if (this.b === undefined) {
      const n = this.n;
      return decimalOfInt(n < 0, n < 0 ? -n : n, this.e);
    }
    const neg = this.b < 0n;
    return decimalOfDigits(neg, (neg ? -this.b : this.b).toString(), this.e);
  }

  toNumber(): number {
    if (this.b === undefined) {
      const n = this.n;
      const e = this.e;
      if (n === 0) return 0;
      // One correctly rounded operation on exact operands: the double nearest m * 10^e, what
      // the text's conversion gives.
      if (e === 0) return n;
      if (e > 0 && e <= 22) return n * (POW10[e] as number);
      if (e < 0 && e >= -22) return n / (POW10[-e] as number);
    }
    return Number(`${this.m}e${this.e}`);
  }

  toString(): string {
    return this.b === undefined ? plainSmall(this.n, this.e) : plain(this.b, this.e);
  }
}

const memo = new TextMemo<X40>(16);
const POW_P = POW[P] as bigint;

// The constructor is private to the class (callers parse or compute); this module's helpers build through here.
const Ctor = X40 as unknown as new (n: number, b: bigint | undefined, e: number) => X40;
const make = (n: number, b: bigint | undefined, e: number): X40 => new Ctor(n, b, e);

/** X40.sum's exponent window: -SUM_BIAS .. SUM_GROUPS - SUM_BIAS - 1 (amounts live well inside it). */
const SUM_BIAS = 64;
const SUM_GROUPS = 96;

/** The left fold of plus from ZERO: what X40.sum computes, the slow way. */
function fold(xs: readonly X40[]): X40 {
  let r = X40.ZERO;
  for (let i = 0; i < xs.length; i++) r = r.plus(xs[i] as X40);
  return r;
}

/** An X40 of a BigInt mantissa: a number when it fits a safe integer. */
function big(m: bigint, e: number): X40 {
  return m <= MAX_BIG && m >= -MAX_BIG ? make(Number(m), undefined, e) : make(NaN, m, e);
}

/**
 * a * 10^ea + c * 10^ec on safe integers a, c (non-zero), or undefined when the aligned operands
 * or the sum leave the safe range (the caller goes to BigInts).
 */
function addSmall(a: number, ea: number, c: number, ec: number): X40 | undefined {
  // The operand with the larger exponent first (addition commutes, also on doubles).
  if (ea < ec) return addSmall(c, ec, a, ea);
  let s: number;
  if (ea === ec) s = a + c;
  else {
    const k = ea - ec;
    if (k > 22) return undefined;
    const sa = a * (POW10[k] as number);
    if (sa > MAX || sa < -MAX) return undefined;
    s = sa + c;
  }
  const e = ec;
  if (s > MAX || s < -MAX) return undefined;
  // At most 16 digits: no rounding. x + (-x) is +0, never -0.
  return s === 0 ? X40.ZERO : make(s, undefined, e);
}

/** Compares a * 10^ea with c * 10^ec (safe integers, exponents differ), or undefined when the aligned operand leaves the safe range. */
function cmpSmall(a: number, ea: number, c: number, ec: number): number | undefined {
  if (ea > ec) {
    const k = ea - ec;
    if (k > 22) return undefined;
    a *= POW10[k] as number;
    if (a > MAX || a < -MAX) return undefined;
  } else {
    const k = ec - ea;
    if (k > 22) return undefined;
    c *= POW10[k] as number;
    if (c > MAX || c < -MAX) return undefined;
  }
  return a > c ? 1 : a < c ? -1 : 0;
}

/** Rounded to P significant digits, half up (away from zero). */
function round(m: bigint, e: number): X40 {
  const neg = m < 0n;
  const a = neg ? -m : m;
  // Most results have at most P digits: one comparison, no digit count.
  if (a < POW_P) return big(m, e);
  const d = digits(a);
  if (d <= P) return big(m, e);
  const drop = d - P;
  const f = pow10(drop);
  let q = a / f;
  if ((a - q * f) * 2n >= f) q += 1n;
  return big(neg ? -q : q, e + drop);
}

/** m * 10^e in plain notation, no trailing zeros after the point; "0" for zero (never "-0"). */
function plain(m: bigint, e: number): string {
  if (m === 0n) return '0';
  const neg = m < 0n;
  return point(neg, (neg ? -m : m).toString(), e);
}

/** plain() of a safe integer mantissa: its digits straight from the number (below 10^21, no exponent form). */
function plainSmall(n: number, e: number): string {
  if (n === 0) return '0';
  return n < 0 ? point(true, String(-n), e) : point(false, String(n), e);
}

/** The digits `s` (no sign, no leading zeros) times 10^e, plain, no trailing zeros after the point. */
function point(neg: boolean, s: string, e: number): string {
  if (e >= 0) {
    if (e > 0) s += '0'.repeat(e);
  } else {
    const k = -e;
    let end = s.length;
    // Trailing zeros of the fraction dropped first: fewer characters to cut and join.
    let cut = 0;
    while (cut < k && s.charCodeAt(end - 1) === 48) {
      end--;
      cut++;
    }
    const places = k - cut;
    if (places === 0) s = s.slice(0, end);
    else if (end <= places) s = '0.' + '0'.repeat(places - end) + s.slice(0, end);
    else s = s.slice(0, end - places) + '.' + s.slice(end - places, end);
  }
  return neg ? '-' + s : s;
}
