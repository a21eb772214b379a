import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from './decimal.ts';
import { X40 } from './exact40.ts';

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
