/**
 * Kline interval arithmetic (spec 2.1 interval list). Fixed intervals are a number of ms; `1M` is a
 * calendar month in UTC, so its bars are 28 to 31 days long.
 */
import { KLINE_INTERVALS, type KlineInterval } from '../exchange/endpoints/areas/market.ts';

export { KLINE_INTERVALS, type KlineInterval };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Length of each fixed interval in ms; `1M` is absent (months vary). */
export const INTERVAL_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
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
  '1w': 7 * DAY,
};

export function isKlineInterval(value: string): value is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value);
}

/** The fixed length in ms, or undefined for `1M`. */
export function intervalMs(interval: KlineInterval): number | undefined {
  return interval === '1M' ? undefined : INTERVAL_MS[interval];
}

/** Open time of the bar after the one opening at `openTime`. */
export function nextOpenTime(openTime: number, interval: KlineInterval): number {
  if (interval !== '1M') return openTime + INTERVAL_MS[interval];
  const d = new Date(openTime);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** Close time as the venue reports it: the last millisecond of the bar. */
export function closeTimeOf(openTime: number, interval: KlineInterval): number {
  return nextOpenTime(openTime, interval) - 1;
}

/** How many bars open in [from, to). */
export function barsBetween(from: number, to: number, interval: KlineInterval): number {
  if (to <= from) return 0;
  const ms = intervalMs(interval);
  if (ms !== undefined) return Math.ceil((to - from) / ms);
  let n = 0;
  for (let t = from; t < to; t = nextOpenTime(t, interval)) n++;
  return n;
}

/** The interval whose length is `ms` (28-31 days counts as `1M`), if any. */
export function intervalOfSpacing(ms: number): KlineInterval | undefined {
  for (const [name, len] of Object.entries(INTERVAL_MS)) if (len === ms) return name as KlineInterval;
  if (ms >= 28 * DAY && ms <= 31 * DAY) return '1M';
  return undefined;
}
