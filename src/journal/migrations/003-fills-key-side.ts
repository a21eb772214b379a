/**
 * Schema 3: a fill is keyed by (symbol, trade id, side), not (symbol, trade id). The venue's trade
 * ids are per symbol, but one trade is two account trades, a BUY and a SELL, and both can reach one
 * journal: a self-trade where the venue lets it happen, or two accounts (a master and its
 * sub-account) journaled into one file trading with each other. Under the old key the second side
 * was dropped as a duplicate, and its base, quote and commission lost. Writing the same side of a
 * trade again stays a no-op (the stream and a REST resync).
 *
 * SQLite cannot change a primary key in place: the table is rebuilt (rows copied as they are,
 * same columns, same checks) and its indexes made again.
 */
import { D, J } from './001-init.ts';
import type { Migration } from './types.ts';

const COLUMNS = 'symbol, trade_id, run_id, client_order_id, exchange_order_id, side, price, qty, quote_qty, commission, commission_asset, is_maker, time, raw';

export const migration003: Migration = {
  version: 3,
  name: 'fills-key-side',
  sql: `
CREATE TABLE fills_by_side (
  symbol            TEXT    NOT NULL,
  trade_id          TEXT    NOT NULL CHECK (trade_id NOT GLOB '*[^0-9]*' AND trade_id <> ''),
  run_id            TEXT    REFERENCES runs (id),
  -- no foreign key: a fill may belong to an order placed outside Halyard
  client_order_id   TEXT,
  exchange_order_id TEXT,
  side              TEXT    NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price             TEXT    NOT NULL ${D('price')},
  qty               TEXT    NOT NULL ${D('qty')},
  quote_qty         TEXT    NOT NULL ${D('quote_qty')},
  commission        TEXT    NOT NULL ${D('commission')},
  commission_asset  TEXT    NOT NULL,
  is_maker          INTEGER NOT NULL CHECK (is_maker IN (0, 1)),
  time              INTEGER NOT NULL,
  raw               TEXT    ${J('raw', true)},
  PRIMARY KEY (symbol, trade_id, side)
) STRICT;
INSERT INTO fills_by_side (${COLUMNS}) SELECT ${COLUMNS} FROM fills;
DROP TABLE fills;
ALTER TABLE fills_by_side RENAME TO fills;
CREATE INDEX fills_time ON fills (time);
CREATE INDEX fills_order ON fills (client_order_id) WHERE client_order_id IS NOT NULL;
CREATE INDEX fills_run ON fills (run_id) WHERE run_id IS NOT NULL;
`,
};
