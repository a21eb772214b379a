import { describe, expect, it } from 'vitest';
import { classify, CLASSIFICATION_TABLE, type ClassifyInput } from './classify.ts';

const of = (input: ClassifyInput): string => {
  const c = classify(input);
  return `${c.outcome}/${c.category}`;
};

describe('classify: HTTP status rules', () => {
  it('429 and 418 are rate-limited whatever the body', () => {
    expect(of({ httpStatus: 429, venueCode: -1003 })).toBe('rate-limited/rate');
    expect(of({ httpStatus: 429, venueCode: -1015, message: 'Filter failure: x' })).toBe('rate-limited/rate');
    expect(of({ httpStatus: 418 })).toBe('rate-limited/rate');
  });
  it('5xx: unknown outcome for writes, retryable for idempotent reads', () => {
    expect(of({ httpStatus: 500 })).toBe('unknown-outcome/server');
    expect(of({ httpStatus: 503, venueCode: -2010 })).toBe('unknown-outcome/server');
    expect(of({ httpStatus: 502, idempotent: true })).toBe('retryable/server');
  });
  it('403 without a known code is fatal (WAF); other 4xx are bad requests', () => {
    expect(of({ httpStatus: 403 })).toBe('fatal/permission');
    expect(of({ httpStatus: 400 })).toBe('rejected/bad-request');
    expect(of({ httpStatus: 404, venueCode: -1105, message: "parameter 'symbol' is required" })).toBe('rejected/bad-request');
    expect(of({ httpStatus: 400, venueCode: -1025 })).toBe('rejected/bad-request');
    // An unknown symbol: spec 7.3's -1025, or the old-only -1121 older deployments send (notes 9).
    expect(of({ httpStatus: 400, venueCode: -1025, message: "parameter 'symbol' is not valid: no such symbol 'NOPE'" })).toBe('rejected/bad-request');
    expect(of({ httpStatus: 400, venueCode: -1121, message: 'Invalid symbol.' })).toBe('rejected/bad-request');
  });
});

describe('classify: venue codes (spec 7.3, notes 9)', () => {
  const cases: [number, string][] = [
    [-1002, 'fatal/auth'],
    [-1022, 'fatal/auth'],
    [-1023, 'fatal/auth'],
    [-2015, 'fatal/auth'],
    [-2017, 'fatal/auth'],
    [-2018, 'fatal/auth'],
    [-2019, 'fatal/auth'],
    [-1150, 'fatal/auth'],
    [-1020, 'fatal/permission'],
    [-1152, 'fatal/permission'],
    [-1021, 'retryable/clock'],
    [-1003, 'rate-limited/rate'],
    [-1015, 'rate-limited/rate'],
    [-2013, 'rejected/not-found'],
    [-1125, 'rejected/not-found'],
    [-1131, 'rejected/funds'],
    [-2010, 'rejected/invalid-order'],
    [-2011, 'rejected/invalid-order'],
    [-1132, 'rejected/invalid-order'],
    [-1133, 'partial/invalid-order'],
    [-1000, 'unknown-outcome/server'],
    [-1001, 'unknown-outcome/server'],
    [-1010, 'rejected/bad-request'],
  ];
  it.each(cases)('%i -> %s', (venueCode, expected) => {
    expect(of({ httpStatus: 400, venueCode })).toBe(expected);
  });
  it('-1000/-1001 are retryable on idempotent reads', () => {
    expect(of({ httpStatus: 400, venueCode: -1000, idempotent: true })).toBe('retryable/server');
  });
  it('a code on a 403 still wins over the WAF fallback', () => {
    expect(of({ httpStatus: 403, venueCode: -2015 })).toBe('fatal/auth');
  });
});

describe('classify: messages before codes (spec 7.4, 7.5)', () => {
  it('matching-engine messages carried with -1010/-2010/-2011', () => {
    expect(of({ httpStatus: 400, venueCode: -2011, message: 'Unknown order sent.' })).toBe('rejected/not-found');
    expect(of({ httpStatus: 400, venueCode: -2010, message: 'Duplicate order sent.' })).toBe('rejected/duplicate');
    expect(of({ httpStatus: 400, venueCode: -2010, message: 'Account has insufficient balance for requested action.' })).toBe('rejected/funds');
    expect(of({ httpStatus: 400, venueCode: -2010, message: 'INSUFFICIENT BALANCE' })).toBe('rejected/funds');
    expect(of({ httpStatus: 400, venueCode: -2010, message: 'Order would immediately match and take.' })).toBe('rejected/post-only');
    expect(of({ httpStatus: 400, venueCode: -1010, message: 'Filter failure: LOT_SIZE' })).toBe('rejected/invalid-order');
  });
  it('a message rule beats a code rule that says otherwise', () => {
    expect(of({ httpStatus: 400, venueCode: -1000, message: 'Unknown order sent.' })).toBe('rejected/not-found');
  });
});

describe('classify: envelopes (spec 1.10, 7.6)', () => {
  it('status != 0 is an error even on HTTP 200', () => {
    expect(of({ httpStatus: 200, envelopeStatus: 10000003, message: 'Quote expired' })).toBe('rejected/envelope');
    expect(of({ httpStatus: 200, envelopeStatus: 88010013, message: 'insufficient balance' })).toBe('rejected/envelope');
    expect(of({ httpStatus: 200, envelopeStatus: 88010018 })).toBe('rejected/envelope');
  });
  it('88010000 is a server-side error: unknown outcome on writes', () => {
    expect(of({ httpStatus: 200, envelopeStatus: 88010000 })).toBe('unknown-outcome/envelope');
    expect(of({ httpStatus: 200, envelopeStatus: 88010000, idempotent: true })).toBe('retryable/envelope');
  });
  it('status 0 is not an envelope error', () => {
    expect(of({ httpStatus: 400, envelopeStatus: 0 })).toBe('rejected/bad-request');
  });
});

describe('CLASSIFICATION_TABLE', () => {
  it('ends with a catch-all row and every row explains itself', () => {
    expect(CLASSIFICATION_TABLE.at(-1)?.match.kind).toBe('any');
    for (const row of CLASSIFICATION_TABLE) expect(row.why.length).toBeGreaterThan(0);
  });
  it('lists each venue code once', () => {
    const codes = CLASSIFICATION_TABLE.flatMap((r) => (r.match.kind === 'code' ? r.match.codes : []));
    expect(new Set(codes).size).toBe(codes.length);
  });
});
