/**
 * The bars a backtest of `symbol` `interval` reads from a journal: the series stored at that
 * interval, or, when there is none, one stored at a shorter interval that tiles it, aggregated on
 * the fly (data/resample.ts): a journal of 1-minute klines backtests on 5m, 1h or 1d. The
 * coarsest such series is used (the least to read). A range [from, to) on the backtest's bars'
 * open times reads the stored bars of the whole periods that open in it. Of those, a period at
 * either end that the stored bars cover only in part (the journal starting or ending inside it)
 * makes no bar (data/resample.ts), and the bounds and counts here leave it out too, so they agree
 * with what is played; a period with stored bars missing in the middle is a bar. A detailed series
 * (`detailSeries`) makes its bars from a chosen shorter interval and hands them out with those
 * shorter bars attached, for the venue to play its fills on (run-backtest.ts `detailed`); when the
 * journal does not hold that interval either, its bars are made from a still shorter one that
 * tiles it, by the same aggregation (a journal of 1m klines plays `--detail 5m`).
 */
import { intervalMs, isKlineInterval, nextOpen, periodOpen } from '../../core/market/intervals.ts';
import type { KlineInterval } from '../../core/market/intervals.ts';
import { canResample, endsPeriod, resampleBars, startsPeriod } from '../../data/resample.ts';
import type { Journal } from '../../journal/journal.ts';
import type { KlineRange } from '../../journal/klines/kline-store.ts';
import type { StrategySetup } from '../../strategy/define.ts';
import type { Interval } from '../../strategy/types.ts';
import type { BarInput } from './bar-input.ts';
import { journalBars } from './sources.ts';
import { warmupHistoryStart } from './warmup-span.ts';

export interface JournalSeries {
  readonly symbol: string;
  /** The interval the backtest runs on. */
  readonly interval: KlineInterval;
  /** The interval stored in the journal: `interval`, or a shorter one aggregated into it. */
  readonly stored: KlineInterval;
  /** The bars carry the stored bars they were made from (DetailedCandle). */
  readonly detailed?: boolean;
  /** With `detailed`, the interval of the bars they carry when it is not `stored`: those are made from the stored ones. */
  readonly detail?: KlineInterval;
}

/**
 * The series of `interval` whose bars carry `detail`'s bars (DetailedCandle): the stored ones, or,
 * when the journal holds none, ones made from a shorter stored interval that tiles `detail` (as
 * `chooseSeries` picks it). Undefined when `detail` does not tile the interval or nothing makes it.
 */
export function detailSeries(journal: Journal, symbol: string, interval: KlineInterval, detail: KlineInterval): JournalSeries | undefined {
  const source = canResample(detail, interval) ? chooseSeries(journal, symbol, detail) : undefined;
  if (source === undefined) return undefined;
  return { symbol, interval, stored: source.stored, detailed: true, ...(source.stored === detail ? {} : { detail }) };
}

/** The series to read for `symbol` `interval`, or undefined when the journal holds nothing that makes it. */
export function chooseSeries(journal: Journal, symbol: string, interval: KlineInterval): JournalSeries | undefined {
  if (journal.klines.klineRange(symbol, interval) !== undefined) return { symbol, interval, stored: interval };
  let best: KlineInterval | undefined;
  for (const s of journal.klines.series()) {
    if (s.symbol !== symbol || !isKlineInterval(s.interval) || !canResample(s.interval, interval)) continue;
    if (best === undefined || (intervalMs(s.interval) as number) > (intervalMs(best) as number)) best = s.interval;
  }
  return best === undefined ? undefined : { symbol, interval, stored: best };
}

/** Open-time bounds of the stored bars behind the backtest's bars opening in [from, to). */
export function storedRange(s: JournalSeries, from?: number, to?: number): { from?: number; to?: number } {
  if (s.stored === s.interval) return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  const lo = from === undefined ? undefined : periodOpen(s.interval, from) === from ? from : nextOpen(s.interval, periodOpen(s.interval, from));
  const hi = to === undefined ? undefined : nextOpen(s.interval, periodOpen(s.interval, to - 1));
  return { ...(lo === undefined ? {} : { from: lo }), ...(hi === undefined ? {} : { to: hi }) };
}

/** The backtest's bars, oldest first (a fresh iterable each call). */
export function seriesBars(journal: Journal, s: JournalSeries, from?: number, to?: number): Iterable<BarInput> {
  const r = storedRange(s, from, to);
  const stored = journalBars(journal, s.symbol, s.stored, r.from, r.to);
  if (s.detailed === true) return resampleBars(s.detail === undefined ? stored : resampleBars(stored, s.detail), s.interval, { detail: true });
  return s.stored === s.interval ? stored : resampleBars(stored, s.interval);
}

