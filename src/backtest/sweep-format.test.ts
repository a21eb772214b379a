import { describe, expect, it } from 'vitest';
import { edgeNote } from './sweep-format.ts';
import type { ParamValue, TypedAxis } from './sweep-grid.ts';

const axes: TypedAxis[] = [
  { name: 'fast', values: [5, 10, 15, 20] },
  { name: 'slow', values: [30, 40, 50] },
  { name: 'mode', values: ['a', 'b', 'c'] },
  { name: 'two', values: [1, 2] },
];
const best = (values: Record<string, ParamValue>) => ({ axes, entries: [{ values }] as never });

describe('edgeNote', () => {
  it('names every numeric axis of three values or more whose smallest or largest value the best point takes', () => {
    expect(edgeNote(best({ fast: 20, slow: 30, mode: 'a', two: 1 }))).toBe(
      'Note: the best sits at the edge of the grid on fast=20 (its largest), slow=30 (its smallest): the optimum may lie beyond the range swept; widen it that way before trusting the choice.',
    );
  });

  it('says nothing for a best inside the grid, on a text or two-value axis, or with no result', () => {
    expect(edgeNote(best({ fast: 10, slow: 40, mode: 'c', two: 2 }))).toBeUndefined();
    expect(edgeNote({ axes, entries: [] })).toBeUndefined();
  });
});
