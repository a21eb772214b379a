/**
 * Klines in the journal (spec 2.6 shape; a kline is identified by symbol, interval and open time,
 * spec 4.4). Prices and volumes stay the exact decimal text they arrived as.
 *
 * Ranges are half-open on open time: `from` inclusive, `to` exclusive, so consecutive ranges never
 * overlap and `--from 2024-03-01 --to 2024-03-02` is exactly one day.
 */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { guardWrite } from './write-guard.ts';

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
const TUPLE_COLUMNS = 'open_time, open, high, low, close, volume, close_time, quote_volume, trades, taker_buy_base, taker_buy_quote';
/** Rows per read of `iterateKlines`: large enough to amortise the call, small enough to stay in cache. */
const CHUNK = 4096;
/** The columns a replay needs (OHLCV and the two times): a third fewer values to marshal per row than the full tuple. */
const BAR_COLUMNS = 'open_time, open, high, low, close, volume, close_time';

/** A kline's price fields only: the first seven of a `KlineTuple` (see `K`). What `barChunk` returns. */
export type BarTuple = [openTime: number, open: string, high: string, low: string, close: string, volume: string, closeTime: number];

export class KlineStore {
  private readonly upsert: Statement;
  private readonly selectRange: Statement;
  private readonly selectChunk: Statement;
  private readonly selectBarChunk: Statement;
  private readonly selectStats: Statement;
  private readonly selectSymbols: Statement;
  private readonly selectSeries: Statement;
  private readonly deleteRange: Statement;
  private readonly upsertTx: Transaction<(rows: readonly KlineInput[]) => void>;
  /** Index of the row being written, for the error message. */
  private at = 0;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
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
    const where = 'symbol = ? AND interval = ? AND open_time >= ? AND open_time < ?';
    this.selectRange = db.prepare(`SELECT ${TUPLE_COLUMNS}, source FROM klines WHERE ${where} ORDER BY open_time`).raw(true);
    this.selectChunk = db.prepare(`SELECT ${TUPLE_COLUMNS} FROM klines WHERE ${where} ORDER BY open_time LIMIT ${CHUNK}`).raw(true);
    this.selectBarChunk = db.prepare(`SELECT ${BAR_COLUMNS} FROM klines WHERE ${where} ORDER BY open_time LIMIT ${CHUNK}`).raw(true);
    this.selectStats = db.prepare(`SELECT min(open_time), max(open_time), count(*) FROM klines WHERE ${where}`).raw(true);
    this.selectSymbols = db.prepare('SELECT DISTINCT symbol FROM klines ORDER BY symbol').pluck(true);
    this.selectSeries = db.prepare(
      'SELECT symbol, interval, min(open_time), max(open_time), count(*) FROM klines GROUP BY symbol, interval ORDER BY symbol, interval',
    ).raw(true);
    this.deleteRange = db.prepare(`DELETE FROM klines WHERE ${where}`);
    this.upsertTx = db.transaction((rows: readonly KlineInput[]) => {
      const upsert = this.upsert;
      for (let i = 0; i < rows.length; i++) {
        this.at = i;
        const r = rows[i]!;
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
    });
  }

  /** Insert or replace rows keyed by (symbol, interval, open time), all in one transaction. Returns the row count. */
  insertKlines(rows: readonly KlineInput[]): number {
    this.at = 0;
    guardWrite(this.file, () => `kline ${this.at} of the batch (${describe(rows[this.at])})`, () => this.upsertTx(rows));
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
  *iterateKlines(symbol: string, interval: string, from?: number, to?: number): Generator<KlineTuple, void, undefined> {
    let cursor = from ?? MIN;
    const end = to ?? MAX;
    for (;;) {
      const rows = this.selectChunk.all(symbol, interval, cursor, end) as KlineTuple[];
      for (let i = 0; i < rows.length; i++) yield rows[i]!;
      if (rows.length < CHUNK) return;
      cursor = rows[rows.length - 1]![0] + 1;
    }
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
    const [first, last, count] = this.selectStats.get(symbol, interval, from ?? MIN, to ?? MAX) as [number | null, number | null, number];
    return first === null || last === null ? undefined : { first, last, count };
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
    return this.deleteRange.run(symbol, interval, from ?? MIN, to ?? MAX).changes;
  }
}

function describe(r: KlineInput | undefined): string {
  return r ? `${r.symbol} ${r.interval} open time ${r.openTime}` : 'none';
}
