import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { MAX_TIME_MS, requestAmountProblem, storedAmountProblem, timeProblem } from './bounds.ts';
import { zAmount, zSignedAmount, zTime } from './schema-kit.ts';

const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,45}$/), fc.stringMatching(/^[0-9]{0,25}$/), fc.option(fc.integer({ min: -60, max: 60 }), { nil: undefined }))
  .map(([neg, i, f, e]) => `${neg ? '-' : ''}${i}${f === '' ? '' : `.${f}`}${e === undefined ? '' : `e${e}`}`);

describe('stored bounds, shared by the state schemas and the request checks (issue 24)', () => {
  it('whatever a request amount check accepts, the stored schemas accept; a product of two such amounts too', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        if (requestAmountProblem(a) !== undefined) return;
        expect(zSignedAmount.safeParse(a).success).toBe(true);
        if (!a.startsWith('-')) expect(zAmount.safeParse(a).success).toBe(true);
        if (requestAmountProblem(b) === undefined) expect(storedAmountProblem(new D(a).times(b).toFixed())).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('whatever the time check accepts, zTime accepts, and the reverse', () => {
    const time = fc.oneof(fc.integer({ min: -1000, max: MAX_TIME_MS + 1000 }), fc.constantFrom(0, MAX_TIME_MS, MAX_TIME_MS + 1, 2 ** 53, 6e22, 1.5, Infinity, NaN));
    fc.assert(fc.property(time, (t) => {
          expect(zTime.safeParse(t).success).toBe(timeProblem(t) === undefined);
        }), { numRuns: 2000 });
  });

  it('names the reason', () => {
    expect(requestAmountProblem('1e400')).toMatch(/below 1e20/);
    expect(requestAmountProblem('0.0000000000000000001')).toBe('at most 18 decimals');
    expect(requestAmountProblem('0.001', 2)).toBe('at most 2 decimals');
    expect(timeProblem(99999999999 * 604_800_000)).toMatch(/after 9999-12-31/);
    expect(zAmount.safeParse('1e400').error?.issues[0]?.message).toMatch(/below 1e40/);
  });
});