/** First and last open time of the backtest's bars (and their count when stored as they are). */
export interface BarsRange {
  readonly first: number;
  readonly last: number;
  readonly count?: number;
}

/** The stored bars behind a range and the backtest's bars they make (`seriesSpan`). */
export interface SeriesSpan {
  /** The stored bars read: first and last open time, count. */
  readonly stored: KlineRange;
  /** The backtest's bars; undefined when the stored bars make no whole period. */
  readonly bars?: BarsRange;
  /** Open times of the partial periods at the ends, left out (none, one or two; none when stored as they are). */
  readonly partial: readonly number[];
}

/**
 * The stored bars read for [from, to), the backtest's bars they make and the partial periods at
 * the ends left out (the tests of data/resample.ts on the first stored bar's open and the last
 * one's close); undefined when no stored bar is in the range.
 */
export function seriesSpan(journal: Journal, s: JournalSeries, from?: number, to?: number): SeriesSpan | undefined {
  const r = storedRange(s, from, to);
  const stored = journal.klines.klineRange(s.symbol, s.stored, r.from, r.to);
  if (stored === undefined) return undefined;
  if (s.stored === s.interval) return { stored, bars: stored, partial: [] };
  const partial: number[] = [];
  let lo = stored.first;
  let hi = stored.last + 1;
  const firstPeriod = periodOpen(s.interval, stored.first);
  const lastPeriod = periodOpen(s.interval, stored.last);
  if (!startsPeriod(s.interval, stored.first)) {
    partial.push(firstPeriod);
    lo = nextOpen(s.interval, firstPeriod);
  }
  if (!endsPeriod(s.interval, lastBar(journal, s, stored.last))) {
    if (lastPeriod !== firstPeriod || partial.length === 0) partial.push(lastPeriod);
    hi = lastPeriod;
  }
  // The whole periods between: the first and last stored bar there (a gap may leave periods empty).
  const whole = lo < hi ? journal.klines.klineRange(s.symbol, s.stored, lo, hi) : undefined;
  const bars = whole === undefined ? undefined : { first: periodOpen(s.interval, whole.first), last: periodOpen(s.interval, whole.last) };
  return { stored, ...(bars === undefined ? {} : { bars }), partial };
}

/** The stored bar opening at `open` (its close time is what `endsPeriod` tests). */
function lastBar(journal: Journal, s: JournalSeries, open: number): { openTime: number; closeTime: number } {
  for (const c of journalBars(journal, s.symbol, s.stored, open, open + 1)) return { openTime: c.openTime, closeTime: c.closeTime };
  throw new Error(`the journal's ${s.symbol} ${s.stored} bar at ${open} cannot be read`);
}

/** First and last open time of the backtest's bars in [from, to) (and their count when stored as they are); undefined when there are none. */
export function seriesRange(journal: Journal, s: JournalSeries, from?: number, to?: number): BarsRange | undefined {
  return seriesSpan(journal, s, from, to)?.bars;
}

/** How many bars the backtest reads in [from, to) (aggregated ones counted by a pass over the stored open times of the whole periods). */
export function countSeriesBars(journal: Journal, s: JournalSeries, from?: number, to?: number): number {
  if (s.stored === s.interval) return journal.klines.klineRange(s.symbol, s.interval, from, to)?.count ?? 0;
  const bars = seriesSpan(journal, s, from, to)?.bars;
  if (bars === undefined) return 0;
  let count = 0;
  let last = Number.NaN;
  for (const c of journalBars(journal, s.symbol, s.stored, bars.first, nextOpen(s.interval, bars.last))) {
    const open = periodOpen(s.interval, c.openTime);
    if (open !== last) {
      count++;
      last = open;
    }
  }
  return count;
}

/**
 * The series' bars before a range starting at `from` (whose first bar opens at `first`) that a
 * warmup per interval needs (warmup-span.ts warmupHistoryStart), as a run's `history`: Freqtrade's
 * startup candles, 20 1h bars being 20 hours of the run's bars. None with a numeric warmup (taken
 * from the run's own bars, as always) or without `from` (nothing before the journal's first).
 */
export function warmupHistory(journal: Journal, s: JournalSeries, setup: StrategySetup, from: number | undefined, first: number): { history?: Iterable<BarInput> } {
  const start = from === undefined ? undefined : warmupHistoryStart(setup, s.interval as Interval, first);
  return start === undefined ? {} : { history: seriesBars(journal, s, start, first) };
}
