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

  it("skips Halyard's own frames, node's and node_modules': the strategy's line that called it", () => {
    const stack = [
      "StrategyContextError: interval '1h' is not one of the strategy's intervals (5m)",
      '    at Object.bars (file:///opt/halyard/src/strategy/context.ts:138:21)',
      '    at Array.map (<anonymous>)',
      '    at Decimal.times (/home/me/node_modules/decimal.js/decimal.mjs:10:5)',
      '    at onBar (file:///home/me/strats/trend.ts:12:27)',
      '    at StrategyRunner.call (file:///opt/halyard/src/strategy/runner.ts:300:9)',
    ].join('\n');
    expect(throwSite(stack, '/opt/halyard/src/')).toBe('/home/me/strats/trend.ts:12:27');
    // Only Halyard's frames (a bug of its own): the first one.
    expect(throwSite('Error: x\n    at f (/opt/halyard/src/a.ts:1:2)\n    at node:internal/x:3:4', '/opt/halyard/src/')).toBe('/opt/halyard/src/a.ts:1:2');
    // A test beside the sources is the strategy's code.
    expect(throwSite('Error: x\n    at onBar (/opt/halyard/src/backtest/run.test.ts:5:6)', '/opt/halyard/src/')).toBe('/opt/halyard/src/backtest/run.test.ts:5:6');
    // By default, this installation's sources.
    expect(throwSite(`Error: x\n    at f (${new URL('./recorder.ts', import.meta.url).href}:1:2)\n    at g (/s/strat.ts:8:3)`)).toBe('/s/strat.ts:8:3');
  });
});
