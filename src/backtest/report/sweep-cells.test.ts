import { describe, expect, it } from 'vitest';
import { cellColour, gridIndex, heatmap, lineCells, median, neighbours, pairHeatmaps, robustness, varyingAxes } from './sweep-cells.ts';
import { demoSweep } from './sweep-demo.ts';

const fast = { name: 'fast', values: [5, 10, 15, 20] };
const slow = { name: 'slow', values: [20, 30, 40] };

/** A smooth hill at fast=10 slow=30. */
const hill = (v: Record<string, unknown>): number => 3 - Math.abs((v['fast'] as number) - 10) / 10 - Math.abs((v['slow'] as number) - 30) / 20;

describe('grid -> cells', () => {
  it('places every point of a 2-axis grid: ran, skipped, failed; rows on the first axis', () => {
    const result = demoSweep({ axes: [fast, slow], landscape: hill, skip: (v) => ((v['slow'] as number) <= (v['fast'] as number) ? 'slow must be greater than fast' : undefined), fail: (v) => (v['fast'] === 15 && v['slow'] === 40 ? 'boom' : undefined) });
    const [map] = pairHeatmaps(result);
    expect(map!.rowAxis.name).toBe('fast');
    expect(map!.colAxis.name).toBe('slow');
    expect(map!.fixed).toEqual({});
    const kinds = map!.cells.map((row) => row.map((c) => c.kind[0]).join(''));
    // rows fast 5..20, columns slow 20, 30, 40
    expect(kinds).toEqual(['rrr', 'rrr', 'rrf', 'srr']);
    const c = map!.cells[1]![1]!;
    expect(c.kind === 'ran' && c.entry.rank).toBe(1);
    expect(map!.cells[3]![0]).toEqual({ kind: 'skipped', reason: 'slow must be greater than fast' });
  });

  it('holds the other axes at the best combination\'s values for 3+ axes; a single-valued axis does not vary', () => {
    const mode = { name: 'mode', values: ['a', 'b'] };
    const one = { name: 'qty', values: ['0.01'] };
    const result = demoSweep({ axes: [fast, slow, mode, one], landscape: (v) => hill(v) + (v['mode'] === 'b' ? 1 : 0) });
    expect(varyingAxes(result).map((a) => a.name)).toEqual(['fast', 'slow', 'mode']);
    const maps = pairHeatmaps(result);
    expect(maps.map((m) => [m.rowAxis.name, m.colAxis.name, m.fixed])).toEqual([
      ['fast', 'slow', { mode: 'b', qty: '0.01' }],
      ['fast', 'mode', { slow: 30, qty: '0.01' }],
      ['slow', 'mode', { fast: 10, qty: '0.01' }],
    ]);
    expect(maps.every((m) => m.cells.flat().every((c) => c.kind === 'ran'))).toBe(true);
    const index = gridIndex(result);
    expect(heatmap(result, index, fast, slow, { mode: 'a', qty: '0.01' }).cells[1]![1]!.kind).toBe('ran');
    expect(heatmap(result, index, fast, slow, { mode: 'zz', qty: '0.01' }).cells[0]![0]).toEqual({ kind: 'absent' });
    expect(lineCells(result, index, fast).map((c) => c.value)).toEqual([5, 10, 15, 20]);
  });
});

