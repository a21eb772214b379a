/**
 * Freqtrade's `--breakdown day|week|month`: a run cut into calendar periods (UTC; weeks from
 * Monday), each with the return of the equity over it (period-returns.ts), the equity at its end,
 * and the trades that closed in it: how many, won / flat / lost, and their PnL. A period the run
 * has no equity point in is not listed; a trade belongs to the period its exit falls in.
 */
import { alignTable, fmtNum, fmtSigned, fmtSignedPct } from './metrics-format.ts';
import { periodName, periodReturns } from './period-returns.ts';
import type { PeriodUnit } from './period-returns.ts';
import type { BacktestMetrics, BacktestRun } from '../types.ts';

export const BREAKDOWNS = { day: '1d', week: '1w', month: '1M' } as const satisfies Record<string, PeriodUnit>;
export type Breakdown = keyof typeof BREAKDOWNS;

export interface BreakdownRow {
  readonly period: string;
  readonly returnPct: number;
  readonly endEquity: number;
  readonly trades: number;
  readonly won: number;
  readonly flat: number;
  readonly lost: number;
  readonly pnl: number;
}

/** The run's periods of `unit`, oldest first. */
export function breakdownRows(run: BacktestRun, metrics: Pick<BacktestMetrics, 'startEquity'>, unit: PeriodUnit): BreakdownRow[] {
  const periods = periodReturns(run, metrics.startEquity, unit);
  const none = () => ({ trades: 0, won: 0, flat: 0, lost: 0, pnl: 0 });
  const byPeriod = new Map<string, ReturnType<typeof none>>();
  for (const t of run.trades) {
    // The exit's period, named as periodReturns names it.
    const key = periodName(unit, t.exitTime);
    const row = byPeriod.get(key) ?? none();
    const pnl = Number(t.pnl);
    row.trades++;
    if (pnl > 0) row.won++;
    else if (pnl < 0) row.lost++;
    else row.flat++;
    row.pnl += pnl;
    byPeriod.set(key, row);
  }
  return periods.map((p) => ({ period: p.period, returnPct: p.returnPct, endEquity: p.endEquity, ...(byPeriod.get(p.period) ?? none()) }));
}

/** The breakdown as the summary prints it: a heading and an aligned table. */
export function formatBreakdown(run: BacktestRun, metrics: Pick<BacktestMetrics, 'startEquity'>, by: Breakdown): string[] {
  const rows = breakdownRows(run, metrics, BREAKDOWNS[by]);
  if (rows.length === 0) return [`By ${by}    no equity points`];
  const q = run.quoteAsset;
  const table = alignTable(
    [
      [by, 'return', `end equity (${q})`, 'trades', 'won/flat/lost', `PnL (${q})`],
      ...rows.map((r) => [r.period, fmtSignedPct(r.returnPct), fmtNum(r.endEquity), String(r.trades), `${r.won}/${r.flat}/${r.lost}`, r.trades === 0 ? '' : fmtSigned(r.pnl)]),
    ],
    (c) => c > 0,
  );
  return [`By ${by}`, ...table.map((l) => `  ${l}`)];
}
