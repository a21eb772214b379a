import { describe, expect, it } from 'vitest';
import { breakdownRows, formatBreakdown } from './breakdown.ts';
import { computeMetrics } from './metrics.ts';
import { demoBars, demoRun } from '../report/demo-run.ts';

describe('breakdown by calendar period', () => {
  // Ten days of 15-minute bars from Monday 2024-01-01.
  const bars = demoBars(960, 4, 15 * 60_000);
  const run = demoRun({ barsData: bars, interval: '15m', fast: 6, slow: 20 });
  const metrics = computeMetrics(run);

  it('cuts the run into UTC days, Monday weeks and months; each trade counts in the period of its exit', () => {
    const days = breakdownRows(run, metrics, '1d');
    expect(days.map((d) => d.period)).toEqual(Array.from({ length: 10 }, (_, i) => `2024-01-${String(i + 1).padStart(2, '0')}`));
    const weeks = breakdownRows(run, metrics, '1w');
    expect(weeks.map((w) => w.period)).toEqual(['2024-01-01', '2024-01-08']);
    expect(breakdownRows(run, metrics, '1M').map((m) => m.period)).toEqual(['2024-01']);
    for (const rows of [days, weeks]) {
      expect(rows.reduce((n, r) => n + r.trades, 0)).toBe(run.trades.length);
      expect(rows.reduce((n, r) => n + r.pnl, 0)).toBeCloseTo(run.trades.reduce((n, t) => n + Number(t.pnl), 0), 6);
      expect(rows.at(-1)!.endEquity).toBe(metrics.endEquity);
      for (const r of rows) expect(r.won + r.flat + r.lost).toBe(r.trades);
    }
    const second = weeks[1]!;
    const inSecond = run.trades.filter((t) => t.exitTime >= Date.UTC(2024, 0, 8));
    expect(second.trades).toBe(inSecond.length);
    // The returns chain: each period's end equity over the one before.
    expect(weeks[1]!.returnPct).toBeCloseTo((weeks[1]!.endEquity / weeks[0]!.endEquity - 1) * 100, 9);
  });

  it('prints a heading and an aligned table, PnL left empty where no trade closed', () => {
    const lines = formatBreakdown(run, metrics, 'week');
    expect(lines[0]).toBe('By week');
    expect(lines[1]).toMatch(/^ {2}week +return +end equity \(USDT\) +trades +won\/flat\/lost +PnL \(USDT\)$/);
    expect(lines[2]).toMatch(/^ {2}2024-01-01 +[-+][\d.]+% +[\d,.]+ +\d+ +\d+\/\d+\/\d+ +([-+][\d,.]+)?$/);
    expect(new Set(lines.slice(1).map((l) => l.length)).size).toBeLessThanOrEqual(2);
    expect(formatBreakdown({ ...run, trades: [] }, metrics, 'month')[2]).toMatch(/ 0 +0\/0\/0$/);
  });
});
