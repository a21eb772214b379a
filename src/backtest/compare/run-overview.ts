/**
 * What a comparison of several strategies (`halyard backtest --strategy a,b`) shows of each run
 * beside its metrics: its setup (params as run, market, fees, fill model, balances) and its equity
 * curve and drawdown, thinned (equity-thin.ts thinnedCurve). A single run hands it back with its
 * files, so the comparison's report and JSON are made from these small objects, not from the runs
 * (a year of 1-minute bars each) nor from their JSON files read back.
 */
import { thinnedCurve } from '../output/equity-thin.ts';
import { fmtTime } from '../metrics/metrics-format.ts';
import type { ThinnedCurve } from '../output/equity-thin.ts';
import type { BacktestRun } from '../types.ts';

/**
 * Points kept of each run's curve: the comparison draws several on one chart some 1,000 pixels
 * wide, where more only weighs the page (as the walk-forward report's chart, DRAW_POINTS).
 */
export const OVERVIEW_POINTS = 2_000;

export interface RunOverview {
  readonly strategy: string;
  /** The parameters as the run read them (defaults filled in). */
  readonly params: Record<string, unknown>;
  /** The symbols traded, in the run's order (one for a run of one symbol). */
  readonly symbols: string[];
  readonly interval: string;
  readonly quoteAsset: string;
  readonly from: number;
  readonly to: number;
  readonly barCount: number;
  readonly fees: { maker: string; taker: string };
  readonly fillModel: Record<string, unknown>;
  readonly startBalances: Record<string, string>;
  readonly endBalances: Record<string, string>;
  readonly curve: ThinnedCurve;
  /**
   * The failure that stopped the strategy, as the sweep says it (`onBar at <time>: <message>`):
   * its figures are of a stopped run (often an idle one), so a comparison ranks it last.
   */
  readonly firstFailure?: string;
  /** The run's warnings (run-notices.ts: a warmup it never got past...): a comparison repeats them under its table. */
  readonly notices: readonly string[];
}

export function runOverview(run: BacktestRun, maxPoints = OVERVIEW_POINTS): RunOverview {
  return {
    strategy: run.strategy,
    params: run.params,
    symbols: run.symbols === undefined ? [run.symbol] : run.symbols.map((s) => s.symbol),
    interval: run.interval,
    quoteAsset: run.quoteAsset,
    from: run.from,
    to: run.to,
    barCount: run.barCount,
    fees: run.fees,
    fillModel: run.fillModel,
    startBalances: run.startBalances,
    endBalances: run.endBalances,
    curve: thinnedCurve(run, maxPoints),
    ...(run.strategyFailures[0] === undefined ? {} : { firstFailure: `${run.strategyFailures[0].handler} at ${fmtTime(run.strategyFailures[0].time)}: ${run.strategyFailures[0].message}` }),
    notices: run.notices ?? [],
  };
}
