/**
 * Klines in the journal (spec 2.6 shape; a kline is identified by symbol, interval and open time,
 * spec 4.4). Prices and volumes stay the exact decimal text they arrived as.
 *
 * Ranges are half-open on open time: `from` inclusive, `to` exclusive, so consecutive ranges never
 * overlap and `--from 2024-03-01 --to 2024-03-02` is exactly one day.
 *
 * Beside the rows, a derived columnar cache (migration 002, kline-blocks.ts): every write packs the
 * series' uncovered rows around what it touched into blocks of BLOCK_ROWS rows, once there are
 * that many; the schema's triggers drop a block whenever a row in its range changes. Replays read
 * blocks where there are some (`blockAfter`) and the rows elsewhere.
 */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { BLOCK_ROWS, encodeBlock } from './kline-blocks.ts';
import { KLINE_CHUNK as CHUNK, KlineRows, SERIES_RANGE, TUPLE_COLUMNS } from './kline-rows.ts';
import { moneyTextError, nonTextMoneyField } from '../money-text.ts';
import { guardWrite } from '../write-guard.ts';

export interface KlineRecord {
  symbol: string;
  interval: string;
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  closeTime: number;
  /** Null when the source had only 6 columns. */
  quoteVolume: string | null;
  trades: number | null;
  takerBuyBaseVolume: string | null;
  takerBuyQuoteVolume: string | null;
  /** Where the row came from: `rest`, `csv:<file name>`, ... */
  source: string;
}

/** What a writer passes: the optional columns may be left out. */
export type KlineInput = Omit<KlineRecord, 'quoteVolume' | 'trades' | 'takerBuyBaseVolume' | 'takerBuyQuoteVolume'> &
  Partial<Pick<KlineRecord, 'quoteVolume' | 'trades' | 'takerBuyBaseVolume' | 'takerBuyQuoteVolume'>>;

/**
 * A kline as a positional tuple: the REST array order of spec 2.6 (without the trailing `ignore`).
 * What `iterateKlines` yields: arrays, not objects, for replay loops over millions of bars.
 */
export type KlineTuple = [
  openTime: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
  closeTime: number,
  quoteVolume: string | null,
  trades: number | null,
  takerBuyBaseVolume: string | null,
  takerBuyQuoteVolume: string | null,
];

/** Index of each field in a `KlineTuple`. */
export const K = {
  openTime: 0,
  open: 1,
  high: 2,
  low: 3,
  close: 4,
  volume: 5,
  closeTime: 6,
  quoteVolume: 7,
  trades: 8,
  takerBuyBaseVolume: 9,
  takerBuyQuoteVolume: 10,
} as const;

export interface KlineRange {
  first: number;
  last: number;
  count: number;
}

export interface SeriesInfo extends KlineRange {
  symbol: string;
  interval: string;
}

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;
/** The columns a replay needs (OHLCV and the two times): a third fewer values to marshal per row than the full tuple. */
const BAR_COLUMNS = 'open_time, open, high, low, close, volume, close_time';

/** A kline's price fields only: the first seven of a `KlineTuple` (see `K`). What `barChunk` returns. */
export type BarTuple = [openTime: number, open: string, high: string, low: string, close: string, volume: string, closeTime: number];

/** A stored block (kline-blocks.ts): the rows with open time in [start, stop). */
export interface StoredBlock {
  readonly start: number;
  readonly stop: number;
  readonly count: number;
  readonly data: Buffer;
}

/** Series key of the pack bookkeeping. */
const seriesKey = (symbol: string, interval: string): string => `${symbol}\u0000${interval}`;

