import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, isStrategyDefinition, resolveSetup, STRATEGY_BRAND } from './define.ts';
import { StrategyDefinitionError } from './errors.ts';
import { parseParams } from './params.ts';

const params = z.object({ symbol: z.string().default('BTCPHP'), slow: z.number().int().default(30) });

describe('defineStrategy', () => {
  it('returns a frozen, branded definition with its handlers', () => {
    const def = defineStrategy({ name: 'demo', params, symbols: ['BTCPHP'], onBar: () => [] });
    expect(Object.isFrozen(def)).toBe(true);
    expect(def[STRATEGY_BRAND]).toBe(true);
    expect(isStrategyDefinition(def)).toBe(true);
    expect(isStrategyDefinition({ ...def, [STRATEGY_BRAND]: undefined })).toBe(false);
    expect(isStrategyDefinition(null)).toBe(false);
  });

  it('rejects what would fail later, with the strategy named', () => {
    const base = { name: 'demo', params, symbols: ['BTCPHP'], onBar: () => [] };
    const err = (spec: object) => () => defineStrategy(spec as never);
    expect(err({ ...base, name: 'has space' })).toThrow(StrategyDefinitionError);
    expect(err({ ...base, onbar: () => [] })).toThrow(/unknown field\(s\) 'onbar'/);
    expect(err({ ...base, params: { fast: 1 } })).toThrow(/params must be a zod object schema/);
    expect(err({ ...base, onBar: 5 })).toThrow(/onBar must be a function/);
    expect(err({ ...base, onTimer: () => [] })).toThrow(/onTimer needs timerMs/);
    expect(err({ ...base, timerMs: 1000 })).toThrow(/timerMs is set but there is no onTimer/);
    expect(err({ name: 'demo', params, symbols: ['X'] })).toThrow(/at least one handler/);
    expect(err({ ...base, symbols: 'BTCPHP' })).toThrow(/symbols must be a list/);
    expect(err({ ...base, name: 'x' })).not.toThrow();
  });
});

describe('resolveSetup', () => {
  it('derives symbols, intervals, warm-up, history and timer from params, with defaults', () => {
    const def = defineStrategy({ name: 'demo', params, symbols: (p) => [p.symbol, p.symbol], warmup: (p) => p.slow + 1, onBar: () => [] });
    const setup = resolveSetup(def, parseParams('demo', params, { slow: 50 }));
    expect(setup).toEqual({ symbols: ['BTCPHP'], intervals: ['1m'], warmup: 51, history: 1000, timerMs: undefined });
    expect(resolveSetup(defineStrategy({ ...def, warmup: 5000 }), parseParams('demo', params, {})).history).toBe(5000);
  });

  it('reports bad derived values and throws from derivers', () => {
    const p = parseParams('demo', params, {});
    const setup = (extra: object) => () => resolveSetup(defineStrategy({ name: 'demo', params, symbols: ['BTCPHP'], onBar: () => [], ...extra } as never), p);
    expect(setup({ symbols: [] })).toThrow(/symbols must be a non-empty list/);
    expect(setup({ intervals: ['2m'] })).toThrow(/intervals must be a non-empty list of 1m/);
    expect(setup({ warmup: -1 })).toThrow(/warmup must be an integer >= 0/);
    expect(setup({ history: 10, warmup: 20 })).toThrow(/history must be an integer >= max\(1, warmup = 20\)/);
    expect(setup({ timerMs: 0.5, onTimer: () => [] })).toThrow(/timerMs must be an integer >= 1/);
    expect(
      setup({
        symbols: () => {
          throw new Error('boom');
        },
      }),
    ).toThrow(/strategy 'demo': symbols\(params\) threw: boom/);
  });
});
