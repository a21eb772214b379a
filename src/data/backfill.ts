/**
 * Kline backfill (spec 4.4 klines: limit max 1000, a kline is identified by its open time): pages
 * forward through [from, to) by the last open time received, saving each page as it arrives, so an
 * interruption loses at most the page in flight and a second run resumes after the last stored bar.
 *
 * Only closed bars are saved: a bar whose close time is not yet past `now()` is still forming, and
 * storing it would leave a wrong final candle behind (the defect of the BTCUSDT sample file).
 * Pacing is the fetch function's business (the exchange client's weight budget).
 *
 * What to fetch is a list of spans of open times: by default the bars before the first stored one
 * (a range extended backwards) and after the last; `record` gives its own (kline-holes.ts: every
 * stretch of the range the journal neither holds nor has had answered). A span before a stored bar
 * has only closed bars, so the exchange's silence there is final (a minute without a trade has no
 * kline): consecutive such spans are asked for together while they fit in one page, and each range
 * the exchange has answered for is reported (`checked`) so that it is not asked for again.
 */
import { barsBetween, nextOpenTime, type KlineInterval } from './intervals.ts';
import type { KlineBar } from './kline-files/kline-csv.ts';

export interface KlinePageRequest {
  symbol: string;
  interval: KlineInterval;
  startTime: number;
  endTime: number;
  limit: number;
}

export type FetchKlinePage = (request: KlinePageRequest) => Promise<readonly KlineBar[]>;

/** Open times [start, end) to fetch. */
export interface BackfillSpan {
  start: number;
  end: number;
  /**
   * A stored bar opens at or after `end`: every bar of the span has closed, so one the exchange
   * does not return does not exist, and the span is checked once answered. False for the span
   * after the last stored bar, where bars may yet come.
   */
  beforeStored: boolean;
}

export interface BackfillProgress {
  pages: number;
  /** Bars saved by this run. */
  saved: number;
  /** Next open time wanted. */
  cursor: number;
  /** Open time of the last bar saved by this run. */
  last: number | undefined;
  /** Bar slots of [from, to) behind the cursor, and in all: for a progress bar. */
  done: number;
  total: number;
}

export interface BackfillOptions {
  symbol: string;
  interval: KlineInterval;
  /** Open times in [from, to), epoch ms. */
  from: number;
  to: number;
  fetch: FetchKlinePage;
  /** The last open time already stored in [from, to), if any: the run resumes after it. */
  lastStored: () => number | undefined;
  /**
   * The first open time already stored in [from, to), if any: when it is after `from` (a range
   * extended backwards), the bars before it are fetched first. Without it, only after the last.
   */
  firstStored?: () => number | undefined;
  /**
   * The spans to fetch, in order, disjoint, inside [from, to) (kline-holes.ts). Default: the
   * bars before `firstStored` and after `lastStored`. A bar the exchange returns outside them
   * (one the journal holds, between two spans asked for together) is not saved again.
   */
  spans?: () => readonly BackfillSpan[];
  /** Persist one page; called once per page with strictly increasing bars (one transaction). */
  save: (bars: readonly KlineBar[]) => void;
  /**
   * The exchange has answered for every open time in [start, end): the bars it has there are
   * saved, the others do not exist. Called after the page's `save`.
   */
  checked?: (start: number, end: number) => void;
  /** Current time (ms) on the exchange's timeline: bars closing at or after it are not saved. */
  now: () => number;
  /** Page size; default and maximum 1000 (spec 8.9). */
  limit?: number;
  onPage?: (progress: BackfillProgress) => void;
  signal?: AbortSignal;
}

export type BackfillStop =
  /** The cursor passed the end of the range. */
  | 'range-end'
  /** The exchange has no bars after the cursor (within the range). */
  | 'no-more-data'
  /** The next bar is still forming. */
  | 'now';

export interface BackfillResult {
  pages: number;
  saved: number;
  /** The last stored open time this run started after, when it resumed. */
  resumedAfter: number | undefined;
  /** Open times of the first and last bar saved by this run. */
  first: number | undefined;
  last: number | undefined;
  stop: BackfillStop | undefined;
}

/** A backfill stopped by an error; `result` says what was saved before it. */
export class BackfillError extends Error {
  readonly result: BackfillResult;
  constructor(message: string, result: BackfillResult, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackfillError';
    this.result = result;
  }
}

export const MAX_KLINE_LIMIT = 1000;

/** Spans fetched with one request sequence: consecutive spans before stored bars while they fit in one page. */
interface Window {
  start: number;
  end: number;
  beforeStored: boolean;
  spans: BackfillSpan[];
}

