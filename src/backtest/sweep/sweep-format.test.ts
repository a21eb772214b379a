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

  it('says the best is first by grid order alone, not where the optimum lies, when others tie with it on the rank metric and net PnL', () => {
    const m = (sharpe: number, netPnl: number) => ({ sharpe, netPnl }) as never;
    const entries = [
      { values: { fast: 5, slow: 30 }, metrics: m(0, 0) },
      { values: { fast: 10, slow: 40 }, metrics: m(0, 0) },
      { values: { fast: 15, slow: 50 }, metrics: m(0, 0) },
      { values: { fast: 20, slow: 30 }, metrics: m(0, -1) },
    ] as never[];
    expect(edgeNote({ axes, entries, rankBy: 'sharpe' })).toBe("Note: the best ties with 2 other point(s) on sharpe and net PnL (e.g. fast=10 slow=40): it is first by the grid's order alone.");
    // Tied points that all sit on one edge of an axis keep that axis's note (fast=5 here), and only it.
    expect(edgeNote({ axes, entries: [entries[0], { values: { fast: 5, slow: 40 }, metrics: m(0, 0) }] as never[], rankBy: 'sharpe' })).toBe(
      'Note: the best sits at the edge of the grid on fast=5 (its smallest): the optimum may lie beyond the range swept; widen it that way before trusting the choice.',
    );
    // A best ahead of the next (here on net PnL) still gets the edge note.
    expect(edgeNote({ axes, entries: entries.slice(2), rankBy: 'sharpe' })).toBe(
      'Note: the best sits at the edge of the grid on slow=50 (its largest): the optimum may lie beyond the range swept; widen it that way before trusting the choice.',
    );
  });

  it('says nothing for a best inside the grid, on a text or two-value axis, or with no result', () => {
    expect(edgeNote(best({ fast: 10, slow: 40, mode: 'c', two: 2 }))).toBeUndefined();
    expect(edgeNote({ axes, entries: [] })).toBeUndefined();
  });
});
