import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thinIndices, thinnedCurve, thinnedEquity, MIN_THIN_POINTS } from './equity-thin.ts';
import { startEquityOf } from '../metrics/metrics.ts';
import { maxDrawdownPct } from '../metrics/metrics-returns.ts';
import { demoBars, demoRun } from '../report/demo-run.ts';

describe('thinIndices', () => {
  it('keeps every point when there are no more than `max`', () => {
    expect(thinIndices([1, 2, 3], 1, 10)).toEqual([0, 1, 2]);
    expect(thinIndices([], 1, 10)).toEqual([]);
  });

  it('keeps at most `max` points: the first, the last, the lowest, the highest, and the drawdown exactly', () => {
    const curve = fc.array(fc.double({ min: 1, max: 1_000, noNaN: true }), { minLength: 1, maxLength: 400 });
    fc.assert(
      fc.property(curve, fc.integer({ min: MIN_THIN_POINTS, max: 60 }), fc.double({ min: 1, max: 1_000, noNaN: true }), (values, max, start) => {
        const kept = thinIndices(values, start, max);
        expect(kept.length).toBeLessThanOrEqual(max);
        expect(kept).toEqual([...new Set(kept)].sort((a, b) => a - b));
        expect(kept[0]).toBe(0);
        expect(kept[kept.length - 1]).toBe(values.length - 1);
        const thin = kept.map((i) => values[i]!);
        expect(Math.min(...thin)).toBe(Math.min(...values));
        expect(Math.max(...thin)).toBe(Math.max(...values));
        expect(maxDrawdownPct(start, thin)).toBe(maxDrawdownPct(start, values));
      }),
    );
  });
});

describe('thinnedEquity', () => {
  it('a run\'s curve from its start equity at its start, at most `max` points, ending at its end equity', () => {
    const bars = demoBars(12_000, 3);
    const run = demoRun({ barsData: bars, fast: 20, slow: 60 });
    const curve = thinnedEquity(run, 2_000);
    expect(curve.length).toBeLessThanOrEqual(2_000);
    expect(curve.length).toBeGreaterThan(1_000);
    expect(curve[0]).toEqual([run.from, startEquityOf(run)]);
    const last = run.equity[run.equity.length - 1]!;
    expect(curve[curve.length - 1]).toEqual([last.time, last.equity]);
    const values = run.equity.map((p) => p.equity);
    expect(maxDrawdownPct(curve[0]![1], curve.map((p) => p[1]))).toBe(maxDrawdownPct(startEquityOf(run), values));
    // Time order kept.
    expect(curve.every((p, i) => i === 0 || p[0] > curve[i - 1]![0])).toBe(true);
  });
});

describe('thinnedCurve', () => {
  it('equity and drawdown at the same kept points: the start at the run\'s start, the end, and the deepest drawdown exactly', () => {
    const bars = demoBars(12_000, 5);
    const run = demoRun({ barsData: bars, fast: 20, slow: 60 });
    const curve = thinnedCurve(run, 2_000);
    expect(curve.sourcePoints).toBe(12_000);
    expect(curve.time.length).toBeLessThanOrEqual(2_000);
    expect(curve.equity.length).toBe(curve.time.length);
    expect(curve.drawdownPct.length).toBe(curve.time.length);
    expect([curve.time[0], curve.equity[0], curve.drawdownPct[0]]).toEqual([run.from, startEquityOf(run), 0]);
    const last = run.equity[run.equity.length - 1]!;
    expect([curve.time.at(-1), curve.equity.at(-1)]).toEqual([last.time, last.equity]);
    // The same points as thinnedEquity's, and the drawdown below the whole curve's running peak.
    expect(curve.time.map((t, i) => [t, curve.equity[i]])).toEqual(thinnedEquity(run, 2_000));
    const values = run.equity.map((p) => p.equity);
    expect(Math.max(...curve.drawdownPct)).toBeCloseTo(maxDrawdownPct(startEquityOf(run), values), 10);
    expect(curve.drawdownPct.every((d) => d >= 0)).toBe(true);
  });

  it('keeps every point of a short run', () => {
    const run = demoRun({ barsData: demoBars(50, 2) });
    const curve = thinnedCurve(run, 2_000);
    expect(curve.time).toHaveLength(51);
    expect(curve.sourcePoints).toBe(50);
  });
});
