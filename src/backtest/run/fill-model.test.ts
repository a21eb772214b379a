import { describe, expect, it } from 'vitest';
import { barPath, resolveFillModel, volumeCap } from './fill-model.ts';
import type { PathPoint } from './fill-model.ts';

describe('fill model', () => {
  it('walks an up bar open -> low -> high -> close and a down bar open -> high -> low -> close, over the bar', () => {
    const out: PathPoint[] = [];
    barPath(0, 59_999, '100', '104', '98', '103', 100, 103, out);
    expect(out).toEqual([
      { price: '100', time: 0 },
      { price: '98', time: 20_000 },
      { price: '104', time: 40_000 },
      { price: '103', time: 59_999 },
    ]);
    const again = out[0];
    barPath(60_000, 119_999, '103', '107', '95', '96', 103, 96, out);
    expect(out.map((p) => p.price)).toEqual(['103', '107', '95', '96']);
    expect(out[0]).toBe(again); // the points are reused: no allocation per bar
  });

  it('states its defaults and refuses nonsense', () => {
    expect(resolveFillModel()).toEqual({ marketFill: 'next-open', slippageBps: 0, limitFill: 'through', volumeShare: null });
    expect(() => resolveFillModel({ slippageBps: -1 })).toThrow(/slippageBps/);
    expect(() => resolveFillModel({ limitFill: 'near' as never })).toThrow(/limitFill/);
    expect(() => resolveFillModel({ volumeShare: 0 })).toThrow(/volumeShare/);
    expect(volumeCap('12.5', 0.1)?.toFixed()).toBe('1.25');
    expect(volumeCap('12.5', null)).toBeUndefined();
  });
});
