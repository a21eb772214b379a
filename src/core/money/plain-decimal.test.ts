import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from './decimal.ts';
import { X40 } from './exact40.ts';
import { decimalOfDigits, decimalOfInt, plainDecimal } from './plain-decimal.ts';

const fields = (d: unknown) => {
  const x = d as { s: number; e: number; d: number[] | null };
  return { s: x.s, e: x.e, d: x.d };
};

const same = (text: string) => {
  const got = plainDecimal(text);
  expect(got).toBeInstanceOf(D);
  expect(fields(got)).toEqual(fields(new D(text)));
  expect(got?.toFixed()).toBe(new D(text).toFixed());
};

describe('plainDecimal', () => {
  it('builds what new D(text) builds', () => {
    for (const t of ['0', '-0', '0.0', '00.000', '1', '10', '1000000', '10000000', '1234567', '12345678', '0.5', '.5', '5.', '-5.', '0.00000001', '0.1234567', '1.1234567', '1234567.1234567', '1001.13', '0.000001', '99999999999999999999.99999999999999999999', '100000000000000000000000000000000000000000000000000000000', '-0.000000000000000000000000000000000000000000000012345']) same(t);
  });

  it('matches decimal.js on any plain text', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '0', '0', '1', '5', '9'), maxLength: 60 });
    fc.assert(
      fc.property(fc.boolean(), digits, fc.option(digits, { nil: undefined }), (neg, a, b) => {
        const t = `${neg ? '-' : ''}${a}${b === undefined ? '' : `.${b}`}`;
        if (!/\d/.test(t)) return;
        same(t);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves anything else to the caller', () => {
    for (const t of ['', '-', '.', '-.', '+1', '1e5', ' 1', '1 ', '1.2.3', 'abc', 'NaN', 'Infinity', '0x10']) expect(plainDecimal(t)).toBeUndefined();
  });

  it('computes like a parsed Decimal', () => {
    const a = plainDecimal('1234.5678') as InstanceType<typeof D>;
    expect(a.times('3.3').div(7).toFixed()).toBe(new D('1234.5678').times('3.3').div(7).toFixed());
  });

  it('builds a Decimal from digits and an exponent (exact40 values) as new D reads them', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '0', '1', '4', '9'), minLength: 1, maxLength: 50 });
    fc.assert(
      fc.property(fc.boolean(), digits, fc.integer({ min: -60, max: 30 }), (neg, d, exp) => {
        const text = `${neg ? '-' : ''}${d}e${exp}`;
        expect(fields(decimalOfDigits(neg, d, exp))).toEqual(fields(new D(text)));
      }),
      { numRuns: 3000 },
    );
    for (const t of ['0', '1', '-0.00000001', '1234567.7654321', '-99999999999999999999999999999999999999.99']) {
      const x = X40.parse(t).plus(X40.parse('0.5')).div(X40.parse('3'));
      expect(fields(x.toDec())).toEqual(fields(new D(x.toString())));
    }
  });

  it('builds a Decimal from a safe integer and an exponent as from its digits', () => {
    const safe = fc.oneof(
      fc.integer({ min: 0, max: 9999999 }),
      fc.constantFrom(0, 1, 10, 1000000, 10000000, 999999999999999, 2 ** 53 - 2, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1, 2 ** 52, 10 ** 15, 10 ** 15 - 1),
      fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }).map(Number),
      fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) - 100000n, max: BigInt(Number.MAX_SAFE_INTEGER) }).map(Number),
    );
    fc.assert(
      fc.property(fc.boolean(), safe, fc.integer({ min: -60, max: 30 }), (neg, n, exp) => {
        const got = decimalOfInt(neg, n, exp);
        expect(got).toBeInstanceOf(D);
        expect(fields(got)).toEqual(fields(decimalOfDigits(neg, String(n), exp)));
        expect(fields(got)).toEqual(fields(new D(`${neg ? '-' : ''}${n}e${exp}`)));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches decimal.js on short texts and texts around 2^53 (the integer fast path and its edge)', () => {
    const digits = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '7', '9'), minLength: 1, maxLength: 17 }),
      fc.bigInt({ min: 2n ** 53n - 1000n, max: 2n ** 53n + 1000n }).map(String),
      fc.bigInt({ min: 10n ** 15n - 1000n, max: 10n ** 16n + 1000n }).map(String),
    );
    fc.assert(
      fc.property(fc.boolean(), digits, fc.nat({ max: 20 }), (neg, d, point) => {
        const at = Math.min(point, d.length);
        const t = `${neg ? '-' : ''}${at === 0 ? d : `${d.slice(0, d.length - at)}.${d.slice(d.length - at)}`}`;
        same(t);
      }),
      { numRuns: 5000 },
    );
  });
});
