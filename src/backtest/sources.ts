/**
 * Where backtest bars and rules come from. Journal: the series' klines streamed in open-time
 * order, read a chunk of price columns at a time (`KlineStore.barChunk`, [from, to) on open time),
 * each row filled into one reused Candle; the instrument from the exchangeInfo snapshot in force
 * at the start of the range (journal.exchangeInfo.at), else a fallback (the CLI passes the sandbox
 * config's symbol), else an error that says what to do. Synthetic: the seeded generator's
 * columnar series (core/synthetic), iterated without materialising the year.
 */
import type { Candle } from '../core/indicators/candle.ts';
import { parseInstruments } from '../core/market/index.ts';
import type { Instrument } from '../core/market/index.ts';
import { generateSeries } from '../core/synthetic/index.ts';
import type { GenerateOptions, SyntheticSeries } from '../core/synthetic/index.ts';
import type { Journal } from '../journal/journal.ts';
import type { BarTuple } from '../journal/kline-store.ts';
import { CandleScratch } from './bar-input.ts';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Bars of one series, oldest first; the yielded Candle is reused (the backtest copies nothing it
 * keeps). Reads the price columns only, a chunk at a time (`barChunk`).
 */
export function journalBars(journal: Journal, symbol: string, interval: string, from?: number, to?: number): IterableIterator<Candle> {
  return new JournalBars(journal, symbol, interval, from ?? MIN, to ?? MAX);
}

/**
 * The iterator behind `journalBars`: a plain object rather than a generator, handing out one
 * reused result object, so a year of bars allocates nothing per bar beyond the rows SQLite returns.
 * Consumers read `value` before the next call (for...of does), as with the reused Candle.
 */
class JournalBars implements IterableIterator<Candle> {
  private readonly scratch = new CandleScratch();
  private readonly result: { done: boolean; value: Candle | undefined } = { done: false, value: undefined };
  private rows: BarTuple[] = [];
  private i = 0;
  /** False once a chunk came back short: no more rows after `rows`. */
  private more = true;

  constructor(
    private readonly journal: Journal,
    private readonly symbol: string,
    private readonly interval: string,
    private cursor: number,
    private readonly end: number,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Candle, undefined> {
    const r = this.result;
    if (this.i === this.rows.length && !this.load()) {
      r.done = true;
      r.value = undefined;
      return r as IteratorResult<Candle, undefined>;
    }
    const k = this.rows[this.i++]!;
    r.value = this.scratch.row(k[0], k[6], k[1], k[2], k[3], k[4], k[5]);
    return r as IteratorResult<Candle, undefined>;
  }

  return(): IteratorResult<Candle, undefined> {
    this.rows = [];
    this.i = 0;
    this.more = false;
    return { done: true, value: undefined };
  }

  /** Read the next chunk; false when there is none. */
  private load(): boolean {
    if (!this.more) return false;
    const klines = this.journal.klines;
    const rows = klines.barChunk(this.symbol, this.interval, this.cursor, this.end);
    this.more = rows.length === klines.barChunkSize;
    if (rows.length > 0) this.cursor = rows[rows.length - 1]![0] + 1;
    this.rows = rows;
    this.i = 0;
    return rows.length > 0;
  }
}

export interface InstrumentChoice {
  readonly instrument: Instrument;
  /** 'journal': the snapshot taken at `takenAt`; 'fallback': none in the journal covers the start. */
  readonly source: 'journal' | 'fallback';
  readonly takenAt?: number;
  /** The snapshot's symbol object (spec 2.2) when the source is the journal: what sweep workers parse. */
  readonly raw?: unknown;
}

/**
 * The rules of `symbol` in force at `time`: the journal's exchangeInfo snapshot then (or, when
 * the journal's first snapshot is later, that one: rules recorded after the fact beat none), else
 * `fallback`. Throws a RangeError naming the fix when neither knows the symbol.
 */
export function instrumentAt(journal: Journal, symbol: string, time: number, fallback?: Instrument): InstrumentChoice {
  for (const snap of [journal.exchangeInfo.at(time), journal.exchangeInfo.latest()]) {
    if (!snap) continue;
    let found: Instrument | undefined;
    try {
      found = parseInstruments(snap.body).get(symbol);
    } catch (e) {
      throw new RangeError(`exchangeInfo snapshot ${snap.id} of ${journal.file} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (found) {
      const raw = (snap.body as { symbols?: { symbol?: string }[] }).symbols?.find((x) => x.symbol === symbol);
      return { instrument: found, source: 'journal', takenAt: snap.takenAt, raw };
    }
  }
  if (fallback && fallback.symbol === symbol) return { instrument: fallback, source: 'fallback' };
  throw new RangeError(`no exchange rules for ${symbol}: the journal holds no exchangeInfo snapshot listing it and the sandbox config has no such symbol (record exchangeInfo with \`halyard record\`, or add the symbol to the sandbox config)`);
}

/** A seeded synthetic series (iterable of Candles). */
export function syntheticBars(options: GenerateOptions): SyntheticSeries {
  return generateSeries(options);
}
