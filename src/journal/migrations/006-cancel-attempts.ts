/**
 * Schema 6: a cancel can be sent again (issue 20, left item 4). Requests were unique by (client
 * order id, kind), so a second cancel of the same order was refused locally as "sent already";
 * a strategy whose cancel met an unknown outcome (timeout, 5xx) could never cancel that order
 * again. A cancel is idempotent at the venue (spec 4.5: cancelling an order that is filled,
 * cancelled or gone is refused -2011, nothing else happens), so a second one is safe.
 *
 * `requests.attempt` numbers the requests of one (client order id, kind): 1 for the first; a
 * cancel journaled again gets the next number (request-store.ts `record`). Unique by (client order
 * id, kind, attempt). A new order stays strictly once: `requests_new_order` (schema 5) keeps its
 * client id unique across place and cancelReplace whatever the attempt, and the store never
 * journals a second attempt of either.
 *
 * SQLite cannot change a table's UNIQUE constraint in place: the table is rebuilt with its rows
 * (ids kept, so `run_log.ref` still names them; every existing row is attempt 1), and its indexes
 * and run_log triggers are made again as schema 5 made them.
 */
import { J } from './001-init.ts';
import type { Migration } from './types.ts';

const LOG = (name: string, event: string, when: string, row: { time: string; kind: string }): string => `
CREATE TRIGGER ${name} AFTER ${event} ON requests ${when ? `WHEN ${when}` : ''} BEGIN
  INSERT INTO run_log (run_id, time, kind, ref, note) VALUES (NEW.run_id, ${row.time}, ${row.kind}, NEW.id, NEW.state);
END;`;

export const migration006: Migration = {
  version: 6,
  name: 'cancel-attempts',
  sql: `
CREATE TABLE requests_v6 (
  id                     INTEGER PRIMARY KEY,
  run_id                 TEXT    NOT NULL REFERENCES runs (id),
  -- place: the new order's id; cancel: the id of the order to cancel; cancelReplace: the new order's id
  client_order_id        TEXT    NOT NULL CHECK (client_order_id <> ''),
  kind                   TEXT    NOT NULL CHECK (kind IN ('place', 'cancel', 'cancelReplace')),
  -- 1, 2, ...: the how-manieth request of this (client order id, kind); only a cancel goes past 1
  attempt                INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1 AND (attempt = 1 OR kind = 'cancel')),
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
  UNIQUE (client_order_id, kind, attempt)
) STRICT;
INSERT INTO requests_v6 (id, run_id, client_order_id, kind, attempt, symbol, cancel_client_order_id, request, sent_at, state, answered_at, answer, resolved_at, resolution)
SELECT id, run_id, client_order_id, kind, 1, symbol, cancel_client_order_id, request, sent_at, state, answered_at, answer, resolved_at, resolution FROM requests;
DROP TABLE requests;
ALTER TABLE requests_v6 RENAME TO requests;
-- A new order's client id is used once, whichever command carried it (place or cancelReplace).
CREATE UNIQUE INDEX requests_new_order ON requests (client_order_id) WHERE kind IN ('place', 'cancelReplace');
CREATE INDEX requests_run ON requests (run_id, sent_at, id);
CREATE INDEX requests_pending ON requests (sent_at, id) WHERE state IN ('sent', 'unknown');
${LOG('requests_log_sent', 'INSERT', '', { time: 'NEW.sent_at', kind: "'request'" })}
${LOG('requests_log_answer', 'UPDATE OF state', "NEW.state <> OLD.state AND NEW.state <> 'resolved'", { time: 'coalesce(NEW.answered_at, NEW.sent_at)', kind: "'answer'" })}
${LOG('requests_log_resolved', 'UPDATE OF state', "NEW.state <> OLD.state AND NEW.state = 'resolved'", { time: 'coalesce(NEW.resolved_at, NEW.answered_at, NEW.sent_at)', kind: "'resolution'" })}
`,
};
