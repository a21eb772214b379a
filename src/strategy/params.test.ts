import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StrategyParamsError } from './errors.ts';
import { decimalParam, describeSchema, intervalParam, parseParams } from './params.ts';

const schema = z
  .object({
    fast: z.number().int().min(2).default(10),
    slow: z.number().int().min(3).max(500).default(30),
    ratio: z.number().positive().default(0.5),
    mode: z.enum(['long', 'short']).default('long'),
    label: z.string().min(1).max(8).optional(),
    quantity: decimalParam().default('0.01'),
    interval: intervalParam().default('1m'),
    nested: z.object({ depth: z.number().int().default(1) }).default({ depth: 1 }),
  })
  .refine((p) => p.slow > p.fast, { message: 'slow must be greater than fast', path: ['slow'] });

const issues = (raw: unknown): readonly string[] => {
  try {
    parseParams('demo', schema, raw);
  } catch (e) {
    expect(e).toBeInstanceOf(StrategyParamsError);
    return (e as StrategyParamsError).issues;
  }
  throw new Error('expected a StrategyParamsError');
};

describe('parseParams', () => {
  it('fills defaults and freezes the result deeply', () => {
    const p = parseParams('demo', schema, undefined);
    expect(p).toEqual({ fast: 10, slow: 30, ratio: 0.5, mode: 'long', quantity: '0.01', interval: '1m', nested: { depth: 1 } });
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.nested)).toBe(true);
  });

  it('names the parameter, the expectation and the value', () => {
    expect(issues({ fast: 'x' })).toEqual([`param 'fast': expected integer >= 2, got "x"`]);
    expect(issues({ fast: 1 })).toEqual([`param 'fast': expected integer >= 2, got number 1`]);
    expect(issues({ slow: 1000 })).toEqual([`param 'slow': expected integer >= 3 and <= 500, got number 1000`]);
    expect(issues({ ratio: 0 })).toEqual([`param 'ratio': expected number > 0, got number 0`]);
    expect(issues({ mode: 'both' })).toEqual([`param 'mode': expected one of 'long', 'short', got "both"`]);
    expect(issues({ label: '' })).toEqual([`param 'label': expected string of 1..8 characters, got ""`]);
    expect(issues({ nested: { depth: 1.5 } })).toEqual([`param 'nested.depth': expected integer, got number 1.5`]);
  });

  it('rejects unknown keys, nested too, listing the known ones', () => {
    expect(issues({ fsat: 3 })).toEqual([`param 'fsat': unknown parameter (known: fast, slow, ratio, mode, label, quantity, interval, nested)`]);
    expect(issues({ nested: { depht: 2 } })).toEqual([`param 'nested.depht': unknown parameter (known: depth)`]);
  });

  it('reports every issue at once, refinements included', () => {
    const all = issues({ fast: 'x', mode: 'up', extra: true });
    expect(all).toHaveLength(3);
    expect(issues({ fast: 40, slow: 30 })).toEqual([`param 'slow': slow must be greater than fast`]);
  });

  it('money params: decimal strings or numbers in, decimal strings out', () => {
    expect(parseParams('demo', schema, { quantity: 0.1 }).quantity).toBe('0.1');
    expect(parseParams('demo', schema, { quantity: '0.00000001' }).quantity).toBe('0.00000001');
    expect(parseParams('demo', schema, { quantity: '1e-8' }).quantity).toBe('0.00000001');
    expect(issues({ quantity: 'abc' })).toEqual([`param 'quantity': expected a decimal such as "0.01", got "abc"`]);
    expect(issues({ quantity: '0' })).toEqual([`param 'quantity': expected a decimal > 0, got "0"`]);
    expect(issues({ quantity: true })).toEqual([`param 'quantity': expected string or number, got boolean true`]);
    expect(parseParams('d', z.object({ q: decimalParam({ allowZero: true }) }), { q: 0 }).q).toBe('0');
  });

  it('requires what has no default', () => {
    const s = z.object({ symbol: z.string() });
    expect(() => parseParams('d', s, {})).toThrow(`param 'symbol': expected string, got nothing`);
    expect(() => parseParams('d', s, 5)).toThrow('params: expected an object, got number 5');
  });

  it('describes schemas for messages', () => {
    expect(describeSchema(z.number().int().min(2).default(3))).toBe('integer >= 2');
    expect(describeSchema(z.literal('x'))).toBe('"x"');
    expect(describeSchema(z.array(z.string().min(1)).length(2))).toBe('a list of 2, each string of at least 1 character');
    expect(describeSchema(z.array(z.number().int()).min(1))).toBe('a list of at least 1, each integer');
    expect(describeSchema(z.array(z.unknown()))).toBe('a list');
    expect(describeSchema(z.boolean().optional())).toBe('true or false');
  });
});

describe('parseParams with author-strict nested objects', () => {
  it('reports a nested unknown key once', () => {
    const s = z.object({ grid: z.strictObject({ n: z.number().default(1) }).default({ n: 1 }) });
    expect(() => parseParams('d', s, { grid: { m: 1 } })).toThrow(/unknown parameter/);
    try {
      parseParams('d', s, { grid: { m: 1 } });
    } catch (e) {
      expect((e as StrategyParamsError).issues).toEqual([`param 'grid.m': unknown parameter (known: n)`]);
    }
  });
});
