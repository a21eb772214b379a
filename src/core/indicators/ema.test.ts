import { describe, expect, it } from 'vitest';
import { Ema, ema } from './ema.ts';

describe('ema', () => {
  it('seeds with the SMA of the first period inputs, then smooths with alpha 2/(n+1)', () => {
    // alpha = 0.5; seed (2+4+6)/3 = 4; 4 + 0.5*(8-4) = 6; 6 + 0.5*(4-6) = 5
    expect(ema([2, 4, 6, 8, 4], 3)).toEqual([undefined, undefined, 4, 6, 5]);
  });

  it('period 1 follows the input', () => {
    expect(ema([3, 7, 1], 1)).toEqual([3, 7, 1]);
  });

  it('alpha and reset', () => {
    const e = new Ema(9);
    expect(e.alpha).toBeCloseTo(0.2, 12);
    for (let i = 0; i < 9; i++) e.update(10);
    expect(e.value).toBe(10);
    e.update(20);
    expect(e.value).toBeCloseTo(12, 12);
    e.reset();
    expect(e.ready).toBe(false);
  });
});
