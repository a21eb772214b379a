/**
 * Kline intervals (spec 2.1) and their UTC-aligned periods: the one interval arithmetic of the
 * project (endpoint table, CSV import, backfill, market-data store, streams, backtests).
 *
 * Minute, hour and day intervals (3d included) are aligned to the epoch, as the venue's are; a week
 * starts Monday 00:00 UTC; a month is a calendar month. A kline is identified by its open time and
 * closes 1 ms before the next one opens (spec 4.4).
 */

export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday; the first Monday 00:00 UTC is four days later. */
const FIRST_MONDAY = 4 * DAY;

/** Fixed lengths; `1M` varies and is handled with calendar arithmetic. */
const FIXED_MS: Record<Exclude<KlineInterval, '1M'>, number> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': WEEK,
};

/** Length of each fixed interval in ms; `1M` is absent (months vary). */
export const INTERVAL_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = FIXED_MS;

/** The fixed length in ms, or undefined for `1M`. */
export function intervalMs(interval: KlineInterval): number | undefined {
  return interval === '1M' ? undefined : FIXED_MS[interval];
}

/** How many bars open in [from, to), for bars aligned at `from`. */
export function barsBetween(from: number, to: number, interval: KlineInterval): number {
  if (to <= from) return 0;
  const ms = intervalMs(interval);
  if (ms !== undefined) return Math.ceil((to - from) / ms);
  let n = 0;
  for (let t = from; t < to; t = nextOpen(interval, t)) n++;
  return n;
}

export function isKlineInterval(text: string): text is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(text);
}

/** Open time of the period of `interval` that contains `time` (ms, UTC). */
export function periodOpen(interval: KlineInterval, time: number): number {
  if (interval === '1M') {
    const d = new Date(time);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  if (interval === '1w') return Math.floor((time - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;
  const len = FIXED_MS[interval];
  return Math.floor(time / len) * len;
}

/** Open time of the period after the one opening at `open`. */
export function nextOpen(interval: KlineInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return open + FIXED_MS[interval];
}

/** Close time of the period opening at `open`: 1 ms before the next one. */
export function periodClose(interval: KlineInterval, open: number): number {
  return nextOpen(interval, open) - 1;
}

export const MINUTE_MS = MINUTE;
export const DAY_MS = DAY;