export async function backfillKlines(o: BackfillOptions): Promise<BackfillResult> {
  const limit = Math.min(MAX_KLINE_LIMIT, Math.max(1, Math.floor(o.limit ?? MAX_KLINE_LIMIT)));
  if (!(o.from < o.to)) throw new RangeError(`empty range: from ${o.from} is not before to ${o.to}`);
  const resumedAfter = o.lastStored();
  const result: BackfillResult = { pages: 0, saved: 0, resumedAfter, first: undefined, last: undefined, stop: undefined };
  const total = barsBetween(o.from, o.to, o.interval);
  // Bar slots with open time in [a, b), counted from `from` (a cursor past a bar is not a slot).
  const slots = (a: number, b: number): number => Math.max(0, barsBetween(o.from, b, o.interval) - barsBetween(o.from, a, o.interval));
  const windows = windowsOf(o.spans?.() ?? defaultSpans(o, resumedAfter), slots, limit);
  // Slots of the windows after each one: what is still to come, for the progress.
  const after: number[] = new Array<number>(windows.length).fill(0);
  for (let w = windows.length - 2; w >= 0; w--) after[w] = after[w + 1]! + slots(windows[w + 1]!.start, windows[w + 1]!.end);
  let cursor = windows[0]?.start ?? o.to;
  let pending = 0;
  const progress = (w: Window): BackfillProgress => ({
    pages: result.pages,
    saved: result.saved,
    cursor,
    last: result.last,
    done: Math.max(0, total - pending - slots(cursor, w.end)),
    total,
  });
  const failure = (what: string, cause?: unknown): BackfillError =>
    new BackfillError(`${what}; saved ${result.saved} bar(s) before stopping`, { ...result }, cause === undefined ? undefined : { cause });
  const check = (start: number, end: number): void => {
    if (!o.checked || end <= start) return;
    try {
      o.checked(start, end);
    } catch (e) {
      throw failure(`recording the checked range failed: ${(e as Error).message}`, e);
    }
  };

  result.stop = 'range-end';
  for (let w = 0; w < windows.length; w++) {
    const win = windows[w]!;
    const { end } = win;
    pending = after[w]!;
    cursor = win.start;
    // Only the bars of the window's spans are saved (it may hold stored bars between them).
    const wanted = spanTest(win.spans);
    result.stop = 'range-end';
    while (cursor < end) {
      if (o.signal?.aborted) throw failure('backfill aborted', o.signal.reason);
      let page: readonly KlineBar[];
      try {
        page = await o.fetch({ symbol: o.symbol, interval: o.interval, startTime: cursor, endTime: end - 1, limit });
      } catch (e) {
        throw failure(`fetching klines from ${new Date(cursor).toISOString()} failed: ${(e as Error).message}`, e);
      }
      result.pages++;

      const closedBefore = o.now();
      const bars: KlineBar[] = [];
      // The last open time of the page in the window, and the bar still forming, if any.
      let seen: number | undefined;
      let forming: number | undefined;
      for (const b of page) {
        if (b.openTime < cursor || b.openTime >= end) continue;
        if (b.closeTime >= closedBefore) {
          forming = b.openTime;
          break;
        }
        if (seen !== undefined && b.openTime < seen) {
          throw failure(`the exchange returned klines out of order (${b.openTime} after ${seen})`);
        }
        const repeated = seen === b.openTime;
        seen = b.openTime;
        if (!wanted(b.openTime)) continue;
        if (repeated && bars.length > 0) bars[bars.length - 1] = b; // keep the last copy
        else bars.push(b);
      }

      if (bars.length > 0) {
        try {
          o.save(bars);
        } catch (e) {
          throw failure(`saving ${bars.length} klines failed: ${(e as Error).message}`, e);
        }
        result.saved += bars.length;
        result.first ??= bars[0]!.openTime;
        result.last = bars[bars.length - 1]!.openTime;
      }
      const from = cursor;
      if (forming !== undefined) {
        // Everything before the forming bar has been answered; it and what follows has not.
        check(from, forming);
        cursor = forming;
        o.onPage?.(progress(win));
        result.stop = 'now';
        return result;
      }
      // Past the window's last slot, or nothing more there: the window is answered to its end
      // when its bars have all closed; after the last stored bar, up to the last bar received.
      const complete = seen === undefined || nextOpenTime(seen, o.interval) >= end;
      check(from, complete && win.beforeStored ? end : seen === undefined ? from : seen + 1);
      if (seen !== undefined) cursor = seen + 1;
      o.onPage?.(progress(win));
      if (seen === undefined) {
        if (!win.beforeStored) result.stop = 'no-more-data';
        break;
      }
      if (complete) break;
    }
  }
  return result;
}

/** The spans without `spans`: before the first stored bar (a range extended backwards), then after the last. */
function defaultSpans(o: BackfillOptions, lastStored: number | undefined): BackfillSpan[] {
  const firstStored = lastStored === undefined ? undefined : o.firstStored?.();
  const spans: BackfillSpan[] = [];
  if (firstStored !== undefined && firstStored > o.from) spans.push({ start: o.from, end: firstStored, beforeStored: true });
  if (lastStored === undefined) spans.push({ start: o.from, end: o.to, beforeStored: false });
  else if (nextOpenTime(lastStored, o.interval) < o.to) spans.push({ start: lastStored + 1, end: o.to, beforeStored: false });
  return spans;
}

/** Consecutive spans before stored bars joined while the window from the first's start to the last's end holds at most `limit` slots. */
function windowsOf(spans: readonly BackfillSpan[], slots: (a: number, b: number) => number, limit: number): Window[] {
  const out: Window[] = [];
  for (const s of spans) {
    if (!(s.start < s.end)) continue;
    const w = out[out.length - 1];
    if (w && w.beforeStored && s.beforeStored && slots(w.start, s.end) <= limit) {
      w.end = s.end;
      w.spans.push(s);
    } else out.push({ start: s.start, end: s.end, beforeStored: s.beforeStored, spans: [s] });
  }
  return out;
}

/** Whether an open time lies in one of `spans`, asked in increasing order (a pointer moves forward). */
function spanTest(spans: readonly BackfillSpan[]): (t: number) => boolean {
  if (spans.length === 1) return () => true;
  let i = 0;
  return (t) => {
    while (i < spans.length && spans[i]!.end <= t) i++;
    const s = spans[i];
    return s !== undefined && t >= s.start;
  };
}
