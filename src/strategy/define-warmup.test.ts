/**
 * `warmup` per interval (define.ts): a record of interval -> count, checked against the declared
 * intervals; a number reads exactly as before (no per-interval view in its setup).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, resolveSetup, warmupOf } from './define.ts';
import { StrategyDefinitionError } from './errors.ts';
import { parseParams } from './params.ts';

const params = z.object({ slow: z.number().int().default(30), trend: z.number().int().default(20) });
const p = parseParams('demo', params, {});
const base = { name: 'demo', params, symbols: ['BTCPHP'], intervals: ['1m', '1h'], onBar: () => [] } as const;
const setupOf = (extra: object) => resolveSetup(defineStrategy({ ...base, ...extra } as never), p);
const bad = (extra: object) => () => setupOf(extra);

describe('warmup per interval', () => {
  it('resolves a record (of the params) to every declared interval, 0 where it names none; warmup is the largest', () => {
    const setup = resolveSetup(defineStrategy({ ...base, intervals: ['1m', '5m', '1h'], warmup: (q) => ({ '1m': q.slow + 1, '1h': q.trend }) }), p);
    expect(setup.warmupByInterval).toEqual({ '1m': 31, '5m': 0, '1h': 20 });
    expect(setup.warmup).toBe(31);
    expect(setup.history).toBe(1000);
    expect([warmupOf(setup, '1m'), warmupOf(setup, '5m'), warmupOf(setup, '1h')]).toEqual([31, 0, 20]);
    expect(Object.isFrozen(setup.warmupByInterval)).toBe(true);
  });

  it('a number keeps its setup as it was: no per-interval view, the same count for every interval', () => {
    const setup = setupOf({ warmup: 31 });
    expect(setup).toEqual({ symbols: ['BTCPHP'], intervals: ['1m', '1h'], warmup: 31, history: 1000, timerMs: undefined });
    expect('warmupByInterval' in setup).toBe(false);
    expect([warmupOf(setup, '1m'), warmupOf(setup, '1h')]).toEqual([31, 31]);
  });

  it('history defaults to cover the largest count and must cover it', () => {
    expect(setupOf({ warmup: { '1h': 1500 } }).history).toBe(1500);
    expect(bad({ warmup: { '1m': 5, '1h': 50 }, history: 40 })).toThrow("strategy 'demo': history must be an integer >= max(1, the largest warmup = 50 (1h)), got 40");
    expect(setupOf({ warmup: { '1m': 5, '1h': 50 }, history: 50 }).history).toBe(50);
  });

  it('refuses an interval the strategy does not declare, naming it', () => {
    expect(bad({ warmup: { '1m': 31, '4h': 3 } })).toThrow(StrategyDefinitionError);
    expect(bad({ warmup: { '1m': 31, '4h': 3 } })).toThrow("strategy 'demo': warmup names 4h, which the strategy does not declare (its intervals: 1m, 1h): declare it in intervals or drop it from warmup");
  });

  it('refuses a name that is no interval, a negative, fractional or non-number count, and a value that is no record', () => {
    expect(bad({ warmup: { '1H': 3 } })).toThrow(/warmup names '1H', which is not an interval \(one of 1m, 3m, /);
    expect(bad({ warmup: { '1h': -1 } })).toThrow("strategy 'demo': warmup of 1h must be an integer >= 0, got number -1");
    expect(bad({ warmup: { '1h': 2.5 } })).toThrow('warmup of 1h must be an integer >= 0, got number 2.5');
    expect(bad({ warmup: { '1h': '20' } })).toThrow('warmup of 1h must be an integer >= 0, got "20"');
    expect(bad({ warmup: () => [31, 20] })).toThrow("warmup must be a number or a record of interval -> number such as { '1m': 31, '1h': 20 }, got an array of 2");
    expect(bad({ warmup: () => new Map([['1h', 20]]) })).toThrow(/warmup must be a number or a record .* got an object/);
    expect(bad({ warmup: () => null })).toThrow('warmup must be an integer >= 0 or a record of interval -> integer >= 0, got null');
    expect(bad({ warmup: -1 })).toThrow(/warmup must be an integer >= 0/);
    expect(() => defineStrategy({ ...base, warmup: '31' } as never)).toThrow('warmup must be a number, a record of interval -> number or (params) => either, got "31"');
    expect(() => defineStrategy({ ...base, warmup: null } as never)).toThrow(/warmup must be a number, a record/);
  });

  it('checks the record against the intervals the params give', () => {
    const def = defineStrategy({ ...base, params: z.object({ tf: z.enum(['1h', '4h']).default('1h') }), intervals: (q) => ['1m', q.tf], warmup: { '1h': 20 } });
    expect(resolveSetup(def, parseParams('demo', def.params, {})).warmupByInterval).toEqual({ '1m': 0, '1h': 20 });
    expect(() => resolveSetup(def, parseParams('demo', def.params, { tf: '4h' }))).toThrow(/warmup names 1h, which the strategy does not declare \(its intervals: 1m, 4h\)/);
  });

  it('an empty record needs nothing', () => {
    const setup = setupOf({ warmup: {} });
    expect(setup.warmupByInterval).toEqual({ '1m': 0, '1h': 0 });
    expect(setup.warmup).toBe(0);
  });
});
