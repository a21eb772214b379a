/**
 * Time intervals out of stream-health rows and order lifetimes. Stream health is the journal's
 * stream-health-store (issue 20 deliverable 3: CONNECTING, LIVE, STALE, RESYNCING, DOWN, one row
 * per change); a stream is LIVE from a row whose `to` is LIVE until its next row, and not LIVE
 * before its first row (it was still connecting).
 */
import type { StreamHealthChange } from '../journal/runs/stream-health-store.ts';

/** [start, end), ms. */
export interface Interval {
  start: number;
  end: number;
}

export const LIVE = 'LIVE';

/** When every stream of `streams` is LIVE, inside [start, end): sorted, disjoint, not touching. */
export function allLive(rows: readonly Pick<StreamHealthChange, 'time' | 'stream' | 'to'>[], streams: ReadonlySet<string>, start: number, end: number): Interval[] {
  if (streams.size === 0) return [];
  const changes = rows.filter((r) => streams.has(r.stream)).sort((a, b) => a.time - b.time);
  const state = new Map<string, string>();
  const out: Interval[] = [];
  let since: number | undefined;
  const isAllLive = (): boolean => [...streams].every((s) => state.get(s) === LIVE);
  let i = 0;
  while (i < changes.length) {
    const t = changes[i]!.time;
    // Rows of one instant apply together: DOWN then LIVE at the same ms is LIVE at that ms.
    while (i < changes.length && changes[i]!.time === t) {
      state.set(changes[i]!.stream, changes[i]!.to);
      i++;
    }
    const live = isAllLive();
    if (live && since === undefined) since = t;
    else if (!live && since !== undefined) {
      out.push({ start: since, end: t });
      since = undefined;
    }
  }
  if (since !== undefined) out.push({ start: since, end: Math.max(since, end) });
  return clip(out, start, end);
}

/** The parts of [start, end) outside `inside` (sorted, disjoint). */
export function complement(inside: readonly Interval[], start: number, end: number): Interval[] {
  const out: Interval[] = [];
  let at = start;
  for (const iv of inside) {
    if (iv.start > at) out.push({ start: at, end: Math.min(iv.start, end) });
    at = Math.max(at, iv.end);
  }
  if (at < end) out.push({ start: at, end });
  return out.filter((iv) => iv.end > iv.start);
}

/** Sorted, overlapping and touching intervals joined, empty ones dropped. */
export function union(list: readonly Interval[]): Interval[] {
  const sorted = list.filter((iv) => iv.end > iv.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else out.push({ ...iv });
  }
  return out;
}

/** Where the two sorted, disjoint lists overlap. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = Math.max(x.start, y.start);
      const end = Math.min(x.end, y.end);
      if (end > start) out.push({ start, end });
    }
  }
  return union(out);
}

function clip(list: readonly Interval[], start: number, end: number): Interval[] {
  return list.map((iv) => ({ start: Math.max(iv.start, start), end: Math.min(iv.end, end) })).filter((iv) => iv.end > iv.start);
}
