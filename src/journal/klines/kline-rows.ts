/**
 * A series' kline rows read in chunks by open time, as tuples: the `klines` table as every schema
 * version has it (its columns have not changed since schema 1). KlineStore's replay iterator, and
 * what a dry-run import reads from a journal of an older schema, which it must leave as it is
 * rather than upgrade (read-as-is.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { KlineTuple } from './kline-store.ts';

/** Rows per read: large enough to amortise the call, small enough to stay in cache. */
export const KLINE_CHUNK = 4096;
export const TUPLE_COLUMNS = 'open_time, open, high, low, close, volume, close_time, quote_volume, trades, taker_buy_base, taker_buy_quote';
export const SERIES_RANGE = 'symbol = ? AND interval = ? AND open_time >= ? AND open_time < ?';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

export class KlineRows {
  private readonly selectChunk: Statement;

  constructor(db: Database) {
    this.selectChunk = db.prepare(`SELECT ${TUPLE_COLUMNS} FROM klines WHERE ${SERIES_RANGE} ORDER BY open_time LIMIT ${KLINE_CHUNK}`).raw(true);
  }

  /**
   * Tuples (see kline-store.ts `K`), oldest first, open time in [from, to). No cursor stays open
   * between yields, so the caller may write to the same journal while iterating.
   */
  *iterate(symbol: string, interval: string, from?: number, to?: number): Generator<KlineTuple, void, undefined> {
    let cursor = from ?? MIN;
    const end = to ?? MAX;
    for (;;) {
      const rows = this.selectChunk.all(symbol, interval, cursor, end) as KlineTuple[];
      for (let i = 0; i < rows.length; i++) yield rows[i]!;
      if (rows.length < KLINE_CHUNK) return;
      cursor = rows[rows.length - 1]![0] + 1;
    }
  }
}
