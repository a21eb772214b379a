/**
 * Bars for a job from its DataSource: streamed from the journal (read-only, in chunks) or from a
 * seeded synthetic series, cut to the job's window. Journals and series are cached per process
 * (one per worker), so the many jobs of a sweep open and generate each once.
 */
import { generateSeries } from '../../core/synthetic/index.ts';
import type { RegimeName, Segment, SyntheticSeries } from '../../core/synthetic/index.ts';
import { INTERVAL_MS } from '../../data/intervals.ts';
import { openJournal } from '../../journal/journal.ts';
import type { Journal } from '../../journal/journal.ts';
import type { BarWindow, DataSource, SweepJob, SweepSymbol } from './sweep-job.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { countSeriesBars, seriesBars } from '../sources/journal-series.ts';
import type { JournalSeries } from '../sources/journal-series.ts';
import type { KlineInterval } from '../../core/market/intervals.ts';

const journals = new Map<string, Journal>();
const series = new Map<string, SyntheticSeries>();
const periods = new Map<string, number[]>();

function journal(path: string): Journal {
  let j = journals.get(path);
  if (!j) {
    j = openJournal(path, { readonly: true });
    journals.set(path, j);
  }
  return j;
}

function synthetic(source: Extract<DataSource, { kind: 'synthetic' }>, interval: string): SyntheticSeries {
  const key = JSON.stringify([source, interval]);
  let s = series.get(key);
  if (!s) {
    const segments: Segment[] = source.segments
      ? source.segments.map((g) => ({ regime: g.regime as RegimeName, bars: g.bars }))
      : [{ regime: (source.regime ?? 'slowUp') as RegimeName, bars: source.bars }];
    s = generateSeries({
      segments,
      seed: source.seed,
      intervalMs: source.intervalMs ?? (INTERVAL_MS as Readonly<Record<string, number>>)[interval] ?? 60_000,
      ...(source.startPrice !== undefined ? { startPrice: source.startPrice } : {}),
      ...(source.tick !== undefined ? { tick: source.tick } : {}),
      ...(source.startTime !== undefined ? { startTime: source.startTime } : {}),
    });
    series.set(key, s);
  }
  return s;
}

/** The journal series a job reads: stored at its interval, or aggregated from `stored` (with --detail, carrying the stored bars or `detailInterval`'s made from them). */
function journalSeries(source: Extract<DataSource, { kind: 'journal' }>, symbol: string, interval: string): JournalSeries {
  const detail = source.detail !== true ? {} : source.detailInterval === undefined ? { detailed: true } : { detailed: true, detail: source.detailInterval as KlineInterval };
  return { symbol, interval: interval as KlineInterval, stored: (source.stored ?? interval) as KlineInterval, ...detail };
}

/** How many bars the source holds for the symbol and interval. */
export function countBars(source: DataSource, symbol: string, interval: string): number {
  if (source.kind === 'synthetic') return synthetic(source, interval).length;
  return countSeriesBars(journal(source.path), journalSeries(source, symbol, interval), source.from, source.to);
}

/** The bars of the source, oldest first, cut to `window` when given. Lazy: nothing is materialised. */
export function* barsOf(source: DataSource, symbol: string, interval: string, window?: BarWindow): Generator<BarInput> {
  const skip = Math.max(0, window?.skip ?? 0);
  const take = window?.take ?? Infinity;
  if (take <= 0) return;
  if (source.kind === 'synthetic') {
    const s = synthetic(source, interval);
    const end = Math.min(s.length, skip + take);
    for (let i = skip; i < end; i++) {
      const c = s.at(i)!;
      yield { openTime: c.openTime, closeTime: c.closeTime, ...c.exact };
    }
    return;
  }
  // The journal's packed blocks where it has them (sources.ts); each Candle is the reader's
  // reused scratch, read by the consumer before the next one, as runBacktest does.
  let i = 0;
  for (const c of seriesBars(journal(source.path), journalSeries(source, symbol, interval), source.from, source.to)) {
    if (i++ < skip) continue;
    yield c;
    if (i - skip >= take) return;
  }
}

/**
 * The journal's bars opening in [start, end) (a run's history before its range: a warmup per
 * interval's startup bars); none from a synthetic source, which has nothing before its first bar.
 */
