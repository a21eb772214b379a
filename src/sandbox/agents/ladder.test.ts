import { describe, expect, it } from 'vitest';
import { ladderAround, ladderSteps } from './ladder.ts';

describe('ladderAround', () => {
  it('puts levels on multiples of the step, at least half the spread from the price', () => {
    expect(ladderAround(1000, { levels: 3, halfSpread: 3, step: 5, min: 1, max: 10_000 })).toEqual({ bids: [995, 990, 985], asks: [1005, 1010, 1015] });
    expect(ladderAround(1002, { levels: 2, halfSpread: 3, step: 5, min: 1, max: 10_000 })).toEqual({ bids: [995, 990], asks: [1005, 1010] });
  });

  it('keeps most levels when the price moves a tick', () => {
    const spec = { levels: 5, halfSpread: 2, step: 4, min: 1, max: 10_000 };
    const a = ladderAround(1000, spec);
    const b = ladderAround(1001, spec);
    const kept = [...a.bids, ...a.asks].filter((u) => [...b.bids, ...b.asks].includes(u));
    expect(kept.length).toBeGreaterThanOrEqual(8);
  });

  it('never quotes outside the symbol range, and never crosses the price', () => {
    expect(ladderAround(3, { levels: 4, halfSpread: 1, step: 1, min: 1, max: 5 })).toEqual({ bids: [2, 1], asks: [4, 5] });
    for (let c = 10; c < 60; c++) {
      const l = ladderAround(c, { levels: 3, halfSpread: 1, step: 7, min: 1, max: 1000 });
      expect(l.bids.every((u) => u < c) && l.asks.every((u) => u > c)).toBe(true);
    }
  });
});

describe('ladderSteps', () => {
  it('turns basis points of the price into ticks, at least one', () => {
    expect(ladderSteps(2000, 0.01, 10, 5)).toEqual({ halfSpread: 100, step: 100 });
    expect(ladderSteps(1, 0.01, 10, 5)).toEqual({ halfSpread: 1, step: 1 });
  });
});
