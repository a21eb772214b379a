import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import smaCrossover from '../../../strategies/sma-crossover.ts';
import { buildGrid } from './sweep-grid.ts';
import { formatSweepTable, sweepToJson } from './sweep-format.ts';
import { gridSize, sampleGrid, sampleIndices, searchLine, SweepSearchError, tpeGrid } from './sweep-sample.ts';
import { parseSweepSpecs } from './sweep-spec.ts';
import type { SweepResult } from './sweep.ts';

const base = { symbol: 'BTCUSDT', interval: '1m', quoteAmount: '1000' };
// fast 5..50 (10 values) x slow 10..100 (10 values): slow > fast rejects some points.
const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:50:5', 'slow=10:100:10']), base);
const key = (v: Record<string, unknown>): string => JSON.stringify(v);

describe('sampleIndices', () => {
  it('draws distinct indices in range, ascending, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (size, seed, share) => {
        const trials = Math.max(1, Math.ceil(size * share));
        const a = sampleIndices(size, trials, seed);
        expect(a).toHaveLength(trials);
        expect(new Set(a).size).toBe(trials);
        expect(a.every((i) => Number.isInteger(i) && i >= 0 && i < size)).toBe(true);
        expect([...a].sort((x, y) => x - y)).toEqual(a);
        expect(sampleIndices(size, trials, seed)).toEqual(a);
      }),
    );
  });

  it('all of the grid when trials is its size; another seed draws other points', () => {
    expect(sampleIndices(7, 7, 3)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sampleIndices(1000, 10, 1)).not.toEqual(sampleIndices(1000, 10, 2));
  });

  it('is roughly uniform: every index of a small grid is drawn about as often', () => {
    const counts = new Array<number>(10).fill(0);
    for (let seed = 0; seed < 2000; seed++) for (const i of sampleIndices(10, 3, seed)) counts[i]!++;
    // 2000 draws of 3 of 10: 600 each expected.
    for (const c of counts) {
      expect(c).toBeGreaterThan(500);
      expect(c).toBeLessThan(700);
    }
  });
});

describe('sampleGrid', () => {
  it('keeps `trials` distinct points of the grid, schema-rejected ones skipped and counted among them', () => {
    expect(gridSize(grid.axes)).toBe(100);
    const s = sampleGrid(grid, 30, 7);
    expect(s.points.length + s.skipped.length).toBe(30);
    expect(s.search).toEqual({ kind: 'random', trials: 30, seed: 7, gridSize: 100 });
    const all = new Set([...grid.points, ...grid.skipped].map((p) => key(p.values)));
    const drawn = [...s.points, ...s.skipped].map((p) => key(p.values));
    expect(new Set(drawn).size).toBe(30);
    expect(drawn.every((k) => all.has(k))).toBe(true);
    expect(s.skipped.every((p) => (p.values['slow'] as number) <= (p.values['fast'] as number))).toBe(true);
    expect(s.axes).toBe(grid.axes);
  });

  it('the same seed draws the same points; the default seed is 1', () => {
    expect(sampleGrid(grid, 12, 5)).toEqual(sampleGrid(grid, 12, 5));
    expect(sampleGrid(grid, 12)).toEqual(sampleGrid(grid, 12, 1));
    expect(sampleGrid(grid, 12, 5).points).not.toEqual(sampleGrid(grid, 12, 6).points);
  });

  it('refuses 0, a fraction and more than the grid, naming its size', () => {
    expect(() => sampleGrid(grid, 0)).toThrow(SweepSearchError);
    expect(() => sampleGrid(grid, 0)).toThrow('--trials 0: expected a whole number from 1 to 100; the grid has 100 point(s) (fast: 10 x slow: 10)');
    expect(() => sampleGrid(grid, 2.5)).toThrow(/^--trials 2.5: expected a whole number from 1 to 100;/);
    expect(() => sampleGrid(grid, -3)).toThrow(/^--trials -3: /);
    expect(() => sampleGrid(grid, 101)).toThrow("--trials 101 is more than the grid's points: the grid has 100 point(s) (fast: 10 x slow: 10); give at most 100, or drop --search random to run them all");
    expect(sampleGrid(grid, 100).points).toEqual(grid.points);
  });

  it('the table says it was a random search, and the JSON holds `search`', () => {
    const search = { kind: 'random' as const, trials: 40, seed: 3, gridSize: 1702 };
    const result: SweepResult = { strategy: 'sma-crossover', symbol: 'BTCUSDT', interval: '1m', rankBy: 'sharpe', axes: grid.axes, entries: [], failed: [], skipped: [], workers: 0, search };
    expect(searchLine({ search })).toBe('random search: 40 of 1702 grid points (seed 3)');
    expect(formatSweepTable(result).split('\n')[1]).toBe('random search: 40 of 1702 grid points (seed 3)');
    expect(sweepToJson(result).search).toEqual(search);
    const { search: _s, ...full } = result;
    expect(sweepToJson(full)).not.toHaveProperty('search');
    expect(formatSweepTable(full)).not.toContain('random search');
  });
});

describe('tpeGrid', () => {
  it('keeps the whole grid (the search proposes from it as it runs), marked with trials and seed', () => {
    const t = tpeGrid(grid, 30, 7);
    expect(t.points).toBe(grid.points);
    expect(t.skipped).toBe(grid.skipped);
    expect(t.search).toEqual({ kind: 'tpe', trials: 30, seed: 7, gridSize: 100 });
    expect(tpeGrid(grid, 30).search).toMatchObject({ seed: 1 });
  });

  it('refuses trials as a random search does, naming --search tpe', () => {
    expect(() => tpeGrid(grid, 0)).toThrow('--trials 0: expected a whole number from 1 to 100; the grid has 100 point(s) (fast: 10 x slow: 10)');
    expect(() => tpeGrid(grid, 101)).toThrow("--trials 101 is more than the grid's points: the grid has 100 point(s) (fast: 10 x slow: 10); give at most 100, or drop --search tpe to run them all");
    expect(() => tpeGrid(grid, 1.5)).toThrow(SweepSearchError);
  });

  it('the search line: before the run, after it, and when the trials are no more than the first round (a single trial)', () => {
    expect(searchLine({ search: { kind: 'tpe', trials: 40, seed: 3, gridSize: 1702 } })).toBe('TPE search: 40 of 1702 grid points (seed 3)');
    expect(searchLine({ search: { kind: 'tpe', trials: 40, seed: 3, gridSize: 1702, startup: 10, batch: 2, rounds: 16 } })).toBe('TPE search: 40 of 1702 grid points (seed 3): 10 at random, then 30 proposed 2 a round from the results so far, 16 rounds');
    expect(searchLine({ search: { kind: 'tpe', trials: 1, seed: 3, gridSize: 1702, startup: 1, batch: 1, rounds: 1 } })).toBe('TPE search: 1 of 1702 grid points (seed 3): all at random, as its first round is (give more --trials than 1 for proposals)');
  });
});
