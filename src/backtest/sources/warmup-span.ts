/**
 * How much of a backtest's bars a strategy's warm-up takes (define.ts `warmup`), in the run's own
 * interval: where the history loaded before the range must start (`warmupHistoryStart`, the CLI's
 * startup candles before --from), and how many of the run's bars it can take at most
 * (`warmupRunBars`, a walk-forward window's history and shortest length).
 *
 * A numeric warmup counts the run's bars, as it always has. A warmup per interval counts each
 * interval's own bars, and a longer one's (made from the run's: data/resample.ts) take a whole
 * number of its periods of the run's bars: 20 1h bars on a 1m run are 20 hours of 1m bars, begun
 * at an hour's open.
 */
import { intervalMs, periodOpen } from '../../core/market/intervals.ts';
import { canResample } from '../../data/resample.ts';
import type { StrategySetup } from '../../strategy/define.ts';
import type { Interval } from '../../strategy/types.ts';

/** A month's bars are counted as 31 days' worth (the longest; months vary). */
const MONTH_MS = 31 * 86_400_000;

const lengthOf = (i: Interval): number => intervalMs(i) ?? MONTH_MS;

/** The open time `n` periods of `interval` before the period opening at `open` (calendar months for 1M). */
function periodsBefore(interval: Interval, open: number, n: number): number {
  if (interval !== '1M') return open - n * lengthOf(interval);
  const d = new Date(open);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1);
}

/**
 * With a warmup per interval, where history before `from` (a run on `interval` whose first bar
 * opens at or after it) must start so that onBar can run on the first bar: the run's own interval
 * needs its count less one (the first bar is the last of them), every longer one its count of
 * whole periods closed before the period `from` falls in. Undefined with a numeric warmup (it is
 * taken from the run's bars, as before) or when nothing is needed.
 */
export function warmupHistoryStart(setup: StrategySetup, interval: Interval, from: number): number | undefined {
  const by = setup.warmupByInterval;
  if (by === undefined) return undefined;
  let start = from;
  for (const i of setup.intervals) {
    const n = by[i] ?? 0;
    if (n <= 0) continue;
    if (i === interval) start = Math.min(start, from - (n - 1) * lengthOf(interval));
    else if (canResample(interval, i)) start = Math.min(start, periodsBefore(i, periodOpen(i, from), n));
  }
  return start < from ? start : undefined;
}

/**
 * The most of the run's bars the warm-up can take before onBar first runs, counted as a numeric
 * warmup is (onBar on that bar; its history needs one fewer): the warmup itself when a number;
 * with a record, the largest of the run interval's count and, for each longer interval, its count
 * plus one of its periods in the run's bars (a window beginning just after a period's open waits
 * for that period to end before the count's last one closes).
 */
export function warmupRunBars(setup: StrategySetup, interval: Interval): number {
  const by = setup.warmupByInterval;
  if (by === undefined) return setup.warmup;
  let bars = 0;
  for (const i of setup.intervals) {
    const n = by[i] ?? 0;
    if (n <= 0) continue;
    const k = i !== interval && canResample(interval, i) ? Math.ceil(lengthOf(i) / lengthOf(interval)) : 1;
    bars = Math.max(bars, k === 1 ? n : (n + 1) * k);
  }
  return bars;
}
