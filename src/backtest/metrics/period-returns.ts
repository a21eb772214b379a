/**
 * Returns by calendar month or day (UTC) from a run's equity curve, as Freqtrade's per-period
 * breakdown: a period's return is its last equity point over the previous period's (the start
 * equity for the first), so the periods compound to the run's return. Read from the equity
 * columns when the run has them (no point objects made for a year of bars).
 */
import { INTERVAL_MS, nextOpen, periodOpen } from '../../core/market/intervals.ts';
import { equityCurve } from '../record/equity-columns.ts';
import type { BacktestRun } from '../types.ts';

export interface MonthReturn {
  /** `2024-03`. */
  readonly month: string;
  readonly returnPct: number;
  /** Equity at the month's last point, in the quote asset. */
  readonly endEquity: number;
}

/** The months of a run, oldest first; empty without equity points. */
export function monthlyReturns(run: BacktestRun, startEquity: number): MonthReturn[] {
  return periodReturns(run, startEquity, '1M').map((p) => ({ month: p.period, returnPct: p.returnPct, endEquity: p.endEquity }));
}

export interface PeriodReturn {
  /** `2024-03` for a month, `2024-03-09` for a day, the Monday it starts on for a week (UTC). */
  readonly period: string;
  readonly returnPct: number;
  readonly endEquity: number;
}

/** A calendar period of the breakdowns: a UTC day, a week from Monday, a month. */
export type PeriodUnit = '1d' | '1w' | '1M';

/**
 * The calendar months, weeks or days (UTC) of a run, oldest first, each its last equity over the
 * previous period's (the start equity for the first); a period without a point is not listed.
 */
/** The name of the period of `unit` holding `time`: `2024-03`, `2024-03-09`, a week by its Monday. */
export function periodName(unit: PeriodUnit, time: number): string {
  return new Date(unit === '1w' ? periodOpen(unit, time) : time).toISOString().slice(0, unit === '1M' ? 7 : 10);
}

export function periodReturns(run: BacktestRun, startEquity: number, unit: PeriodUnit): PeriodReturn[] {
  const { length: n, times, values } = equityCurve(run);
  const out: PeriodReturn[] = [];
  let base = startEquity;
  let period = '';
  let last = startEquity;
  const close = () => {
    out.push({ period, returnPct: base > 0 ? (last / base - 1) * 100 : 0, endEquity: last });
    base = last;
  };
  // The period changes when a point reaches the next one's start (a Date only then, not per point).
  let next = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = times[i] as number;
    if (t >= next) {
      if (period !== '') close();
      period = periodName(unit, t);
      next = nextOpen(unit, periodOpen(unit, t));
    }
    last = values[i] as number;
  }
  if (period !== '') close();
  return out;
}

const DAY_MS = 86_400_000;

/**
 * The run's UTC days (periodReturns by '1d'), the summary's and the report's Days; none when its
 * bars are longer than a day (3d, 1w, 1M): a point is then several days' return, and a week
 * would be counted and named as the day it closed on.
 */
export function dayReturns(run: BacktestRun, startEquity: number): PeriodReturn[] {
  const ms = (INTERVAL_MS as Readonly<Record<string, number>>)[run.interval];
  if (run.interval === '1M' || (ms !== undefined && ms > DAY_MS)) return [];
  return periodReturns(run, startEquity, '1d');
}

/** Days won, flat and lost, and the best and worst (Freqtrade's "Best day", "Days win/draw/lose"); undefined without days. */
export function dayStats(days: readonly PeriodReturn[]): { won: number; flat: number; lost: number; best: PeriodReturn; worst: PeriodReturn } | undefined {
  if (days.length === 0) return undefined;
  let won = 0;
  let lost = 0;
  let best = days[0] as PeriodReturn;
  let worst = best;
  for (const d of days) {
    if (d.returnPct > 0) won++;
    else if (d.returnPct < 0) lost++;
    if (d.returnPct > best.returnPct) best = d;
    if (d.returnPct < worst.returnPct) worst = d;
  }
  return { won, flat: days.length - won - lost, lost, best, worst };
}
