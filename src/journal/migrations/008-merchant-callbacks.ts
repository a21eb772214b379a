/**
 * Schema 8: merchant invoice callbacks (issue 23 deliverable 5; spec 2.13, 3.2, 6.1).
 *
 * - `merchant_invoice_events`: every authenticated callback event, once. Spec 6.1's body carries
 *   no event id, so an event is named by (invoice id, event name, amount received): a redelivery
 *   of the same event has the same three and only bumps `deliveries`; a second payment of the
 *   same invoice has a larger amount received and is a new event. The UNIQUE key is what makes
 *   applying idempotent even when two deliveries race.
 * - `merchant_invoices`: the receiver's knowledge of each invoice (status of spec 3.2, amounts
 *   as decimal text).
 * - `merchant_invoice_transitions`: each change of that knowledge, with what showed it: a
 *   callback event (`event_id`) or a query of get-invoices (a transition whose callback never
 *   came, found when callbacks stopped or at start).
 */
import { J } from './001-init.ts';
import type { Migration } from './types.ts';

const STATUS = "('pending', 'fully_paid', 'expired', 'canceled')";

export const migration008: Migration = {
  version: 8,
  name: 'merchant-callbacks',
  sql: `
CREATE TABLE merchant_invoice_events (
  id              INTEGER PRIMARY KEY,
  invoice_id      TEXT    NOT NULL CHECK (invoice_id <> ''),
  event           TEXT    NOT NULL,
  amount_received TEXT    NOT NULL,
  body            TEXT    NOT NULL ${J('body')},
  received_at     INTEGER NOT NULL,
  deliveries      INTEGER NOT NULL DEFAULT 1 CHECK (deliveries >= 1),
  last_delivery_at INTEGER NOT NULL,
  UNIQUE (invoice_id, event, amount_received)
) STRICT;
CREATE TABLE merchant_invoices (
  invoice_id              TEXT    PRIMARY KEY CHECK (invoice_id <> ''),
  currency                TEXT    NOT NULL,
  amount                  TEXT    NOT NULL,
  amount_received         TEXT    NOT NULL,
  status                  TEXT    NOT NULL CHECK (status IN ${STATUS}),
  external_transaction_id TEXT    NOT NULL,
  -- the venue's creation time, once a query has shown it
  created_at              INTEGER,
  updated_at              INTEGER NOT NULL
) STRICT;
CREATE TABLE merchant_invoice_transitions (
  id            INTEGER PRIMARY KEY,
  invoice_id    TEXT    NOT NULL REFERENCES merchant_invoices (invoice_id),
  at            INTEGER NOT NULL,
  source        TEXT    NOT NULL CHECK (source IN ('callback', 'query')),
  event_id      INTEGER REFERENCES merchant_invoice_events (id),
  from_status   TEXT    CHECK (from_status IS NULL OR from_status IN ${STATUS}),
  to_status     TEXT    NOT NULL CHECK (to_status IN ${STATUS}),
  from_received TEXT,
  to_received   TEXT    NOT NULL,
  CHECK ((source = 'callback') = (event_id IS NOT NULL))
) STRICT;
CREATE INDEX merchant_invoice_transitions_invoice ON merchant_invoice_transitions (invoice_id, id);
CREATE INDEX merchant_invoices_open ON merchant_invoices (created_at) WHERE status = 'pending';
`,
};
