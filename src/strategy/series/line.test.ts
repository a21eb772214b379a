import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossover, crossunder, ValueRing } from './line.ts';
import type { LineLike } from './line.ts';

describe('crossover / crossunder over rings', () => {
  it('answers as the generic rule over at(), missing values, levels and ring sizes included', () => {
    const value = fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined });
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value), { maxLength: 6 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: -2, max: 2 }), (pairs, capacity, level) => {
        const a = new ValueRing(capacity);
        const b = new ValueRing(capacity);
        for (const [x, y] of pairs) {
          a.push(x);
          b.push(y);
        }
        const la = a.asLine();
        const lb = b.asLine();
        // Plain LineLikes take the generic path.
        const ga: LineLike = { at: (k) => la.at(k) };
        const gb: LineLike = { at: (k) => lb.at(k) };
        expect(crossover(la, lb)).toBe(crossover(ga, gb));
        expect(crossunder(la, lb)).toBe(crossunder(ga, gb));
        expect(crossover(la, level)).toBe(crossover(ga, level));
        expect(crossunder(la, level)).toBe(crossunder(ga, level));
        expect(crossover(la, gb)).toBe(crossover(ga, gb));
      }),
      { numRuns: 2000 },
    );
  });
});
