/**
 * What `halyard record` still has to ask the exchange for in [from, to): the open times the
 * journal neither holds nor has had answered. A minute without a trade has no kline (the sandbox,
 * a quiet market), so a bar missing from the journal is not always a bar to fetch: the journal
 * keeps the ranges it holds completely (`kline_checked`, journal/klines/kline-checked-store.ts: every
 * bar the exchange has there is stored), and only the missing bars outside them are asked for:
 * once, after which the range they lie in is checked too. That covers the bars before the first
 * stored one and after the last (a range extended either way), and the holes between two stored
 * stretches that no record asked for (two ranges recorded apart, a record interrupted and resumed
 * past a hole, a journal recorded before schema 4, a CSV import with gaps).
 *
 * The stored bars found while looking are themselves complete stretches (`stored`): the caller
 * marks them checked at once, so the next record reads no bar there.
 */
import type { BackfillSpan } from './backfill.ts';
import { periodOpen } from '../core/market/intervals.ts';
import { nextOpenTime, type KlineInterval } from './intervals.ts';

export type TimeRange = readonly [start: number, end: number];

export interface HolesInput {
  from: number;
  to: number;
  interval: KlineInterval;
  /** The series' checked ranges overlapping [from, to), oldest first, disjoint. */
  checked: readonly TimeRange[];
  /** The open time of the series' last stored bar (anywhere), if any: spans ending at or before it hold only closed bars. */
  lastStored: number | undefined;
  /** The series' stored open times in [a, b), oldest first. */
  storedTimes: (a: number, b: number) => Iterable<number>;
}

export interface Holes {
  /** The spans to fetch, oldest first (backfill.ts). */
  spans: BackfillSpan[];
  /** Stretches of consecutive stored bars found, as ranges [first open, last open + 1). */
  stored: TimeRange[];
}

/** [from, to) less the checked ranges. */
export function uncheckedRanges(from: number, to: number, checked: readonly TimeRange[]): TimeRange[] {
  const out: TimeRange[] = [];
  let at = from;
  for (const [s, e] of checked) {
    if (e <= at) continue;
    if (s >= to) break;
    if (s > at) out.push([at, s]);
    at = Math.max(at, e);
  }
  if (at < to) out.push([at, to]);
  return out;
}

export function findHoles(o: HolesInput): Holes {
  const spans: BackfillSpan[] = [];
  const stored: TimeRange[] = [];
  // A span is only made where a bar can open: [last open + 1, next open) holds none.
  const span = (start: number, end: number): void => {
    const slot = periodOpen(o.interval, start);
    if ((slot === start ? start : nextOpenTime(slot, o.interval)) >= end) return;
    spans.push({ start, end, beforeStored: o.lastStored !== undefined && end <= o.lastStored });
  };
  for (const [a, b] of uncheckedRanges(o.from, o.to, o.checked)) {
    let prev: number | undefined;
    let stretch: number | undefined;
    for (const t of o.storedTimes(a, b)) {
      if (prev === undefined) {
        span(a, t);
        stretch = t;
      } else if (nextOpenTime(prev, o.interval) < t) {
        span(prev + 1, t);
        stored.push([stretch!, prev + 1]);
        stretch = t;
      }
      prev = t;
    }
    if (prev === undefined) span(a, b);
    else {
      stored.push([stretch!, prev + 1]);
      span(prev + 1, b);
    }
  }
  return { spans, stored };
}
