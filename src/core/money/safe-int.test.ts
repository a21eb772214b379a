import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floorDiv, floorDivPow10, POW10 } from './safe-int.ts';

/** floor(n / d) on bigints. */
const bigFloor = (n: number, d: bigint): number => {
  const b = BigInt(n);
  const q = b / d;
  return Number(b % d !== 0n && b < 0n ? q - 1n : q);
};

describe('safe-int', () => {
  it('floorDiv and floorDivPow10 agree with bigint floor division (property)', () => {
    const safe = fc.oneof(
      fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.integer({ min: 0, max: 22 }).chain((k) => fc.integer({ min: -3, max: 3 }).map((d) => Math.sign(d) * Math.min(Number.MAX_SAFE_INTEGER, 10 ** Math.min(k, 15) + d))),
    );
    fc.assert(
      fc.property(safe, fc.integer({ min: 0, max: 22 }), (signed, k) => {
        const n = signed + 0; // no -0: a balance delta of zero never reaches the division
        const want = bigFloor(n, 10n ** BigInt(k));
        expect(floorDivPow10(n, k)).toBe(want);
        if (k <= 15) expect(floorDiv(n, POW10[k] as number)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it('is exact at the edges of the safe range and of the fast path', () => {
    for (const n of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 52, 2 ** 52 - 1, -(2 ** 52), -(2 ** 52) + 1, 0, -1, 1]) {
      for (let k = 0; k <= 22; k++) expect(floorDivPow10(n, k)).toBe(bigFloor(n, 10n ** BigInt(k)));
    }
  });
});
