/**
 * Kline backfill (spec 4.4 klines: limit max 1000, a kline is identified by its open time): pages
 * forward through [from, to) by the last open time received, saving each page as it arrives, so an
 * interruption loses at most the page in flight and a second run resumes after the last stored bar.
 *
 * Only closed bars are saved: a bar whose close time is not yet past `now()` is still forming, and
 * storing it would leave a wrong final candle behind (the defect of the BTCUSDT sample file).
 * Pacing is the fetch function's business (the exchange client's weight budget).
 */
import { barsBetween, nextOpenTime, type KlineInterval } from './intervals.ts';
import type { KlineBar } from './kline-csv.ts';

export interface KlinePageRequest {
  symbol: string;
  interval: KlineInterval;
  startTime: number;
  endTime: number;
  limit: number;
}

export type FetchKlinePage = (request: KlinePageRequest) => Promise<readonly KlineBar[]>;

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
  /** Persist one page; called once per page with strictly increasing bars (one transaction). */
  save: (bars: readonly KlineBar[]) => void;
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

export async function backfillKlines(o: BackfillOptions): Promise<BackfillResult> {
  const limit = Math.min(MAX_KLINE_LIMIT, Math.max(1, Math.floor(o.limit ?? MAX_KLINE_LIMIT)));
  if (!(o.from < o.to)) throw new RangeError(`empty range: from ${o.from} is not before to ${o.to}`);
  const resumedAfter = o.lastStored();
  const firstStored = resumedAfter === undefined ? undefined : o.firstStored?.();
  const result: BackfillResult = { pages: 0, saved: 0, resumedAfter, first: undefined, last: undefined, stop: undefined };
  const total = barsBetween(o.from, o.to, o.interval);
  // The spans to fetch: before the first stored bar (a range extended backwards), then after the last.
  const spans: [number, number][] = [];
  const head = firstStored !== undefined && firstStored > o.from;
  if (head) spans.push([o.from, firstStored]);
  const tailDone = resumedAfter !== undefined && nextOpenTime(resumedAfter, o.interval) >= o.to;
  if (!tailDone) spans.push([resumedAfter === undefined ? o.from : resumedAfter + 1, o.to]);
  let cursor = spans[0]?.[0] ?? o.to;
  let done = 0;
  const progress = (): BackfillProgress => ({
    pages: result.pages,
    saved: result.saved,
    cursor,
    last: result.last,
    done: Math.min(total, done + barsBetween(o.from, Math.min(cursor, o.to), o.interval)),
    total,
  });
  const failure = (what: string, cause?: unknown): BackfillError =>
    new BackfillError(`${what}; saved ${result.saved} bar(s) before stopping`, { ...result }, cause === undefined ? undefined : { cause });

  for (let s = 0; s < spans.length; s++) {
    const [start, end] = spans[s]!;
    // While the span before the stored bars is fetched, the slots from them on count as done.
    done = head && s === 0 ? barsBetween(end, spans[1]?.[0] ?? o.to, o.interval) : 0;
    cursor = start;
    // Past the span's last slot: no request needed to know the span is complete.
    const complete = (lastOpen: number): boolean => nextOpenTime(lastOpen, o.interval) >= end;
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
      let forming = false;
      for (const b of page) {
        if (b.openTime < cursor || b.openTime >= end) continue;
        if (b.closeTime >= closedBefore) {
          forming = true;
          break;
        }
        const prev = bars[bars.length - 1];
        if (prev && b.openTime === prev.openTime) {
          bars[bars.length - 1] = b; // keep the last copy
          continue;
        }
        if (prev && b.openTime < prev.openTime) {
          throw failure(`the exchange returned klines out of order (${b.openTime} after ${prev.openTime})`);
        }
        bars.push(b);
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
        cursor = result.last + 1;
      }
      o.onPage?.(progress());

      if (forming) {
        result.stop = 'now';
        return result;
      }
      if (bars.length === 0) {
        result.stop = 'no-more-data';
        break;
      }
      if (complete(result.last!)) break;
    }
  }
  // The range is complete when it ends where the stored bars do: how the span before them ended does not matter.
  if (tailDone) result.stop = 'range-end';
  result.stop ??= 'range-end';
  return result;
}