describe('neighbours and the median', () => {
  it('finds the points one step away along any axes (8 inside a 2-axis grid, 3 in a corner)', () => {
    const result = demoSweep({ axes: [fast, slow], landscape: hill });
    const index = gridIndex(result);
    expect(neighbours(result, index, { fast: 10, slow: 30 })).toHaveLength(8);
    expect(neighbours(result, index, { fast: 5, slow: 20 })).toHaveLength(3);
    expect(neighbours(result, index, { fast: 7, slow: 20 })).toEqual([]);
    // Past MAX_DIAGONAL_AXES varying axes, only the steps along one axis: 2 per axis inside the grid.
    const axes = Array.from({ length: 10 }, (_, i) => ({ name: `p${i}`, values: [1, 2, 3] }));
    const wide = demoSweep({ axes, landscape: () => 1, skip: (v) => (Object.values(v).some((x) => x === 3) ? 'no' : undefined) });
    const middle = Object.fromEntries(axes.map((a) => [a.name, 2]));
    expect(neighbours(wide, gridIndex(wide), middle)).toHaveLength(20);
  });

  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

/** 10 x 10 values, a broad hill at fast=25 slow=60 over a floor of 0. */
const wideFast = { name: 'fast', values: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50] };
const wideSlow = { name: 'slow', values: [20, 30, 40, 50, 60, 70, 80, 90, 100, 110] };
const broad = (v: Record<string, unknown>): number => 2 * Math.exp(-(((v['fast'] as number) - 25) ** 2) / 200 - (((v['slow'] as number) - 60) ** 2) / 800);

describe('robustness', () => {
  it('calls a broad hill a plateau', () => {
    const r = robustness(demoSweep({ axes: [wideFast, wideSlow], landscape: broad }))!;
    expect(r.verdict).toBe('plateau');
    expect(r.best).toBe(2);
    expect(r.neighbours).toBe(8);
    // The 8 around (25, 60): exp(-1/8) and exp(-1/8 - 1/8) at slow 50/70, exp(-1/8) at fast 20/30 ... median of them.
    const around = [broad({ fast: 20, slow: 60 }), broad({ fast: 30, slow: 60 }), broad({ fast: 25, slow: 50 }), broad({ fast: 25, slow: 70 }), ...[20, 30].flatMap((f) => [50, 70].map((s) => broad({ fast: f, slow: s })))];
    expect(r.neighbourMedian).toBeCloseTo(median(around), 10);
    expect(r.kept).toBeGreaterThan(0.5);
    expect(r.rest).toBe(91);
    expect(r.text).toMatch(/^Sharpe 2\.00 at the best vs a median of [\d.]+ over its 8 grid neighbour\(s\) and [\d.]+ over the other 91 combination\(s\)\. Its neighbours keep \d+% of its lead over the rest: a plateau\./);
  });

  it('calls a lonely peak a spike, and counts neighbours that did not run apart', () => {
    const spike = (v: Record<string, unknown>): number => (v['fast'] === 25 && v['slow'] === 60 ? 3 : 0.1 * ((v['fast'] as number) % 7));
    const r = robustness(demoSweep({ axes: [wideFast, wideSlow], landscape: spike, fail: (v) => (v['fast'] === 20 && v['slow'] === 50 ? 'boom' : undefined) }))!;
    expect(r.verdict).toBe('spike');
    expect(r.neighbours).toBe(7);
    expect(r.uncounted).toBe(1);
    expect(r.text).toMatch(/\(1 more skipped, failed or stopped, not counted\)/);
    expect(r.text).toMatch(/a spike\. Nearby parameters do no better than the rest of the grid/);
  });

  it('works lower-is-better for drawdown, says when it cannot tell, and has nothing for a stopped best', () => {
    const dd = robustness(demoSweep({ axes: [wideFast, wideSlow], landscape: (v) => 2 + broad(v), rankBy: 'maxDrawdownPct' }))!;
    expect(dd.metric).toBe('maxDrawdownPct');
    expect(dd.best).toBeLessThanOrEqual(dd.neighbourMedian);
    expect(dd.verdict).toBe('plateau');
    const lonely = robustness(demoSweep({ axes: [fast, slow], landscape: hill, skip: (v) => (v['fast'] === 10 && v['slow'] === 30 ? undefined : 'no') }))!;
    expect(lonely.verdict).toBe('unknown');
    expect(lonely.text).toMatch(/no grid neighbour that ran to the end \(8 skipped, failed or stopped\)/);
    const small = robustness(demoSweep({ axes: [{ name: 'fast', values: [5, 10, 15] }], landscape: (v) => hill({ ...v, slow: 30 }) }))!;
    expect(small.verdict).toBe('unknown');
    expect(small.text).toMatch(/every other combination is one of them/);
    const flat = robustness(demoSweep({ axes: [fast], landscape: () => 1 }))!;
    expect(flat.verdict).toBe('flat');
    expect(robustness(demoSweep({ axes: [fast], landscape: hill, stop: () => 'stopped' }))).toBeUndefined();
  });
});

describe('robustness: a cone', () => {
  it('is a plateau while the neighbours keep half the lead, a peak below', () => {
    // 1 axis, Sharpe 3 at fast=10 falling 0.5 a step: neighbours 2.5 and 2.5, the rest (fast=20) 2.
    const r = robustness(demoSweep({ axes: [fast], landscape: (v) => hill({ ...v, slow: 30 }) }))!;
    expect([r.neighbourMedian, r.restMedian, r.kept]).toEqual([2.5, 2, 0.5]);
    expect(r.verdict).toBe('plateau');
    const steep = robustness(demoSweep({ axes: [wideFast], landscape: (v) => 10 - Math.abs((v['fast'] as number) - 25) ** 0.5 }))!;
    expect(steep.verdict).toBe('peak');
    expect(steep.text).toMatch(/a peak\. Nearby parameters still beat the rest but fall off clearly/);
  });
});

describe('cellColour', () => {
  it('runs red to green in the rank direction, blue for trades, grey for n/a', () => {
    const range = { min: 0, max: 2 };
    expect(cellColour('sharpe', 2, range)).toMatch(/^hsl\(120,/);
    expect(cellColour('sharpe', 0, range)).toMatch(/^hsl\(0,/);
    expect(cellColour('maxDrawdownPct', 0, range)).toMatch(/^hsl\(120,/);
    expect(cellColour('profitFactor', Infinity, range)).toMatch(/^hsl\(120,/);
    expect(cellColour('trades', 1, range)).toMatch(/^hsl\(214,/);
    expect(cellColour('winRatePct', NaN, range)).toBe('#e5e7eb');
  });
});
