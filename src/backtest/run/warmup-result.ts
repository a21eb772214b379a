/**
 * The warm-up as a finished run reports it (types.ts BacktestRun `warmup`, or `warmupByInterval`
 * and `warmupIdleBars`), the same for one symbol (run-backtest.ts) and several (run-several.ts):
 * a numeric warmup reads as it always has, one per interval says each count and how many of the
 * run's bars it held onBar back on; and what its notices say of it (run-notices.ts).
 */
import type { StrategySetup } from '../../strategy/define.ts';
import type { Interval } from '../../strategy/types.ts';
import { intervalWarmupNotices, runNotices } from './run-notices.ts';
import type { WarmupShortfall } from './run-notices.ts';

/**
 * The run's bars delivered before `at` (a bar is delivered at its close time + 1): those a warmup
 * per interval held onBar back on. All of them when it never let onBar through (`at` undefined).
 */
export function barsBefore(closeTimes: Float64Array, at: number | undefined): number {
  if (at === undefined) return closeTimes.length;
  let lo = 0;
  let hi = closeTimes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((closeTimes[mid] as number) + 1 < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The run's bars (closing at `closeTimes`, the equity's time column) before a warmup per interval
 * let onBar through at `warmedAt` (StrategyRunner.warmedAt; of several symbols the latest, undefined
 * while one never was). 0 with a numeric warmup, or one asking for nothing (never held back).
 */
export function warmupIdleBars(setup: StrategySetup, closeTimes: Float64Array, warmedAt: number | undefined): number {
  return setup.warmupByInterval === undefined || setup.warmup === 0 ? 0 : barsBefore(closeTimes, warmedAt);
}

/** The run's warmup fields, in the JSON's order: `warmup` for a number, `warmupByInterval` and `warmupIdleBars` per interval. */
export function warmupFields(setup: StrategySetup, idleBars: number): { warmup: number } | { warmupByInterval: Record<string, number>; warmupIdleBars: number } {
  const by = setup.warmupByInterval;
  return by === undefined ? { warmup: setup.warmup } : { warmupByInterval: { ...by } as Record<string, number>, warmupIdleBars: idleBars };
}

/** What one symbol's run knows of its warm-up, for its notices. */
export interface SymbolWarmup {
  readonly barCount: number;
  /** Its bars before onBar was let through (warmupIdleBars; only read per interval). */
  readonly idleBars: number;
  readonly startupBars: number;
  readonly historyGiven: boolean;
  /** The series short of their count once the history was in (StrategyRunner.warmupShort; undefined without history). */
  readonly shortAtStart: readonly WarmupShortfall[] | undefined;
  /** The series still short after the last bar. */
  readonly shortAtEnd: readonly WarmupShortfall[];
}

/** The notices of a symbol's warm-up (run-notices.ts), in the form the strategy gave it. */
export function warmupNotices(setup: StrategySetup, interval: Interval, w: SymbolWarmup): string[] {
  const byInterval = setup.warmupByInterval;
  if (byInterval === undefined) return runNotices({ warmup: setup.warmup, barCount: w.barCount, startupBars: w.startupBars });
  return intervalWarmupNotices({ byInterval, interval, barCount: w.barCount, idleBars: w.idleBars, startupBars: w.startupBars, historyGiven: w.historyGiven, shortAtStart: w.shortAtStart ?? [], shortAtEnd: w.shortAtEnd });
}
