import { describe, expect, it } from 'vitest';
import { commonSpacing, findGaps } from './kline-gaps.ts';

const M = 60_000;

describe('gaps', () => {
  it('reports runs of missing bars as inclusive open-time ranges', () => {
    const times = [0, 1, 2, 5, 6, 8].map((i) => i * M);
    expect(findGaps(times, '1m')).toEqual({
      gaps: [
        { from: 3 * M, to: 4 * M, missing: 2 },
        { from: 7 * M, to: 7 * M, missing: 1 },
      ],
    });
  });

  it('flags bars closer than one interval, or off the grid', () => {
    expect(findGaps([0, 5 * M, 6 * M], '5m').problem).toEqual({ index: 2, kind: 'too-close', expected: 10 * M });
    expect(findGaps([0, 5 * M, 12 * M], '5m').problem).toEqual({ index: 2, kind: 'off-grid', expected: 10 * M });
  });

  it('handles calendar months', () => {
    const m = (y: number, mo: number) => Date.UTC(y, mo, 1);
    expect(findGaps([m(2024, 0), m(2024, 1), m(2024, 4)], '1M').gaps).toEqual([{ from: m(2024, 2), to: m(2024, 3), missing: 2 }]);
    expect(findGaps([m(2024, 0), m(2024, 1) + 1], '1M').problem?.kind).toBe('off-grid');
  });

  it('finds the most common spacing', () => {
    expect(commonSpacing([0, 1, 2, 3, 10].map((i) => i * M))).toBe(M);
    expect(commonSpacing([0])).toBeUndefined();
  });
});
