/**
 * Schema 1: market data (klines, exchangeInfo snapshots) and the trading record (runs, intents,
 * orders and their events, fills, balance snapshots, treasury actions).
 *
 * Rules held by the schema itself (design rule 4: never money as REAL):
 * - prices, quantities, amounts: TEXT holding plain decimal text, checked by `D(x)` below;
 * - times: INTEGER epoch milliseconds; ids (order ids, trade ids): TEXT, they exceed 2^53;
 * - JSON bodies: TEXT checked with json_valid.
 * Tables are STRICT so an INTEGER column never holds text by accident.
 */
import type { Migration } from './types.ts';

/** Non-negative plain decimal text: digits, at most one dot, at least one digit, no exponent. */
export const D = (col: string, nullable = false): string => {
  const rule = `(${col} NOT GLOB '*[^0-9.]*' AND ${col} GLOB '*[0-9]*' AND ${col} NOT GLOB '*.*.*')`;
  return nullable ? `CHECK (${col} IS NULL OR ${rule})` : `CHECK ${rule}`;
};
/** Signed decimal text (treasury amounts may be negative, e.g. an outflow). */
const SD = (col: string): string =>
  `CHECK (${col} IS NULL OR (ltrim(${col}, '-') NOT GLOB '*[^0-9.]*' AND ${col} GLOB '*[0-9]*' AND ${col} NOT GLOB '*.*.*' AND ${col} NOT GLOB '?*-*'))`;
export const J = (col: string, nullable = false): string => (nullable ? `CHECK (${col} IS NULL OR json_valid(${col}))` : `CHECK (json_valid(${col}))`);

export const migration001: Migration = {
  version: 1,
  name: 'init',
  sql: `
CREATE TABLE klines (
  symbol          TEXT    NOT NULL,
  interval        TEXT    NOT NULL,
  open_time       INTEGER NOT NULL,
  open            TEXT    NOT NULL ${D('open')},
  high            TEXT    NOT NULL ${D('high')},
  low             TEXT    NOT NULL ${D('low')},
  close           TEXT    NOT NULL ${D('close')},
  volume          TEXT    NOT NULL ${D('volume')},
  close_time      INTEGER NOT NULL,
  quote_volume    TEXT    ${D('quote_volume', true)},
  trades          INTEGER,
  taker_buy_base  TEXT    ${D('taker_buy_base', true)},
  taker_buy_quote TEXT    ${D('taker_buy_quote', true)},
  -- where the row came from: 'rest', 'csv:<file name>', ...
  source          TEXT    NOT NULL,
  PRIMARY KEY (symbol, interval, open_time)
) STRICT, WITHOUT ROWID;

CREATE TABLE exchange_info (
  id       INTEGER PRIMARY KEY,
  taken_at INTEGER NOT NULL,
  body     TEXT    NOT NULL ${J('body')}
) STRICT;
CREATE INDEX exchange_info_taken_at ON exchange_info (taken_at, id);

CREATE TABLE runs (
  id         TEXT    PRIMARY KEY,
  kind       TEXT    NOT NULL CHECK (kind IN ('live', 'sandbox', 'backtest')),
  strategy   TEXT    NOT NULL,
  params     TEXT    NOT NULL ${J('params')},
  config     TEXT    NOT NULL ${J('config')},
  started_at INTEGER NOT NULL,
  ended_at   INTEGER,
  result     TEXT    ${J('result', true)}
) STRICT;
CREATE INDEX runs_started ON runs (started_at);

CREATE TABLE intents (
  id              INTEGER PRIMARY KEY,
  run_id          TEXT    NOT NULL REFERENCES runs (id),
  time            INTEGER NOT NULL,
  strategy        TEXT    NOT NULL,
  kind            TEXT    NOT NULL,
  payload         TEXT    NOT NULL ${J('payload')},
  client_order_id TEXT
) STRICT;
CREATE INDEX intents_run_time ON intents (run_id, time, id);
CREATE INDEX intents_client_order_id ON intents (client_order_id) WHERE client_order_id IS NOT NULL;

CREATE TABLE orders (
  client_order_id   TEXT    PRIMARY KEY,
  run_id            TEXT    REFERENCES runs (id),
  symbol            TEXT    NOT NULL,
  side              TEXT    NOT NULL CHECK (side IN ('BUY', 'SELL')),
  type              TEXT    NOT NULL,
  time_in_force     TEXT,
  price             TEXT    ${D('price', true)},
  stop_price        TEXT    ${D('stop_price', true)},
  qty               TEXT    NOT NULL ${D('qty')},
  executed_qty      TEXT    NOT NULL DEFAULT '0' ${D('executed_qty')},
  status            TEXT    NOT NULL,
  exchange_order_id TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  raw               TEXT    ${J('raw', true)}
) STRICT;
CREATE INDEX orders_run ON orders (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX orders_symbol_status ON orders (symbol, status);
CREATE UNIQUE INDEX orders_exchange_id ON orders (symbol, exchange_order_id) WHERE exchange_order_id IS NOT NULL;

CREATE TABLE order_events (
  id              INTEGER PRIMARY KEY,
  client_order_id TEXT    NOT NULL REFERENCES orders (client_order_id),
  time            INTEGER NOT NULL,
  kind            TEXT    NOT NULL,
  status          TEXT,
  payload         TEXT    ${J('payload', true)}
) STRICT;
CREATE INDEX order_events_order ON order_events (client_order_id, id);

CREATE TABLE fills (
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
  PRIMARY KEY (symbol, trade_id)
) STRICT;
CREATE INDEX fills_time ON fills (time);
CREATE INDEX fills_order ON fills (client_order_id) WHERE client_order_id IS NOT NULL;
CREATE INDEX fills_run ON fills (run_id) WHERE run_id IS NOT NULL;

CREATE TABLE balance_snapshots (
  id       INTEGER PRIMARY KEY,
  run_id   TEXT    REFERENCES runs (id),
  taken_at INTEGER NOT NULL,
  source   TEXT    NOT NULL
) STRICT;
CREATE INDEX balance_snapshots_taken_at ON balance_snapshots (taken_at, id);

CREATE TABLE balances (
  snapshot_id INTEGER NOT NULL REFERENCES balance_snapshots (id) ON DELETE CASCADE,
  asset       TEXT    NOT NULL,
  free        TEXT    NOT NULL ${D('free')},
  locked      TEXT    NOT NULL ${D('locked')},
  PRIMARY KEY (snapshot_id, asset)
) STRICT, WITHOUT ROWID;

CREATE TABLE treasury_actions (
  id          TEXT    PRIMARY KEY,
  run_id      TEXT    REFERENCES runs (id),
  time        INTEGER NOT NULL,
  kind        TEXT    NOT NULL,
  asset       TEXT,
  amount      TEXT    ${SD('amount')},
  status      TEXT    NOT NULL,
  updated_at  INTEGER NOT NULL,
  payload     TEXT    NOT NULL ${J('payload')},
  result      TEXT    ${J('result', true)}
) STRICT;
CREATE INDEX treasury_actions_time ON treasury_actions (time, id);
`,
};
