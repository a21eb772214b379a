import { describe, expect, it } from 'vitest';
import smaCrossover from '../../../strategies/sma-crossover.ts';
import { buildGrid } from './sweep-grid.ts';
import { parseSweepSpec, parseSweepSpecs, SweepSpecError } from './sweep-spec.ts';

describe('parseSweepSpec', () => {
  it('expands an inclusive range and a list', () => {
    expect(parseSweepSpec('fast=5:20:5')).toEqual({ name: 'fast', values: ['5', '10', '15', '20'], spec: 'fast=5:20:5' });
    expect(parseSweepSpec('fast=5:19:5').values).toEqual(['5', '10', '15']);
    expect(parseSweepSpec('mode=a,b, c').values).toEqual(['a', 'b', 'c']);
    expect(parseSweepSpec('x=7').values).toEqual(['7']);
  });

  it('steps in decimal, not float', () => {
    expect(parseSweepSpec('q=0.1:0.3:0.1').values).toEqual(['0.1', '0.2', '0.3']);
  });

  it('rejects bad specs naming them', () => {
    const bad = (s: string, re: RegExp) => expect(() => parseSweepSpec(s)).toThrowError(re);
    bad('fast', /bad --sweep spec 'fast': expected name=/);
    bad('fast=5:20', /'fast=5:20': a range is start:stop:step/);
    bad('fast=5:x:1', /'x' is not a plain decimal number/);
    bad('fast=5:20:0', /step must be > 0/);
    bad('fast=20:5:1', /stop 5 is below start 20/);
    bad('fast=1:100000:1', /100000 values is more than/);
    bad('fast=a,,b', /empty item/);
    bad('=1,2', /expected name=/);
    bad('fast=', /no values/);
    expect(() => parseSweepSpec('fast')).toThrow(SweepSpecError);
  });

  it('takes several specs per argument and refuses a parameter twice', () => {
    expect(parseSweepSpecs(['fast=5:10:5 slow=20,30', 'quoteAmount=100']).map((a) => a.name)).toEqual(['fast', 'slow', 'quoteAmount']);
    expect(() => parseSweepSpecs(['fast=1,2', 'fast=3'])).toThrowError(/'fast=3': parameter 'fast' is swept twice/);
  });
});

describe('buildGrid', () => {
  it('builds the product, typed by the schema, skipping what the schema rejects', () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=10:30:10', 'slow=20,40', 'quoteAmount=500,1000']), { symbol: 'BTCUSDT' });
    // fast 10,20,30 x slow 20,40: slow > fast holds for (10,20), (10,40), (20,40), (30,40).
    expect(grid.points).toHaveLength(8);
    expect(grid.skipped).toHaveLength(4);
    expect(grid.points[0]).toEqual({ values: { fast: 10, slow: 20, quoteAmount: '500' }, params: { symbol: 'BTCUSDT', fast: 10, slow: 20, quoteAmount: '500' } });
    expect(grid.skipped[0]!.values).toEqual({ fast: 20, slow: 20, quoteAmount: '500' });
    expect(grid.skipped[0]!.reason).toMatch(/slow must be greater than fast/);
  });

  it('names an unknown parameter and a value of the wrong type', () => {
    expect(() => buildGrid(smaCrossover, parseSweepSpecs(['fsat=1,2']))).toThrowError(/'fsat=1,2': strategy 'sma-crossover' has no parameter 'fsat' \(known: .*fast/);
    expect(() => buildGrid(smaCrossover, parseSweepSpecs(['fast=a,b']))).toThrowError(/parameter 'fast' is a number; 'a' is not/);
  });

  it('refuses a value its parameter rejects on its own, wherever it stands in the list, naming the parameter and the value', () => {
    const grid = (...specs: string[]) => () => buildGrid(smaCrossover, parseSweepSpecs(specs));
    for (const spec of ['fast=1,5', 'fast=5,1']) expect(grid(spec)).toThrowError(`bad --sweep spec '${spec}': param 'fast': expected integer >= 2, got number 1`);
    for (const spec of ['quoteAmount=-1,100', 'quoteAmount=100,-1']) expect(grid(spec)).toThrowError(/param 'quoteAmount': expected a decimal > 0, got "-1"/);
    expect(grid('quoteAmount=100,abc')).toThrowError(/'quoteAmount=100,abc': param 'quoteAmount': expected a decimal such as "0\.01", got "abc"/);
    expect(grid('fast=5,10', 'slow=40,2')).toThrowError(/'slow=40,2': param 'slow': expected integer >= 3, got number 2/);
  });

  it('skips, and counts, the points that break only a rule across parameters', () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:20:5', 'slow=10:60:10']));
    expect(grid.points.length + grid.skipped.length).toBe(24);
    expect(grid.skipped.map((s) => s.values)).toEqual([
      { fast: 10, slow: 10 },
      { fast: 15, slow: 10 },
      { fast: 20, slow: 10 },
      { fast: 20, slow: 20 },
    ]);
    expect(grid.skipped.every((s) => /slow must be greater than fast/.test(s.reason))).toBe(true);
  });

  it('reads numbers as plain decimals only', () => {
    expect(() => buildGrid(smaCrossover, parseSweepSpecs(['fast=5,0x10']))).toThrowError(/parameter 'fast': '0x10' is not a plain decimal number/);
    expect(() => parseSweepSpec('fast=1e1:2e1:5')).toThrowError(/'1e1' is not a plain decimal number/);
  });

  it('runs a value once however often the axis names it (5 and 5.0 are one number)', () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5,5.0,6', 'slow=40']));
    expect(grid.axes).toEqual([{ name: 'fast', values: [5, 6] }, { name: 'slow', values: [40] }]);
    expect(grid.points.map((p) => p.values.fast)).toEqual([5, 6]);
  });

  it('with no axes is the base params alone', () => {
    expect(buildGrid(smaCrossover, [], { fast: 5 }).points).toEqual([{ values: {}, params: { fast: 5 } }]);
  });
});
