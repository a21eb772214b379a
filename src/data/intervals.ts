/**
 * Interval helpers for the data-in path, in the argument order its callers use; the arithmetic
 * itself is src/core/market/intervals.ts.
 */
import { barsBetween, intervalMs, INTERVAL_MS, isKlineInterval, KLINE_INTERVALS, nextOpen, periodClose, type KlineInterval } from '../core/market/intervals.ts';

export { barsBetween, intervalMs, INTERVAL_MS, isKlineInterval, KLINE_INTERVALS, type KlineInterval };

/** Open time of the bar after the one opening at `openTime`. */
export function nextOpenTime(openTime: number, interval: KlineInterval): number {
  return nextOpen(interval, openTime);
}

/** Close time as the venue reports it: the last millisecond of the bar. */
export function closeTimeOf(openTime: number, interval: KlineInterval): number {
  return periodClose(interval, openTime);
}

const DAY_MS = 86_400_000;

/** The interval whose length is `ms` (28-31 days counts as `1M`), if any. */
export function intervalOfSpacing(ms: number): KlineInterval | undefined {
  for (const [name, len] of Object.entries(INTERVAL_MS)) if (len === ms) return name as KlineInterval;
  if (ms >= 28 * DAY_MS && ms <= 31 * DAY_MS) return '1M';
  return undefined;
}
