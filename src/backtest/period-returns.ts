/**
 * Returns by calendar month (UTC) from a run's equity curve, as Freqtrade's per-period
 * breakdown: a month's return is its last equity point over the previous month's (the start
 * equity for the first), so the months compound to the run's return. Read from the equity
 * columns when the run has them (no point objects made for a year of bars).
 */
import { nextOpen } from '../core/market/intervals.ts';
import { equityCurve } from './equity-columns.ts';
import type { BacktestRun } from './types.ts';

export interface MonthReturn {
  /** `2024-03`. */
  readonly month: string;
  readonly returnPct: number;
  /** Equity at the month's last point, in the quote asset. */
  readonly endEquity: number;
}

/** The months of a run, oldest first; empty without equity points. */
export function monthlyReturns(run: BacktestRun, startEquity: number): MonthReturn[] {
  const { length: n, times, values } = equityCurve(run);
  const out: MonthReturn[] = [];
  let base = startEquity;
  let month = '';
  let last = startEquity;
  const close = () => {
    out.push({ month, returnPct: base > 0 ? (last / base - 1) * 100 : 0, endEquity: last });
    base = last;
  };
  // The month changes when a point reaches the next month's start (a Date only then, not per point).
  let next = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = times[i] as number;
    if (t >= next) {
      if (month !== '') close();
      month = new Date(t).toISOString().slice(0, 7);
      next = nextOpen('1M', t);
    }
    last = values[i] as number;
  }
  if (month !== '') close();
  return out;
}
