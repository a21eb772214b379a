/**
 * Schema 4: the ranges of open times in which the journal holds every bar the exchange has for a
 * kline series (`kline_checked`), so that `halyard record` asks only for the bars it has never
 * asked for: a minute without a trade has no kline, and a hole the exchange answered empty must
 * not be asked for again on every run (data/kline-holes.ts). Ranges are [start_time, end_time) in
 * epoch ms; a series' ranges never overlap or touch (kline-checked-store.ts merges them).
 *
 * Deleting a kline row drops the range holding it (the trigger): the bar is missing again and
 * nothing says the exchange has none there, so the next record looks at that range afresh.
 */
import type { Migration } from './types.ts';

export const migration004: Migration = {
  version: 4,
  name: 'kline-checked',
  sql: `
CREATE TABLE kline_checked (
  symbol     TEXT    NOT NULL,
  interval   TEXT    NOT NULL,
  start_time INTEGER NOT NULL,
  end_time   INTEGER NOT NULL,
  PRIMARY KEY (symbol, interval, start_time),
  CHECK (end_time > start_time)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER kline_checked_row_deleted AFTER DELETE ON klines BEGIN
  DELETE FROM kline_checked WHERE symbol = OLD.symbol AND interval = OLD.interval AND start_time <= OLD.open_time AND end_time > OLD.open_time;
END;
`,
};
