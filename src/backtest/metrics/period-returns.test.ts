import { describe, expect, it } from 'vitest';
import { dayStats, monthlyReturns, periodReturns } from './period-returns.ts';
import type { BacktestRun } from '../types.ts';

const run = (points: [string, number][]): BacktestRun => ({ equity: points.map(([d, equity]) => ({ time: Date.parse(d), equity, position: 0 })) }) as unknown as BacktestRun;

describe('monthlyReturns', () => {
  it('gives each month its last equity over the previous month-end (the start for the first), compounding to the run', () => {
    const r = monthlyReturns(run([['2024-01-01T00:00Z', 100], ['2024-01-31T23:59Z', 110], ['2024-02-01T00:00Z', 120], ['2024-02-29T23:59Z', 99], ['2024-04-02T00:00Z', 121]]), 100);
    expect(r.map((m) => m.month)).toEqual(['2024-01', '2024-02', '2024-04']);
    expect(r.map((m) => Number(m.returnPct.toFixed(6)))).toEqual([10, -10, Number(((121 / 99 - 1) * 100).toFixed(6))]);
    expect(r.map((m) => m.endEquity)).toEqual([110, 99, 121]);
    const compounded = r.reduce((acc, m) => acc * (1 + m.returnPct / 100), 1);
    expect(compounded).toBeCloseTo(1.21, 12);
  });

  it('is empty without points', () => {
    expect(monthlyReturns(run([]), 100)).toEqual([]);
  });
});

describe('the report\'s returns by month', () => {
  it('is a table of the months when the run spans more than one, else nothing', async () => {
    const { monthsHtml } = await import('../report/html-parts.ts');
    const metrics = { startEquity: 100 } as Parameters<typeof monthsHtml>[1];
    const two = { ...run([['2024-01-15T00:00Z', 105], ['2024-02-10T00:00Z', 94.5]]), quoteAsset: 'PHP' } as BacktestRun;
    const html = monthsHtml(two, metrics);
    expect(html).toContain('<section id="months"><h2>Returns by month</h2>');
    expect(html).toContain('<tr class="win"><td>2024-01</td><td>+5.00%</td><td>105.00</td></tr>');
    expect(html).toContain('<tr class="loss"><td>2024-02</td><td>-10.00%</td><td>94.50</td></tr>');
    expect(monthsHtml({ ...run([['2024-01-15T00:00Z', 105]]), quoteAsset: 'PHP' } as BacktestRun, metrics)).toBe('');
  });
});

describe('periodReturns by day and dayStats', () => {
  it('gives each UTC day its last equity over the previous day\'s, and counts days won, flat and lost', () => {
    const days = periodReturns(run([['2024-01-01T10:00Z', 101], ['2024-01-01T23:59Z', 102], ['2024-01-02T05:00Z', 102], ['2024-01-03T12:00Z', 96.9], ['2024-01-05T00:00Z', 99.807]]), 100, '1d');
    expect(days.map((d) => d.period)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-05']);
    expect(days.map((d) => Number(d.returnPct.toFixed(6)))).toEqual([2, 0, -5, 3]);
    const s = dayStats(days);
    expect(s).toMatchObject({ won: 2, flat: 1, lost: 1, best: { period: '2024-01-05' }, worst: { period: '2024-01-03' } });
    expect(dayStats([])).toBeUndefined();
  });

  it('by month is monthlyReturns', () => {
    const r = run([['2024-01-01T00:00Z', 100], ['2024-02-03T00:00Z', 90]]);
    expect(periodReturns(r, 100, '1M').map((p) => [p.period, p.returnPct])).toEqual(monthlyReturns(r, 100).map((m) => [m.month, m.returnPct]));
  });
});
