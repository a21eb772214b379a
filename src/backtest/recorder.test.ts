import { describe, expect, it } from 'vitest';
import { throwSite } from './recorder.ts';

describe('throwSite', () => {
  it('is the first frame of a stack, a file URL as a path', () => {
    expect(throwSite('TypeError: x\n    at onBar (file:///home/me/strat.mts:8:32)\n    at callWith (file:///h/src/strategy/runner.ts:1:2)')).toBe('/home/me/strat.mts:8:32');
    expect(throwSite('Error: boom\n    at file:///home/me/strat.ts:3:9')).toBe('/home/me/strat.ts:3:9');
    expect(throwSite('Error: boom\n    at Object.<anonymous> (/abs/strat.js:4:1)')).toBe('/abs/strat.js:4:1');
    expect(throwSite('Error: no frames')).toBeUndefined();
    expect(throwSite(undefined)).toBeUndefined();
  });
});
