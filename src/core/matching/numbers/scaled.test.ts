import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../money/decimal.ts';
import { formatScaled, INEXACT, LastParse, MALFORMED, parseScaled } from './scaled.ts';

describe('parseScaled / formatScaled', () => {
  it('parses onto the scale without floats', () => {
    expect(parseScaled('123.45', 2)).toBe(12345);
    expect(parseScaled('123.4', 2)).toBe(12340);
    expect(parseScaled('123', 2)).toBe(12300);
    expect(parseScaled('0.10', 1)).toBe(1);
    expect(parseScaled('.5', 1)).toBe(5);
    expect(parseScaled('1e-2', 2)).toBe(1);
    expect(parseScaled('0.1', 0)).toBe(INEXACT);
    expect(parseScaled('1.005', 2)).toBe(INEXACT);
    expect(parseScaled('90071992547409.93', 2)).toBe(INEXACT);
  });

  it('rejects what is not a plain non-negative decimal', () => {
    for (const bad of ['', '.', 'abc', '1.2.3', '-1', '1,5']) expect(parseScaled(bad, 2)).toBe(MALFORMED);
  });

  it('formats like toWire: no trailing zeros, no exponent', () => {
    expect(formatScaled(0, 8)).toBe('0');
    expect(formatScaled(1, 8)).toBe('0.00000001');
    expect(formatScaled(12300, 2)).toBe('123');
    expect(formatScaled(12345, 2)).toBe('123.45');
    expect(formatScaled(-5, 1)).toBe('-0.5');
    expect(formatScaled(7, 0)).toBe('7');
  });

  it('round-trips and agrees with decimal.js', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 12 }), (n, d) => {
        const text = formatScaled(n, d);
        expect(parseScaled(text, d)).toBe(n);
        expect(dec(text).times(`1e${d}`).toFixed()).toBe(String(n));
      }),
    );
  });

  it('LastParse answers every call of any sequence as parseScaled does', () => {
    const text = fc.oneof(fc.constantFrom('1000', '0.1', '0.10', '1.005', '', '.', 'abc', '1e-2', '-1'), fc.integer({ min: 0, max: 10 ** 9 }).map((n) => String(n / 1000)));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 0, max: 4 })), { maxLength: 40 }), (calls) => {
        const last = new LastParse();
        for (const [t, d] of calls) expect(last.parse(t, d)).toBe(parseScaled(t, d));
      }),
      { numRuns: 500 },
    );
  });
});
