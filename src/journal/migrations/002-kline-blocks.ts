/**
 * Schema 2: a columnar cache of kline price columns beside the TEXT rows (kline-blocks.ts holds
 * the format). The `klines` rows stay the truth: a block is a derived copy of up to BLOCK_ROWS
 * (1024) consecutive rows of one series (open time, close time and OHLCV: the numbers a replay computes
 * with AND the exact decimal text of every price and volume, byte for byte), so a backtest reads a
 * year of bars in ~513 BLOB reads instead of 525,600 rows of seven columns each.
 *
 * A block covers the open times [start, stop): every kline row of its series in that range is in
 * it. Blocks of a series never overlap (the unique index on `stop` is what the triggers seek). Any
 * write to a row in a block's range (insert, upsert, update, delete, from Halyard or raw SQL)
 * deletes that block in the same statement (the triggers below); readers then fall back to the
 * TEXT rows there until the range is packed again (KlineStore does on its next write there).
 * Doubles live in a BLOB, not in REAL columns: nothing in SQL can mistake them for money.
 */
import type { Migration } from './types.ts';

/** Delete the block of series (s, i) whose range holds open time t (none when t is in no block). */
const drop = (s: string, i: string, t: string): string =>
  `DELETE FROM kline_blocks WHERE id = (SELECT id FROM kline_blocks WHERE symbol = ${s} AND interval = ${i} AND stop > ${t} ORDER BY stop LIMIT 1) AND start <= ${t};`;

export const migration002: Migration = {
  version: 2,
  name: 'kline-blocks',
  sql: `
CREATE TABLE kline_blocks (
  id       INTEGER PRIMARY KEY,
  symbol   TEXT    NOT NULL,
  interval TEXT    NOT NULL,
  -- open time of the first row; open time of the last row + 1
  start    INTEGER NOT NULL,
  stop     INTEGER NOT NULL CHECK (stop > start),
  count    INTEGER NOT NULL CHECK (count > 0),
  data     BLOB    NOT NULL
) STRICT;
CREATE UNIQUE INDEX kline_blocks_stop ON kline_blocks (symbol, interval, stop);

CREATE TRIGGER klines_insert_drops_block AFTER INSERT ON klines BEGIN
  ${drop('NEW.symbol', 'NEW.interval', 'NEW.open_time')}
END;
CREATE TRIGGER klines_update_drops_block AFTER UPDATE ON klines BEGIN
  ${drop('OLD.symbol', 'OLD.interval', 'OLD.open_time')}
  ${drop('NEW.symbol', 'NEW.interval', 'NEW.open_time')}
END;
CREATE TRIGGER klines_delete_drops_block AFTER DELETE ON klines BEGIN
  ${drop('OLD.symbol', 'OLD.interval', 'OLD.open_time')}
END;
`,
};
