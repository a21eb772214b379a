import { describe, expect, it } from 'vitest';
import { Atr, atr, trueRange } from './atr.ts';

describe('atr (Wilder)', () => {
  const bars = [
    { high: 10, low: 8, close: 9 }, // TR 2 (no previous close)
    { high: 11, low: 9, close: 10.5 }, // TR max(2, 2, 0) = 2 -> ATR mean(2, 2) = 2
    { high: 12, low: 10, close: 11 }, // TR max(2, 1.5, 0.5) = 2 -> (2*1 + 2)/2 = 2
    { high: 10.5, low: 7, close: 8 }, // TR max(3.5, 0.5, 4) = 4 -> (2*1 + 4)/2 = 3
  ];

  it('matches hand-computed values', () => {
    expect(atr(bars, 2)).toEqual([undefined, 2, 2, 3]);
  });

  it('true range uses the gap to the previous close', () => {
    expect(trueRange({ high: 10, low: 9, close: 9.5 }, 12)).toBe(3);
    expect(trueRange({ high: 10, low: 9, close: 9.5 }, undefined)).toBe(1);
  });

  it('reset forgets the previous close', () => {
    const a = new Atr(1);
    a.update({ high: 10, low: 9, close: 9 });
    a.reset();
    expect(a.update({ high: 20, low: 19, close: 19 })).toBe(1);
  });
});
