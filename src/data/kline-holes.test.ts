import { describe, expect, it } from 'vitest';
import { findHoles, uncheckedRanges, type HolesInput } from './kline-holes.ts';

const M = 60_000;

describe('uncheckedRanges', () => {
  it('is [from, to) less the checked ranges, which may reach past either end', () => {
    expect(uncheckedRanges(0, 100, [])).toEqual([[0, 100]]);
    expect(
      uncheckedRanges(10, 100, [
        [0, 20],
        [30, 40],
        [90, 200],
      ]),
    ).toEqual([
      [20, 30],
      [40, 90],
    ]);
    expect(uncheckedRanges(10, 100, [[0, 200]])).toEqual([]);
  });
});

describe('findHoles', () => {
  /** Stored 1m bars at these minutes; the input asks for minutes [from, to). */
  const input = (minutes: number[], from: number, to: number, checked: [number, number][] = []): HolesInput => ({
    from: from * M,
    to: to * M,
    interval: '1m',
    checked: checked.map(([a, b]) => [a * M, b * M]),
    lastStored: minutes.length ? Math.max(...minutes) * M : undefined,
    storedTimes: (a, b) => minutes.map((m) => m * M).filter((t) => t >= a && t < b),
  });
  const spans = (h: ReturnType<typeof findHoles>) => h.spans.map((s) => [s.start / M, s.end / M, s.beforeStored]);

  it('an empty journal: the whole range, with no stored bar after it', () => {
    expect(findHoles(input([], 0, 10))).toEqual({ spans: [{ start: 0, end: 10 * M, beforeStored: false }], stored: [] });
  });

  it('the bars before the first stored one, the holes between stored stretches, the bars after the last', () => {
    const h = findHoles(input([3, 4, 5, 8, 9], 0, 12));
    expect(spans(h)).toEqual([
      [0, 3, true],
      [5 + 1 / M, 8, true],
      [9 + 1 / M, 12, false],
    ]);
    expect(h.stored.map(([a, b]) => [a / M, b / M])).toEqual([
      [3, 5 + 1 / M],
      [8, 9 + 1 / M],
    ]);
  });

  it('asks nothing about checked ranges: their missing bars are the market\'s holes', () => {
    expect(spans(findHoles(input([3, 4, 5, 8, 9], 0, 12, [[0, 9]])))).toEqual([[9 + 1 / M, 12, false]]);
    expect(findHoles(input([3, 4, 5, 8, 9], 0, 10, [[0, 9 + 1 / M]]))).toEqual({ spans: [], stored: [] });
    // Where no bar can open (after the last bar checked, before the next stored one), nothing to ask.
    expect(findHoles(input([5, 6, 7], 0, 8, [[0, 5 + 1 / M]]))).toEqual({ spans: [], stored: [[6 * M, 7 * M + 1]] });
    // A hole in a range never checked, between two checked ones.
    expect(spans(findHoles(input([0, 1, 2, 6, 7, 8], 0, 9, [[0, 2 + 1 / M], [6, 9]])))).toEqual([[2 + 1 / M, 6, true]]);
  });

  it('a range after every stored bar has no stored bar after it (bars may yet come there)', () => {
    expect(spans(findHoles(input([3], 10, 20)))).toEqual([[10, 20, false]]);
    expect(spans(findHoles(input([30], 10, 20)))).toEqual([[10, 20, true]]);
  });
});
