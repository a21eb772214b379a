/**
 * Schema 5: the journal of live runs (issue 20, deliverable 7; ground rule "never send an order
 * twice"). A run's rows alone explain what the bot did and why:
 *
 * - `runs` gains the live lifecycle: the strategies with their params, and how the run ended
 *   (`exit_reason`: stopped, signal, error, or crashed when the next run found it unfinished) with
 *   its details;
 * - `requests`: every outbound order request, written before it leaves (its client order id is
 *   deterministic), then its answer (acknowledged, rejected, unknown) and, for an unknown outcome,
 *   what the query found (resolved). Unique by (client order id, command kind): a request that is
 *   already there is never sent again. Start-up reconciliation reads the ones still `sent` or
 *   `unknown`;
 * - `order_events.run_id`: which run saw the change (an adopted order placed by an earlier run
 *   changes state under the next one);
 * - `fills` unique by (symbol, exchange order id, trade id) as well: the issue's (orderId,
 *   tradeId) key. It names the same row as the existing key (symbol, trade id, side): a venue
 *   trade matches exactly one BUY order and one SELL order (notes 4: `b` buyer and `a` seller order
 *   id), and an order has one symbol and one side, so each of the two keys determines the other.
 *   The index turns a contradiction (the same order and trade reported with the other side) into
 *   an error instead of a second fill;
 * - `stream_health`: each change of a stream's health (CONNECTING, LIVE, STALE, RESYNCING, DOWN);
 * - `reconciliations`: each start-up or resync report, a summary line and the structured report;
 * - `run_log`: one row per thing a run journaled, written by the triggers below in the same
 *   statement, so nothing a store (or raw SQL) writes can miss it. Its `seq` is the journal's own
 *   order across tables: the tie-break when two records carry the same time (virtual time, one
 *   millisecond), and the order in which the bot learned things.
 */
import { J } from './001-init.ts';
import type { Migration } from './types.ts';

/** A trigger that appends one `run_log` row after `event` on `table` (when `when` holds). */
const log = (name: string, event: string, table: string, when: string, row: { run: string; time: string; kind: string; ref: string; note?: string }): string => `
CREATE TRIGGER ${name} AFTER ${event} ON ${table} ${when ? `WHEN ${when}` : ''} BEGIN
  INSERT INTO run_log (run_id, time, kind, ref, note) VALUES (${row.run}, ${row.time}, ${row.kind}, ${row.ref}, ${row.note ?? 'NULL'});
END;`;

const FILL_REF = "NEW.symbol || ' ' || NEW.trade_id || ' ' || NEW.side";