export function barsBefore(source: DataSource, symbol: string, interval: string, start: number, end: number): Iterable<BarInput> {
  if (source.kind === 'synthetic') return [];
  return seriesBars(journal(source.path), journalSeries(source, symbol, interval), start, end);
}

/** The bars of the source opening in [start, end), oldest first (the source's own range still applies). */
export function* barsIn(source: DataSource, symbol: string, interval: string, start: number, end: number): Generator<BarInput> {
  if (start >= end) return;
  if (source.kind === 'synthetic') {
    const s = synthetic(source, interval);
    for (let i = 0; i < s.length; i++) {
      const c = s.at(i)!;
      if (c.openTime < start) continue;
      if (c.openTime >= end) return;
      yield { openTime: c.openTime, closeTime: c.closeTime, ...c.exact };
    }
    return;
  }
  const from = Math.max(source.from ?? -Infinity, start);
  const to = Math.min(source.to ?? Infinity, end);
  if (from >= to) return;
  yield* seriesBars(journal(source.path), journalSeries(source, symbol, interval), Number.isFinite(from) ? from : undefined, Number.isFinite(to) ? to : undefined);
}

/** A job's symbols with the source of each one's bars (its own, else the job's). */
const sourcesOf = (job: Pick<SweepJob, 'data'>, symbols: readonly SweepSymbol[]): { symbol: string; data: DataSource }[] => symbols.map((s) => ({ symbol: s.symbol, data: s.data ?? job.data }));

/**
 * The periods of a job of several symbols: each open time at which any of them has a bar, oldest
 * first (run-several.ts plays the bars opening together as one period). Windows of such a job
 * count these; cached per process (numbers only: no bar is kept).
 */
export function periodOpens(job: Pick<SweepJob, 'data' | 'interval'>, symbols: readonly SweepSymbol[]): readonly number[] {
  const list = sourcesOf(job, symbols);
  const key = JSON.stringify([list, job.interval]);
  let opens = periods.get(key);
  if (!opens) {
    const set = new Set<number>();
    for (const s of list) for (const bar of barsOf(s.data, s.symbol, job.interval)) set.add(bar.openTime);
    opens = [...set].sort((a, b) => a - b);
    periods.set(key, opens);
  }
  return opens;
}

/** How many bars a job's data holds: of its symbol, or the periods of its several symbols. */
export function countJobBars(job: Pick<SweepJob, 'data' | 'interval' | 'symbol' | 'symbols'>): number {
  if (job.symbols !== undefined && job.symbols.length > 1) return periodOpens(job, job.symbols).length;
  return countBars(job.data, job.symbol, job.interval);
}

/** One symbol's bars for a job of several, with the bars before its window as history when the window asks for them. */
export interface SymbolBars {
  symbol: string;
  bars: Iterable<BarInput>;
  history?: Iterable<BarInput>;
}

/**
 * Each symbol's bars of a job of several, cut to `window` counted in periods: the bars of every
 * symbol opening in the window's periods, and as history those opening in the `history` periods
 * before it (at most `skip`). A symbol without a bar there gets none (run-several.ts says so).
 */
export function symbolsBars(job: Pick<SweepJob, 'data' | 'interval'>, symbols: readonly SweepSymbol[], window?: BarWindow): SymbolBars[] {
  const list = sourcesOf(job, symbols);
  if (window === undefined) return list.map((s) => ({ symbol: s.symbol, bars: barsOf(s.data, s.symbol, job.interval) }));
  const opens = periodOpens(job, symbols);
  const skip = Math.max(0, window.skip);
  const at = (i: number): number => (i >= opens.length ? Infinity : (opens[i] as number));
  const start = at(skip);
  const end = window.take <= 0 ? start : at(skip + window.take);
  const n = Math.min(window.history ?? 0, skip);
  return list.map((s) => ({
    symbol: s.symbol,
    bars: barsIn(s.data, s.symbol, job.interval, start, end),
    ...(n > 0 ? { history: barsIn(s.data, s.symbol, job.interval, at(skip - n), start) } : {}),
  }));
}

/** Close cached journals (end of a worker, end of a test). */
export function closeDataSources(): void {
  for (const j of journals.values()) j.close();
  journals.clear();
  series.clear();
  periods.clear();
}
