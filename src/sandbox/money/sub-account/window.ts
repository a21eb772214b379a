/**
 * Time windows and pages of the sub-account histories (spec 4.9 rules 2-4, 8.9-8.10).
 *
 * The span rule itself (both times sent: end - start under N days) runs in the parameter check
 * before the handler (the endpoint table's `maxSpan` rule, -1025). Here the defaults:
 * no times -> the last N days up to now (inclusive); only startTime -> N days from it; only
 * endTime -> N days before it. startTime is inclusive, endTime exclusive (spec 4.9).
 */
export const DAY_MS = 86_400_000;

export interface Window {
  start: number;
  /** Exclusive. */
  end: number;
}

export function resolveWindow(startTime: number | undefined, endTime: number | undefined, now: number, days: number): Window {
  const span = days * DAY_MS;
  if (startTime !== undefined && endTime !== undefined) return { start: startTime, end: endTime };
  if (startTime !== undefined) return { start: startTime, end: startTime + span };
  if (endTime !== undefined) return { start: endTime - span, end: endTime };
  return { start: now - span, end: now + 1 };
}

export const inWindow = (w: Window, time: number): boolean => time >= w.start && time < w.end;

/** 1-based page of `limit` items. */
export function pageOf<T>(items: readonly T[], page: number, limit: number): T[] {
  const from = (page - 1) * limit;
  return items.slice(from, from + limit);
}