export class KlineStore {
  private readonly upsert: Statement;
  private readonly selectBlockAfter: Statement;
  private readonly selectBlockSpans: Statement;
  private readonly sumBlockRows: Statement;
  private readonly selectStopBefore: Statement;
  private readonly selectStartFrom: Statement;
  private readonly selectPackChunk: Statement;
  private readonly countRange: Statement;
  private readonly insertBlock: Statement;
  /** Touched open times of the write in progress, by series: [symbol, interval, min, max]. */
  private readonly touched = new Map<string, [string, string, number, number]>();
  private readonly selectRange: Statement;
  private readonly rows: KlineRows;
  private readonly selectBarChunk: Statement;
  private readonly selectFirst: Statement;
  private readonly selectLast: Statement;
  private readonly selectBlocksWithin: Statement;
  private readonly selectSymbols: Statement;
  private readonly selectSeries: Statement;
  private readonly deleteRange: Statement;
  private readonly upsertTx: Transaction<(rows: readonly KlineInput[]) => void>;
  private readonly db: Database;
  /** Index of the row being written, for the error message. */
  private at = 0;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.db = db;
    // Upsert: a later copy of the same open time wins (a closed kline replaces a forming one).
    this.upsert = db.prepare(`
      INSERT INTO klines (symbol, interval, open_time, open, high, low, close, volume, close_time,
                          quote_volume, trades, taker_buy_base, taker_buy_quote, source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (symbol, interval, open_time) DO UPDATE SET
        open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
        volume = excluded.volume, close_time = excluded.close_time, quote_volume = excluded.quote_volume,
        trades = excluded.trades, taker_buy_base = excluded.taker_buy_base,
        taker_buy_quote = excluded.taker_buy_quote, source = excluded.source`);
    const where = SERIES_RANGE;
    this.selectRange = db.prepare(`SELECT ${TUPLE_COLUMNS}, source FROM klines WHERE ${where} ORDER BY open_time`).raw(true);
    this.rows = new KlineRows(db);
    this.selectBarChunk = db.prepare(`SELECT ${BAR_COLUMNS} FROM klines WHERE ${where} ORDER BY open_time LIMIT ${CHUNK}`).raw(true);
    this.selectFirst = db.prepare(`SELECT open_time FROM klines WHERE ${where} ORDER BY open_time LIMIT 1`).pluck(true);
    this.selectLast = db.prepare(`SELECT open_time FROM klines WHERE ${where} ORDER BY open_time DESC LIMIT 1`).pluck(true);
    this.selectSymbols = db.prepare('SELECT DISTINCT symbol FROM klines ORDER BY symbol').pluck(true);
    this.selectSeries = db.prepare(
      'SELECT symbol, interval, min(open_time), max(open_time), count(*) FROM klines GROUP BY symbol, interval ORDER BY symbol, interval',
    ).raw(true);
    this.deleteRange = db.prepare(`DELETE FROM klines WHERE ${where}`);
    const series = 'symbol = ? AND interval = ?';
    this.selectBlockAfter = db.prepare(`SELECT start, stop, count, data FROM kline_blocks WHERE ${series} AND stop > ? AND start < ? ORDER BY stop LIMIT 1`);
    this.sumBlockRows = db.prepare(`SELECT coalesce(sum(count), 0) FROM kline_blocks WHERE ${series} AND stop > ? AND start < ?`).pluck(true);
    this.selectBlocksWithin = db.prepare(`SELECT start, stop, count FROM kline_blocks WHERE ${series} AND start >= ? AND stop <= ? ORDER BY start`).raw(true);
    this.selectBlockSpans = db.prepare(`SELECT start, stop FROM kline_blocks WHERE ${series} AND stop > ? AND start < ? ORDER BY stop`).raw(true);
    this.selectStopBefore = db.prepare(`SELECT stop FROM kline_blocks WHERE ${series} AND stop <= ? ORDER BY stop DESC LIMIT 1`).pluck(true);
    this.selectStartFrom = db.prepare(`SELECT start FROM kline_blocks WHERE ${series} AND stop > ? ORDER BY stop LIMIT 1`).pluck(true);
    this.selectPackChunk = db.prepare(`SELECT ${BAR_COLUMNS} FROM klines WHERE ${where} ORDER BY open_time LIMIT ${BLOCK_ROWS}`).raw(true);
    this.countRange = db.prepare(`SELECT count(*) FROM klines WHERE ${where}`).pluck(true);
    this.insertBlock = db.prepare('INSERT INTO kline_blocks (symbol, interval, start, stop, count, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.upsertTx = db.transaction((rows: readonly KlineInput[]) => {
      const upsert = this.upsert;
      const touched = this.touched;
      touched.clear();
      let last: [string, string, number, number] | undefined;
      for (let i = 0; i < rows.length; i++) {
        this.at = i;
        const r = rows[i]!;
        // Checked in this pass (a throw rolls the batch back): a money field that is not text.
        const bad = nonTextMoneyField(r, KLINE_MONEY);
        if (bad !== undefined) throw moneyTextError(this.file, `kline ${i} of the batch (${describe(r)})`, bad, (r as unknown as Record<string, unknown>)[bad]);
        if (last === undefined || last[0] !== r.symbol || last[1] !== r.interval) {
          const k = seriesKey(r.symbol, r.interval);
          last = touched.get(k);
          if (last === undefined) touched.set(k, (last = [r.symbol, r.interval, r.openTime, r.openTime]));
        }
        if (r.openTime < last[2]) last[2] = r.openTime;
        if (r.openTime > last[3]) last[3] = r.openTime;
        upsert.run(
          r.symbol,
          r.interval,
          r.openTime,
          r.open,
          r.high,
          r.low,
          r.close,
          r.volume,
          r.closeTime,
          r.quoteVolume ?? null,
          r.trades ?? null,
          r.takerBuyBaseVolume ?? null,
          r.takerBuyQuoteVolume ?? null,
          r.source,
        );
      }
      this.at = rows.length;
      for (const [symbol, interval, lo, hi] of touched.values()) this.pack(symbol, interval, lo, hi + 1);
    });
  }

  /** Insert or replace rows keyed by (symbol, interval, open time), all in one transaction. Returns the row count. */
  insertKlines(rows: readonly KlineInput[]): number {
    this.at = 0;
    guardWrite(this.file, () => (this.at < rows.length ? `kline ${this.at} of the batch (${describe(rows[this.at])})` : 'packing the batch into kline blocks'), () => this.upsertTx(rows));
    return rows.length;
  }

  /** Rows of one series, oldest first, open time in [from, to). Materialises objects: for charts and tests. */
  klines(symbol: string, interval: string, from?: number, to?: number): KlineRecord[] {
    const rows = this.selectRange.all(symbol, interval, from ?? MIN, to ?? MAX) as [...KlineTuple, string][];
    return rows.map((r) => ({
      symbol,
      interval,
      openTime: r[0],
      open: r[1],
      high: r[2],
      low: r[3],
      close: r[4],
      volume: r[5],
      closeTime: r[6],
      quoteVolume: r[7],
      trades: r[8],
      takerBuyBaseVolume: r[9],
      takerBuyQuoteVolume: r[10],
      source: r[11],
    }));
  }

  /**
   * Replay iterator: tuples (see `K`), oldest first, read in chunks by open time. No cursor stays
   * open between yields, so the caller may write to the same journal (fills, orders) while iterating.
   */
  iterateKlines(symbol: string, interval: string, from?: number, to?: number): Generator<KlineTuple, void, undefined> {
    return this.rows.iterate(symbol, interval, from, to);
  }

  /**
   * One chunk of a replay, for loops that drive the cursor themselves (backtests): up to
   * `barChunkSize` rows with open time in [from, to), oldest first, price columns only. The next
   * chunk starts at the last row's open time + 1; a chunk shorter than `barChunkSize` is the last.
   */
  barChunk(symbol: string, interval: string, from: number, to: number): BarTuple[] {
    return this.selectBarChunk.all(symbol, interval, from, to) as BarTuple[];
  }

  /** Rows per `barChunk`. */
  get barChunkSize(): number {
    return CHUNK;
  }

  /** First and last open time and the number of bars of a series (within [from, to) if given); undefined when empty. */
  klineRange(symbol: string, interval: string, from?: number, to?: number): KlineRange | undefined {
    const lo = from ?? MIN;
    const hi = to ?? MAX;
    // Two index seeks and the count from the blocks (below): min/max/count(*) over the rows read
    // every row of the range, 130 ms for a year of 1-minute bars, and the CLI asks before each run.
    const first = this.selectFirst.get(symbol, interval, lo, hi) as number | undefined;
    if (first === undefined) return undefined;
    const last = this.selectLast.get(symbol, interval, lo, hi) as number;
    return { first, last, count: this.countBars(symbol, interval, lo, hi) };
  }

  /** Rows with open time in [from, to): the counts of the blocks inside the range, the rows counted only between them. */
  private countBars(symbol: string, interval: string, from: number, to: number): number {
    let count = 0;
    let cursor = from;
    for (const [start, stop, n] of this.selectBlocksWithin.all(symbol, interval, from, to) as [number, number, number][]) {
      if (start > cursor) count += this.countRange.get(symbol, interval, cursor, start) as number;
      count += n;
      cursor = stop;
    }
    if (to > cursor) count += this.countRange.get(symbol, interval, cursor, to) as number;
    return count;
  }

  /** Symbols with at least one kline, sorted. */
  symbols(): string[] {
    return this.selectSymbols.all() as string[];
  }

  /** Every (symbol, interval) series with its range. */
  series(): SeriesInfo[] {
    return (this.selectSeries.all() as [string, string, number, number, number][]).map(([symbol, interval, first, last, count]) => ({
      symbol,
      interval,
      first,
      last,
      count,
    }));
  }

  /** Remove a series' rows in [from, to); returns how many. */
  deleteKlines(symbol: string, interval: string, from?: number, to?: number): number {
    const lo = from ?? MIN;
    const hi = to ?? MAX;
    const tx = this.db.transaction(() => {
      const n = this.deleteRange.run(symbol, interval, lo, hi).changes;
      // The triggers dropped the blocks around the deleted rows: pack what is left there again.
      if (n > 0) this.pack(symbol, interval, lo, hi);
      return n;
    });
    return tx();
  }

  /**
   * The first block of a series ending after `from` and starting before `to` (oldest first), or
   * undefined. Its rows are exactly the kline rows with open time in [start, stop).
   */
  blockAfter(symbol: string, interval: string, from: number, to: number): StoredBlock | undefined {
    return this.selectBlockAfter.get(symbol, interval, from, to) as StoredBlock | undefined;
  }

  /**
   * Rows held by the blocks that overlap [from, to): a cheap estimate of a range's bar count (a
   * few hundred block rows summed instead of counting the rows), exact when the range is whole
   * blocks; rows not packed yet are not in it.
   */
  blockRows(symbol: string, interval: string, from: number, to: number): number {
    return this.sumBlockRows.get(symbol, interval, from, to) as number;
  }

  /** Pack every series' uncovered rows into blocks (a journal upgraded to schema 2 has none yet); returns the blocks written. */
  packBlocks(): number {
    let n = 0;
    const tx = this.db.transaction(() => {
      for (const s of this.series()) n += this.pack(s.symbol, s.interval, MIN, MAX);
    });
    // Immediate: it reads before it writes, and a deferred transaction would then fail at once
    // (SQLITE_BUSY, no busy wait) when another process wrote in between.
    tx.immediate();
    return n;
  }

  /**
   * Pack the uncovered rows of a series around open times [from, to) into full blocks: the gaps
   * between existing blocks, widened to the blocks on either side, read BLOCK_ROWS rows at a
   * time; a gap's last rows short of a full block stay rows only (a later write there packs
   * them). Runs inside the caller's transaction. Returns the blocks written.
   */
  private pack(symbol: string, interval: string, from: number, to: number): number {
    const lo = (this.selectStopBefore.get(symbol, interval, from) as number | undefined) ?? MIN;
    const hi = to >= MAX ? MAX : ((this.selectStartFrom.get(symbol, interval, to - 1) as number | undefined) ?? MAX);
    let written = 0;
    let cursor = lo;
    for (const [start, stop] of this.selectBlockSpans.all(symbol, interval, lo, hi) as [number, number][]) {
      written += this.packGap(symbol, interval, cursor, start);
      cursor = stop;
    }
    return written + this.packGap(symbol, interval, cursor, Math.max(cursor, hi));
  }

  private packGap(symbol: string, interval: string, from: number, to: number): number {
    if (!(to > from) || (this.countRange.get(symbol, interval, from, to) as number) < BLOCK_ROWS) return 0;
    let written = 0;
    let cursor = from;
    for (;;) {
      const rows = this.selectPackChunk.all(symbol, interval, cursor, to) as BarTuple[];
      if (rows.length < BLOCK_ROWS) return written;
      const first = rows[0]![0];
      const last = rows[rows.length - 1]![0];
      this.insertBlock.run(symbol, interval, first, last + 1, rows.length, encodeBlock(rows));
      written++;
      cursor = last + 1;
    }
  }
}

const KLINE_MONEY = ['open', 'high', 'low', 'close', 'volume', 'quoteVolume', 'takerBuyBaseVolume', 'takerBuyQuoteVolume'] as const;

function describe(r: KlineInput | undefined): string {
  return r ? `${r.symbol} ${r.interval} open time ${r.openTime}` : 'none';
}
