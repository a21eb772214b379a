import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import { isOnStep, roundToGrid } from '../money/rounding.ts';
import type { RoundMode } from '../money/rounding.ts';
import { onGrid, powerOfTenDecimals, roundOnGrid } from './decimal-grid.ts';

describe('decimal grid fast paths', () => {
  it('knows powers of ten', () => {
    expect(['0.000001', '0.01', '1', '0.1'].map((s) => powerOfTenDecimals(new D(s)))).toEqual([6, 2, 0, 1]);
    expect(['0.5', '0.25', '10', '0', '0.000002'].map((s) => powerOfTenDecimals(new D(s)))).toEqual([-1, -1, -1, -1, -1]);
  });

  it('answers exactly as money/rounding.ts, on and off the fast path', () => {
    const steps = ['0.000001', '0.01', '1', '0.5', '0.00025', '10'];
    const origins = ['0', '0.000001', '0.01', '0.015', '0.3', '5'];
    const value = fc.tuple(fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }), fc.integer({ min: 0, max: 9 })).map(([m, e]) => new D(m).div(new D(10).pow(e)));
    fc.assert(
      fc.property(value, fc.constantFrom(...steps), fc.constantFrom(...origins), fc.constantFrom<RoundMode>('down', 'up', 'nearest'), (v, s, o, mode) => {
        const step = new D(s);
        const origin = new D(o);
        expect(onGrid(v, step, origin)).toBe(isOnStep(v, step, origin));
        expect(roundOnGrid(v, step, origin, mode).toFixed()).toBe(roundToGrid(v, step, origin, mode).toFixed());
      }),
      { numRuns: 3000 },
    );
    // Ties.
    for (const mode of ['down', 'up', 'nearest'] as const) {
      for (const v of ['0.0000015', '-0.0000015', '2.5', '-2.5', '0.0000025']) {
        expect(roundOnGrid(new D(v), new D('0.000001'), new D('0'), mode).toFixed()).toBe(roundToGrid(new D(v), new D('0.000001'), new D('0'), mode).toFixed());
      }
    }
  });
});
