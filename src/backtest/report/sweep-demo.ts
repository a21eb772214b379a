/**
 * Hand-built sweep results for the sweep report's tests (no backtest runs): a grid over the given
 * axes whose rank metric follows `landscape`, ranked as runSweep ranks (stopped runs last), with
 * chosen points skipped or failed. Not part of the public surface.
 */
import type { ParamValue, TypedAxis } from '../sweep/sweep-grid.ts';
import { rankBy } from '../sweep/sweep-rank.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import type { SweepEntry, SweepFailure, SweepResult } from '../sweep/sweep.ts';
import type { SkippedPoint } from '../sweep/sweep-grid.ts';
import type { BacktestMetrics } from '../types.ts';

export function demoMetrics(over: Partial<BacktestMetrics> = {}): BacktestMetrics {
  return { startEquity: 10_000, endEquity: 10_000, netPnl: 0, returnPct: 0, marketReturnPct: 0, cagrPct: 0, maxDrawdownPct: 0, calmar: 0, sharpe: 0, sortino: 0, winRatePct: 0, profitFactor: 0, exposurePct: 0, feesPaid: 0, trades: 0, fills: 0, ...over };
}

export interface DemoSweepOptions {
  axes: TypedAxis[];
  /** The Sharpe at a point (the other metrics follow from it). */
  landscape: (values: Record<string, ParamValue>) => number;
  /** Points rejected by the schema, with the reason. */
  skip?: (values: Record<string, ParamValue>) => string | undefined;
  /** Points whose run failed, with the error. */
  fail?: (values: Record<string, ParamValue>) => string | undefined;
  /** Points whose strategy was stopped by a failure. */
  stop?: (values: Record<string, ParamValue>) => string | undefined;
  rankBy?: RankMetric;
  strategy?: string;
}

export function demoSweep(options: DemoSweepOptions): SweepResult {
  const by = options.rankBy ?? 'sharpe';
  const points: Record<string, ParamValue>[] = [];
  const visit = (i: number, acc: Record<string, ParamValue>): void => {
    if (i === options.axes.length) {
      points.push({ ...acc });
      return;
    }
    for (const v of options.axes[i]!.values) visit(i + 1, { ...acc, [options.axes[i]!.name]: v });
  };
  visit(0, {});
  const skipped: SkippedPoint[] = [];
  const failed: SweepFailure[] = [];
  const ran: Omit<SweepEntry, 'rank'>[] = [];
  for (const values of points) {
    const reason = options.skip?.(values);
    if (reason !== undefined) {
      skipped.push({ values, reason });
      continue;
    }
    const error = options.fail?.(values);
    if (error !== undefined) {
      failed.push({ values, error });
      continue;
    }
    const sharpe = options.landscape(values);
    const trades = Math.max(0, Math.round(10 + sharpe * 3));
    const metrics = demoMetrics({ sharpe, sortino: sharpe * 1.4, returnPct: sharpe * 2, netPnl: sharpe * 200, endEquity: 10_000 + sharpe * 200, maxDrawdownPct: Math.max(0.5, 6 - sharpe), profitFactor: trades ? 1 + sharpe / 4 : 0, winRatePct: trades ? 40 + sharpe * 5 : 0, trades, fills: trades * 2 });
    const stopped = options.stop?.(values);
    ran.push({ values, params: { ...values }, metrics, barCount: 3000, from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 3, 2), denials: 0, strategyFailures: stopped ? 1 : 0, ...(stopped ? { firstFailure: stopped } : {}), logs: 0 });
  }
  const ranked = [...rankBy(ran.filter((e) => e.firstFailure === undefined), by), ...rankBy(ran.filter((e) => e.firstFailure !== undefined), by)];
  return { strategy: options.strategy ?? 'sma-crossover', symbol: 'BTCUSDT', interval: '1m', rankBy: by, axes: options.axes, entries: ranked.map((e, i) => ({ rank: i + 1, ...e })), failed, skipped, workers: 0 };
}

/** The context a report's header shows, for tests. */
export const demoContext = {
  baseParams: { symbol: 'BTCUSDT', interval: '1m', quoteAmount: '1000' },
  fees: { maker: '0.001', taker: '0.001' },
  fillModel: { marketFill: 'next-open', slippageBps: 0, limitFill: 'through', volumeShare: null },
  balances: { USDT: '10000' },
  data: 'data/halyard.db',
};