export const migration005: Migration = {
  version: 5,
  name: 'live-runs',
  sql: `
ALTER TABLE runs ADD COLUMN strategies TEXT ${J('strategies', true)};
ALTER TABLE runs ADD COLUMN exit_reason TEXT CHECK (exit_reason IS NULL OR exit_reason IN ('stopped', 'signal', 'error', 'crashed'));
ALTER TABLE runs ADD COLUMN exit_detail TEXT ${J('exit_detail', true)};
CREATE INDEX runs_open ON runs (kind, started_at) WHERE ended_at IS NULL;

ALTER TABLE order_events ADD COLUMN run_id TEXT REFERENCES runs (id);
UPDATE order_events SET run_id = (SELECT run_id FROM orders WHERE orders.client_order_id = order_events.client_order_id);

CREATE UNIQUE INDEX fills_order_trade ON fills (symbol, exchange_order_id, trade_id) WHERE exchange_order_id IS NOT NULL;

CREATE TABLE requests (
  id                     INTEGER PRIMARY KEY,
  run_id                 TEXT    NOT NULL REFERENCES runs (id),
  -- place: the new order's id; cancel: the id of the order to cancel; cancelReplace: the new order's id
  client_order_id        TEXT    NOT NULL CHECK (client_order_id <> ''),
  kind                   TEXT    NOT NULL CHECK (kind IN ('place', 'cancel', 'cancelReplace')),
  symbol                 TEXT    NOT NULL,
  -- cancelReplace: the order it cancels
  cancel_client_order_id TEXT,
  request                TEXT    NOT NULL ${J('request')},
  sent_at                INTEGER NOT NULL,
  state                  TEXT    NOT NULL DEFAULT 'sent' CHECK (state IN ('sent', 'acknowledged', 'rejected', 'unknown', 'resolved')),
  answered_at            INTEGER,
  answer                 TEXT    ${J('answer', true)},
  resolved_at            INTEGER,
  resolution             TEXT    ${J('resolution', true)},
  UNIQUE (client_order_id, kind)
) STRICT;
-- A new order's client id is used once, whichever command carried it (place or cancelReplace).
CREATE UNIQUE INDEX requests_new_order ON requests (client_order_id) WHERE kind IN ('place', 'cancelReplace');
CREATE INDEX requests_run ON requests (run_id, sent_at, id);
CREATE INDEX requests_pending ON requests (sent_at, id) WHERE state IN ('sent', 'unknown');

CREATE TABLE stream_health (
  id         INTEGER PRIMARY KEY,
  run_id     TEXT    NOT NULL REFERENCES runs (id),
  time       INTEGER NOT NULL,
  stream     TEXT    NOT NULL,
  from_state TEXT,
  to_state   TEXT    NOT NULL,
  reason     TEXT
) STRICT;
CREATE INDEX stream_health_run ON stream_health (run_id, stream, time, id);

CREATE TABLE reconciliations (
  id      INTEGER PRIMARY KEY,
  run_id  TEXT    NOT NULL REFERENCES runs (id),
  time    INTEGER NOT NULL,
  kind    TEXT    NOT NULL CHECK (kind IN ('startup', 'resync')),
  summary TEXT    NOT NULL,
  report  TEXT    NOT NULL ${J('report')}
) STRICT;
CREATE INDEX reconciliations_run ON reconciliations (run_id, time, id);

CREATE TABLE run_log (
  seq    INTEGER PRIMARY KEY,
  run_id TEXT    NOT NULL,
  time   INTEGER NOT NULL,
  kind   TEXT    NOT NULL,
  -- the record: its id, or for a fill 'symbol tradeId side'
  ref    TEXT    NOT NULL,
  -- what the record does not keep itself: a request's state at that answer, a treasury status
  note   TEXT
) STRICT;
CREATE INDEX run_log_run ON run_log (run_id, time, seq);

-- Records journaled before schema 5, so an earlier run explains itself too (journal order = time order there).
INSERT INTO run_log (run_id, time, kind, ref, note)
SELECT run_id, time, kind, ref, note FROM (
  SELECT id AS run_id, started_at AS time, 'run-start' AS kind, id AS ref, NULL AS note, 0 AS k, 0 AS n FROM runs
  UNION ALL SELECT run_id, time, 'intent', CAST(id AS TEXT), NULL, 1, id FROM intents
  UNION ALL SELECT run_id, time, 'order', CAST(id AS TEXT), NULL, 2, id FROM order_events WHERE run_id IS NOT NULL
  UNION ALL SELECT run_id, time, 'fill', symbol || ' ' || trade_id || ' ' || side, NULL, 3, 0 FROM fills WHERE run_id IS NOT NULL
  UNION ALL SELECT run_id, taken_at, 'balance', CAST(id AS TEXT), NULL, 4, id FROM balance_snapshots WHERE run_id IS NOT NULL
  UNION ALL SELECT run_id, time, 'treasury', id, status, 5, 0 FROM treasury_actions WHERE run_id IS NOT NULL
  UNION ALL SELECT id, ended_at, 'run-stop', id, NULL, 6, 0 FROM runs WHERE ended_at IS NOT NULL
) ORDER BY time, k, n;
${log('runs_log_start', 'INSERT', 'runs', '', { run: 'NEW.id', time: 'NEW.started_at', kind: "'run-start'", ref: 'NEW.id' })}
${log('runs_log_stop', 'UPDATE OF ended_at', 'runs', 'OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL', { run: 'NEW.id', time: 'NEW.ended_at', kind: "'run-stop'", ref: 'NEW.id', note: 'NEW.exit_reason' })}
${log('intents_log', 'INSERT', 'intents', '', { run: 'NEW.run_id', time: 'NEW.time', kind: "'intent'", ref: 'NEW.id' })}
${log('requests_log_sent', 'INSERT', 'requests', '', { run: 'NEW.run_id', time: 'NEW.sent_at', kind: "'request'", ref: 'NEW.id', note: 'NEW.state' })}
${log('requests_log_answer', 'UPDATE OF state', 'requests', "NEW.state <> OLD.state AND NEW.state <> 'resolved'", { run: 'NEW.run_id', time: 'coalesce(NEW.answered_at, NEW.sent_at)', kind: "'answer'", ref: 'NEW.id', note: 'NEW.state' })}
${log('requests_log_resolved', 'UPDATE OF state', 'requests', "NEW.state <> OLD.state AND NEW.state = 'resolved'", { run: 'NEW.run_id', time: 'coalesce(NEW.resolved_at, NEW.answered_at, NEW.sent_at)', kind: "'resolution'", ref: 'NEW.id', note: 'NEW.state' })}
${log('order_events_log', 'INSERT', 'order_events', 'NEW.run_id IS NOT NULL', { run: 'NEW.run_id', time: 'NEW.time', kind: "'order'", ref: 'NEW.id' })}
${log('fills_log', 'INSERT', 'fills', 'NEW.run_id IS NOT NULL', { run: 'NEW.run_id', time: 'NEW.time', kind: "'fill'", ref: FILL_REF })}
${log('balance_snapshots_log', 'INSERT', 'balance_snapshots', 'NEW.run_id IS NOT NULL', { run: 'NEW.run_id', time: 'NEW.taken_at', kind: "'balance'", ref: 'NEW.id' })}
${log('stream_health_log', 'INSERT', 'stream_health', '', { run: 'NEW.run_id', time: 'NEW.time', kind: "'health'", ref: 'NEW.id' })}
${log('reconciliations_log', 'INSERT', 'reconciliations', '', { run: 'NEW.run_id', time: 'NEW.time', kind: "'reconciliation'", ref: 'NEW.id' })}
${log('treasury_log_new', 'INSERT', 'treasury_actions', 'NEW.run_id IS NOT NULL', { run: 'NEW.run_id', time: 'NEW.time', kind: "'treasury'", ref: 'NEW.id', note: 'NEW.status' })}
${log('treasury_log_status', 'UPDATE OF status', 'treasury_actions', 'NEW.run_id IS NOT NULL AND NEW.status <> OLD.status', { run: 'NEW.run_id', time: 'NEW.updated_at', kind: "'treasury'", ref: 'NEW.id', note: 'NEW.status' })}
`,
};
