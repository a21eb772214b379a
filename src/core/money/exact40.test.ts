import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from './decimal.ts';
import type { Dec } from './decimal.ts';
import { X40 } from './exact40.ts';
import { decimalOfDigits } from './plain-decimal.ts';
import { TextMemo } from './text-memo.ts';

/** Decimal texts like a backtest's amounts: up to 14 integer and 20 fractional digits, either sign, sometimes zero. */
const amountOf = (intMax: bigint, fracMax: number) =>
  fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: intMax }), fc.integer({ min: 0, max: fracMax }), fc.bigInt({ min: 0n, max: 10n ** BigInt(fracMax) }))
  .map(([neg, int, places, frac]) => {
    const f = places === 0 ? '' : '.' + (frac % 10n ** BigInt(places)).toString().padStart(places, '0');
    return `${neg ? '-' : ''}${int}${f}`;
  });
const amount = amountOf(10n ** 14n, 20);
/** Longer than 40 digits: Decimal keeps parsed text exact and rounds results only. */
const long = amountOf(10n ** 25n, 30);

const same = (x: X40, d: InstanceType<typeof D>) => {
  expect(x.toString()).toBe(d.toFixed() === '-0' ? '0' : d.toFixed());
  expect(x.toFixedDp(12)).toBe(d.toDecimalPlaces(12).toFixed());
  // roundDp is the value toFixedDp prints: the same number as Decimal's toDecimalPlaces.
  expect(x.roundDp(12).cmp(X40.parse(d.toDecimalPlaces(12).toFixed()))).toBe(0);
  expect(x.roundDp(12).toString()).toBe(X40.parse(x.toFixedDp(12)).toString());
  expect(Object.is(x.toNumber(), d.toNumber()) || x.toNumber() === d.toNumber()).toBe(true);
};

