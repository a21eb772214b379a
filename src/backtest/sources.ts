/**
 * Where backtest bars and rules come from. Journal: the series' klines streamed in open-time
 * order ([from, to) on open time), from the kline blocks (journal/kline-blocks.ts) where there
 * are some and a chunk of the rows' price columns at a time elsewhere, each bar filled into one
 * reused Candle; the instrument from the exchangeInfo snapshot in force
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
import { decodeBlock, firstAtOrAfter } from '../journal/kline-blocks.ts';
import type { KlineBlock } from '../journal/kline-blocks.ts';
import type { BarTuple, StoredBlock } from '../journal/kline-store.ts';
import { CandleScratch } from './bar-input.ts';

/** Rows of a block whose texts are made at a time: strings that die young, with their bars. */
const TEXT_WINDOW = 256;
const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Bars of one series, oldest first; the yielded Candle is reused (the backtest copies nothing it
 * keeps). Reads the journal's kline blocks where it has them (columns decoded a block at a time,
 * no per-row SQLite work) and the price columns of the rows elsewhere, a chunk at a time.
 */
export function journalBars(journal: Journal, symbol: string, interval: string, from?: number, to?: number): IterableIterator<Candle> {
  return new JournalBars(journal, symbol, interval, from ?? MIN, to ?? MAX);
}

/**
 * The iterator behind `journalBars`: a plain object rather than a generator, handing out one
 * reused result object, so a year of bars allocates nothing per bar beyond what the reads return.
 * Consumers read `value` before the next call (for...of does), as with the reused Candle.
 *
 * The range is walked by open time: up to the next block's start from the rows (`barChunk`),
 * then the block's rows in range, then on from the block's stop. A block in a format this code
 * does not know is read from the rows instead.
 */
class JournalBars implements IterableIterator<Candle> {
  private readonly scratch = new CandleScratch();
  private readonly result: { done: boolean; value: Candle | undefined } = { done: false, value: undefined };
  private rows: BarTuple[] = [];
  private i = 0;
  private block: KlineBlock | undefined;
  private blockEnd = 0;
  /** Texts of the block's rows [textFrom, textTo), five a row. */
  private texts: string[] = [];
  private textFrom = 0;
  private textTo = 0;
  /** The next stored block at or after the cursor (undefined: not looked up yet; null: none). */
  private nextBlock: StoredBlock | null | undefined;
  /** Rows (not blocks) up to here: the range of an unreadable block. */
  private rowsUntil: number;

  constructor(
    private readonly journal: Journal,
    private readonly symbol: string,
    private readonly interval: string,
    private cursor: number,
    private readonly end: number,
  ) {
    this.rowsUntil = cursor;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Candle, undefined> {
    const r = this.result;
    for (;;) {
      const b = this.block;
      if (b !== undefined) {
        if (this.i < this.blockEnd) {
          const i = this.i++;
          if (i >= this.textTo) {
            this.textFrom = i;
            this.textTo = Math.min(this.blockEnd, i + TEXT_WINDOW);
            this.texts = b.textRows(i, this.textTo);
          }
          const t = this.texts;
          const k = (i - this.textFrom) * 5;
          r.value = this.scratch.set(b.openTime[i]!, b.closeTime[i]!, b.open[i]!, b.high[i]!, b.low[i]!, b.close[i]!, b.volume[i]!, t[k]!, t[k + 1]!, t[k + 2]!, t[k + 3]!, t[k + 4]!);
          return r as IteratorResult<Candle, undefined>;
        }
      } else if (this.i < this.rows.length) {
        const k = this.rows[this.i++]!;
        r.value = this.scratch.row(k[0], k[6], k[1], k[2], k[3], k[4], k[5]);
        return r as IteratorResult<Candle, undefined>;
      }
      if (!this.load()) {
        r.done = true;
        r.value = undefined;
        return r as IteratorResult<Candle, undefined>;
      }
    }
  }

  return(): IteratorResult<Candle, undefined> {
    this.rows = [];
    this.block = undefined;
    this.i = 0;
    this.cursor = this.end;
    return { done: true, value: undefined };
  }

  /** Move to the next rows or block of the range; false when there is none. */
  private load(): boolean {
    const klines = this.journal.klines;
    this.block = undefined;
    this.rows = [];
    this.texts = [];
    this.textTo = 0;
    this.i = 0;
    while (this.cursor < this.end) {
      if (this.nextBlock === undefined) this.nextBlock = klines.blockAfter(this.symbol, this.interval, Math.max(this.cursor, this.rowsUntil), this.end) ?? null;
      const nb = this.nextBlock;
      const rowsEnd = Math.min(this.end, Math.max(this.rowsUntil, nb === null ? this.end : nb.start));
      if (this.cursor < rowsEnd) {
        const rows = klines.barChunk(this.symbol, this.interval, this.cursor, rowsEnd);
        this.cursor = rows.length === klines.barChunkSize ? rows[rows.length - 1]![0] + 1 : rowsEnd;
        if (rows.length > 0) {
          this.rows = rows;
          return true;
        }
        continue;
      }
      if (nb === null) return false;
      this.nextBlock = undefined;
      const block = decodeBlock(nb.data);
      if (block === undefined) {
        this.rowsUntil = nb.stop;
        continue;
      }
      const lo = firstAtOrAfter(block, this.cursor);
      const hi = firstAtOrAfter(block, this.end);
      this.cursor = nb.stop;
      if (lo < hi) {
        this.block = block;
        this.i = lo;
        this.blockEnd = hi;
        return true;
      }
    }
    return false;
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