describe('X40: Decimal (precision 40, ROUND_HALF_UP) on BigInts', () => {
  it('parses, adds, subtracts, multiplies, divides and compares exactly as Decimal does', () => {
    fc.assert(
      fc.property(amount, amount, amount, (a, b, c) => {
        const [xa, xb, xc] = [X40.parse(a), X40.parse(b), X40.parse(c)];
        const [da, db, dc] = [new D(a), new D(b), new D(c)];
        same(xa, da);
        same(xa.plus(xb), da.plus(db));
        same(xa.minus(xb), da.minus(db));
        same(xa.times(xb).times(xc), da.times(db).times(dc));
        if (!db.isZero()) {
          same(xa.div(xb), da.div(db));
          same(xa.times(xc).div(xb).plus(xc), da.times(dc).div(db).plus(dc));
          same(xc.minus(xa.div(xb)), dc.minus(da.div(db)));
        }
        expect(xa.cmp(xb)).toBe(da.cmp(db));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(long, long, long, (a, b, c) => {
        const [xa, xb, xc] = [X40.parse(a), X40.parse(b), X40.parse(c)];
        const [da, db, dc] = [new D(a), new D(b), new D(c)];
        same(xa.plus(xb).minus(xc), da.plus(db).minus(dc));
        same(xa.times(xb), da.times(db));
        if (!db.isZero()) same(xa.div(xb), da.div(db));
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds half up, away from zero, and prints no negative zero', () => {
    expect(X40.parse('2').div(X40.parse('3')).toString()).toBe(new D(2).div(3).toFixed());
    expect(X40.parse('-2').div(X40.parse('3')).toString()).toBe(new D(-2).div(3).toFixed());
    expect(X40.parse('-0.0000000000001').toFixedDp(12)).toBe('0');
    expect(X40.parse('-0.0000000000005').toFixedDp(12)).toBe('-0.000000000001');
    expect(X40.parse('1').minus(X40.parse('1')).toString()).toBe('0');
    expect(X40.parse('123456789012345678901234567890.123456789012345').toString()).toBe(new D('123456789012345678901234567890.123456789012345').toFixed());
  });
});

describe('X40.parse', () => {
  it('reads exponent notation and signs as Decimal does, and refuses what is not a number', () => {
    expect(X40.parse('1e-8').toString()).toBe('0.00000001');
    expect(X40.parse('+2.50').toString()).toBe('2.5');
    expect(() => X40.parse('abc')).toThrow();
  });

  it('reads every plain form and its edges as Decimal does', () => {
    for (const t of ['0', '-0', '007', '5.', '.5', '-.5', '+.5', '1.000', '-12.034', '+0.00000001', '99999999999999999999999999999999999999999999.9']) {
      expect(X40.parse(t).toString()).toBe(new D(t).toFixed() === '-0' ? '0' : new D(t).toFixed());
    }
    for (const t of ['', '-', '.', '1.2.3', '1-', ' 1', '--1', '1..2']) expect(() => X40.parse(t)).toThrow();
  });
});

/** A decimal text of m * 10^e (m a BigInt, any sign) in plain notation, as a venue or a reader might write it (trailing zeros kept). */
const textOf = (m: bigint, e: number): string => {
  const neg = m < 0n;
  let s = (neg ? -m : m).toString();
  if (e >= 0) s += '0'.repeat(e);
  else {
    const k = -e;
    if (s.length <= k) s = '0'.repeat(k - s.length + 1) + s;
    s = `${s.slice(0, s.length - k)}.${s.slice(s.length - k)}`;
  }
  return neg ? `-${s}` : s;
};

const TWO53 = 2n ** 53n;
/** Mantissas where the fast path ends: around 2^53, 10^15 and 10^16, and plain small ones. */
const mantissa = fc.oneof(
  fc.bigInt({ min: TWO53 - 2000n, max: TWO53 + 2000n }),
  fc.bigInt({ min: 10n ** 15n - 2000n, max: 10n ** 15n + 2000n }),
  fc.bigInt({ min: 10n ** 16n - 2000n, max: 10n ** 16n + 2000n }),
  fc.bigInt({ min: 0n, max: TWO53 * 4n }),
  fc.bigInt({ min: 0n, max: 10n ** 9n }),
  fc.bigInt({ min: 0n, max: 10n ** 45n }),
  fc.constantFrom(0n, 1n, 5n, 10n, 100n, 9007199254740991n, 9007199254740992n, 9007199254740993n, 4503599627370496n),
);
/** Any sign, exponents from many decimals (-30) to trailing zeros (+6): texts like "-0.0000009007199254740993". */
const edgeText = fc.tuple(fc.boolean(), mantissa, fc.integer({ min: -30, max: 6 })).map(([neg, m, e]) => textOf(neg ? -m : m, e));
const anyText = fc.oneof(edgeText, amount, long);

const decFields = (d: unknown) => {
  const x = d as { s: number; e: number; d: number[] | null };
  return { s: x.s, e: x.e, d: x.d };
};

/** Everything a value shows, equal to the reference implementation's and to Decimal's. */
const agrees = (x: X40, r: RefX40, d: InstanceType<typeof D>) => {
  const text = d.toFixed() === '-0' ? '0' : d.toFixed();
  expect(x.toString()).toBe(text);
  expect(r.toString()).toBe(text);
  expect(x.m * 10n ** BigInt(x.e - Math.min(x.e, r.e))).toBe(r.m * 10n ** BigInt(r.e - Math.min(x.e, r.e)));
  for (const dp of [0, 2, 8, 12, 20]) {
    const t = x.toFixedDp(dp);
    expect(t).toBe(r.toFixedDp(dp));
    expect(t).toBe(d.toDecimalPlaces(dp).toFixed() === '-0' ? '0' : d.toDecimalPlaces(dp).toFixed());
  }
  expect(Object.is(x.toNumber(), r.toNumber())).toBe(true);
  expect(x.toNumber() === d.toNumber()).toBe(true);
  expect(decFields(x.toDec())).toEqual(decFields(r.toDec()));
  expect(decFields(x.toDec())).toEqual(decFields(new D(x.toString())));
  expect(x.sign).toBe(r.sign);
  expect(x.isZero()).toBe(r.isZero());
};

describe('X40 against the BigInt-only reference and Decimal', () => {
  it('parses any plain text to the same value', () => {
    fc.assert(
      fc.property(anyText, (t) => {
        agrees(X40.parse(t), RefX40.parse(t), new D(t));
        agrees(X40.parseOnce(t), RefX40.parse(t), new D(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('adds, subtracts, multiplies, divides and compares as both do, on values around 2^53, with many decimals, signs and zero', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, (a, b, c) => {
        const [xa, xb, xc] = [X40.parse(a), X40.parse(b), X40.parse(c)];
        const [ra, rb, rc] = [RefX40.parse(a), RefX40.parse(b), RefX40.parse(c)];
        const [da, db, dc] = [new D(a), new D(b), new D(c)];
        agrees(xa.plus(xb), ra.plus(rb), da.plus(db));
        agrees(xa.minus(xb), ra.minus(rb), da.minus(db));
        agrees(xb.minus(xa), rb.minus(ra), db.minus(da));
        agrees(xa.times(xb), ra.times(rb), da.times(db));
        agrees(xa.times(xb).plus(xc), ra.times(rb).plus(rc), da.times(db).plus(dc));
        agrees(xa.plus(xb).minus(xc).times(xc), ra.plus(rb).minus(rc).times(rc), da.plus(db).minus(dc).times(dc));
        if (!db.isZero()) {
          agrees(xa.div(xb), ra.div(rb), da.div(db));
          // A quotient (often 40 digits) in further arithmetic, and back.
          agrees(xa.div(xb).times(xb), ra.div(rb).times(rb), da.div(db).times(db));
          agrees(xc.minus(xa.div(xb)).plus(xa), rc.minus(ra.div(rb)).plus(ra), dc.minus(da.div(db)).plus(da));
        }
        expect(xa.cmp(xb)).toBe(ra.cmp(rb));
        expect(xa.cmp(xb)).toBe(da.cmp(db));
        expect(xa.cmp(xa)).toBe(0);
        expect([xa.gt(xb), xa.lt(xb), xa.lte(xb)]).toEqual([ra.gt(rb), ra.lt(rb), ra.lte(rb)]);
      }),
      { numRuns: 3000 },
    );
  });

  it('rounds ties half up (away from zero) wherever the 41st digit or the last place is a 5', () => {
    const digits40 = fc.bigInt({ min: 10n ** 39n, max: 10n ** 40n - 1n });
    fc.assert(
      fc.property(fc.boolean(), digits40, fc.integer({ min: -30, max: 5 }), fc.bigInt({ min: 1n, max: 10n ** 20n }), (neg, q, e, k) => {
        const s = neg ? -1n : 1n;
        // 41 digits ending in 5: a sum, a product and a quotient that sit exactly half way.
        const tie = s * (q * 10n + 5n);
        const [x1, x2] = [X40.parse(textOf(tie - s * 5n * 10n ** 20n, e)), X40.parse(textOf(s * 5n * 10n ** 20n, e))];
        const [r1, r2] = [RefX40.parse(textOf(tie - s * 5n * 10n ** 20n, e)), RefX40.parse(textOf(s * 5n * 10n ** 20n, e))];
        const [d1, d2] = [new D(textOf(tie - s * 5n * 10n ** 20n, e)), new D(textOf(s * 5n * 10n ** 20n, e))];
        agrees(x1.plus(x2), r1.plus(r2), d1.plus(d2));
        const half = textOf(s * (2n * q + 1n), e);
        agrees(X40.parse(half).div(X40.parse('2')), RefX40.parse(half).div(RefX40.parse('2')), new D(half).div(2));
        const f = textOf(s * (k * 10n + 5n), -1);
        agrees(X40.parse(f).times(X40.parse(textOf(q, e))), RefX40.parse(f).times(RefX40.parse(textOf(q, e))), new D(f).times(new D(textOf(q, e))));
        // Half a unit of the last place kept by toFixedDp.
        const p = textOf(s * (k * 10n + 5n), -13);
        expect(X40.parse(p).toFixedDp(12)).toBe(RefX40.parse(p).toFixedDp(12));
        expect(X40.parse(p).toFixedDp(12)).toBe(new D(p).toDecimalPlaces(12).toFixed());
      }),
      { numRuns: 1500 },
    );
    expect(X40.parse('0.0000000000005').toFixedDp(12)).toBe('0.000000000001');
    expect(X40.parse('-2.5').toFixedDp(0)).toBe('-3');
    expect(X40.parse('9007199254740991').plus(X40.parse('1')).toString()).toBe('9007199254740992');
    expect(X40.parse('9007199254740991').times(X40.parse('9007199254740991')).toString()).toBe('81129638414606663681390495662081');
    expect(X40.parse('-0').toString()).toBe('0');
    expect(Object.is(X40.parse('-0').times(X40.parse('5')).toNumber(), 0)).toBe(true);
    expect(Object.is(X40.parse('-1').minus(X40.parse('-1')).toNumber(), 0)).toBe(true);
  });
});

describe('X40.sum', () => {
  const fold = (xs: X40[]) => xs.reduce((s, x) => s.plus(x), X40.ZERO);
  const sameValue = (a: X40, b: X40) => {
    expect(a.toString()).toBe(b.toString());
    expect(a.cmp(b)).toBe(0);
  };

  it('is the left fold of plus: amounts, long texts, sums past 2^53 and past 40 digits', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 60 }), (ts) => {
        const xs = ts.map((t) => X40.parse(t));
        sameValue(X40.sum(xs), fold(xs));
        const d = ts.reduce((s, t) => s.plus(new D(t)), new D(0));
        expect(X40.sum(xs).toString()).toBe(d.toFixed() === '-0' ? '0' : d.toFixed());
      }),
      { numRuns: 2000 },
    );
    // Many terms near 2^53 in one exponent group (carried into BigInts), and mixed groups.
    const big = fc.tuple(fc.boolean(), fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: -14, max: 2 }));
    fc.assert(
      fc.property(fc.array(big, { minLength: 1, maxLength: 200 }), (ps) => {
        const xs = ps.map(([neg, m, e]) => X40.parse(textOf(neg ? -m : m, e)));
        sameValue(X40.sum(xs), fold(xs));
      }),
      { numRuns: 500 },
    );
  });

  it('folds where the sum would round: magnitudes near 10^40 units, exponents outside its window, BigInt terms', () => {
    const near = X40.parse('9'.repeat(15) + 'e24');
    const tiny = X40.parse('1e-1');
    const xs = [near, near, near, near, near, near, near, near, near, near, tiny, near];
    sameValue(X40.sum(xs), fold(xs));
    const wide = [X40.parse('1e-70'), X40.parse('3e40'), X40.parse('-1e-70')];
    sameValue(X40.sum(wide), fold(wide));
    const q = X40.parse('2').div(X40.parse('3'));
    const withBig = [X40.parse('1.5'), q, q, X40.parse('-7')];
    sameValue(X40.sum(withBig), fold(withBig));
    expect(X40.sum([]).isZero()).toBe(true);
    expect(X40.sum([X40.parse('1.25'), X40.parse('-1.25')]).toString()).toBe('0');
  });
});

// ---------------------------------------------------------------------------------------------
// The reference: exact40.ts as it was before its safe-integer fast path (BigInt mantissas only),
// copied verbatim but for the class name. The fast path must agree with it on every input.
// ---------------------------------------------------------------------------------------------
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

class RefX40 {
  constructor(
    readonly m: bigint,
    readonly e: number,
  ) {}

  static readonly ZERO = new RefX40(0n, 0);

  /** A decimal text; plain ones (digits, optional sign and point) are read directly, others (exponents) through Decimal. */
  static parse(text: string): RefX40 {
    // A fill's amounts are read by several layers (the account, the round trips): the last few
    // texts are remembered (an RefX40 is immutable).
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
    const v = RefX40.read(text);
    memo.set(text, v);
    return v;
  }

  private static read(text: string): RefX40 {
    const dot = plainDot(text);
    // Exact, as Decimal reads text: rounding happens in the operations only.
    if (dot !== NOT_PLAIN) return dot < 0 ? new RefX40(BigInt(text), 0) : new RefX40(BigInt(text.slice(0, dot) + text.slice(dot + 1)), dot + 1 - text.length);
    const d = new D(text);
    if (!d.isFinite()) throw new RangeError(`not a finite decimal: ${JSON.stringify(text)}`);
    return RefX40.parse(d.toFixed());
  }

  static of(d: Dec): RefX40 {
    return RefX40.parse(d.toFixed());
  }

  get sign(): number {
    return this.m > 0n ? 1 : this.m < 0n ? -1 : 0;
  }

  isZero(): boolean {
    return this.m === 0n;
  }

  plus(y: RefX40): RefX40 {
    if (y.m === 0n) return round(this.m, this.e);
    if (this.m === 0n) return round(y.m, y.e);
    if (this.e === y.e) return round(this.m + y.m, this.e);
    const e = Math.min(this.e, y.e);
    return round(this.m * pow10(this.e - e) + y.m * pow10(y.e - e), e);
  }

  minus(y: RefX40): RefX40 {
    // plus(-y), without the negated operand.
    if (y.m === 0n) return round(this.m, this.e);
    if (this.m === 0n) return round(-y.m, y.e);
    if (this.e === y.e) return round(this.m - y.m, this.e);
    const e = Math.min(this.e, y.e);
    return round(this.m * pow10(this.e - e) - y.m * pow10(y.e - e), e);
  }

  times(y: RefX40): RefX40 {
    return round(this.m * y.m, this.e + y.e);
  }

  /** Correctly rounded quotient (throws on division by zero). */
  div(y: RefX40): RefX40 {
    if (y.m === 0n) throw new RangeError('division by zero');
    if (this.m === 0n) return RefX40.ZERO;
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
      return new RefX40(neg ? -q : q, this.e - y.e - k);
    }
  }

  cmp(y: RefX40): number {
    if (this.e === y.e) return this.m > y.m ? 1 : this.m < y.m ? -1 : 0;
    const e = Math.min(this.e, y.e);
    const a = this.m * pow10(this.e - e);
    const b = y.m * pow10(y.e - e);
    return a > b ? 1 : a < b ? -1 : 0;
  }

  gt(y: RefX40): boolean {
    return this.cmp(y) > 0;
  }

  lt(y: RefX40): boolean {
    return this.cmp(y) < 0;
  }

  lte(y: RefX40): boolean {
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
const memo = new TextMemo<RefX40>(16);

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
function round(m: bigint, e: number): RefX40 {
  const neg = m < 0n;
  const a = neg ? -m : m;
  // Most results have at most P digits: one comparison, no digit count.
  if (a < POW_P) return new RefX40(m, e);
  const d = digits(a);
  if (d <= P) return new RefX40(m, e);
  const drop = d - P;
  const f = pow10(drop);
  let q = a / f;
  if ((a - q * f) * 2n >= f) q += 1n;
  return new RefX40(neg ? -q : q, e + drop);
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
