/**
 * Schema 7: the treasury's moves (issue 23 deliverables 3 and 6; spec 4.2, 4.6, 4.8, 4.9, 7.1).
 *
 * One row per move of a plan (src/treasury/moves.ts), keyed by the move's client id: the
 * `clientTranId`, `clientRequestId`, `withdrawOrderId` or `internalOrderId` the request carries (a
 * conversion has no venue client id: its handle is the quote id, kept in `detail` before the
 * accept leaves). The row is committed before the request leaves (state `planned`, then `sent`
 * with `attempts` counted), so a crash or a 5xx in between leaves a row a later apply resolves by
 * querying with that id, never by sending again (spec 7.1). `resolution` says how an unknown
 * outcome was resolved (which history, found or not); `treasury history` prints it.
 *
 * The older `treasury_actions` table (schema 1) is a free-form log with no client-id discipline;
 * moves get their own table so the states and the uniqueness are held by the schema itself.
 */
import { D, J } from './001-init.ts';
import type { Migration } from './types.ts';

export const MOVE_KINDS = ['convert', 'transfer', 'collect', 'withdraw', 'cash-out'] as const;
export const MOVE_STATES = ['planned', 'sent', 'unknown', 'pending', 'succeeded', 'failed', 'refused'] as const;

const list = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

export const migration007: Migration = {
  version: 7,
  name: 'treasury-moves',
  sql: `
CREATE TABLE treasury_moves (
  client_id    TEXT    PRIMARY KEY CHECK (client_id <> ''),
  plan_id      TEXT    NOT NULL CHECK (plan_id <> ''),
  -- position of the move in its plan, from 0
  seq          INTEGER NOT NULL CHECK (seq >= 0),
  -- the bot run that applied it; NULL for 'halyard treasury apply'
  run_id       TEXT,
  kind         TEXT    NOT NULL CHECK (kind IN (${list(MOVE_KINDS)})),
  -- 'master' or a sub-account email: a transfer's from and to, a convert's account (from), a withdraw's and cash-out's 'master'
  from_account TEXT,
  to_account   TEXT,
  -- the asset moved (a convert's source, a withdraw's coin, a cash-out's currency); to_asset: a convert's target
  asset        TEXT,
  to_asset     TEXT,
  amount       TEXT    ${D('amount', true)},
  -- what arrived: a convert's target amount, once known
  received     TEXT    ${D('received', true)},
  -- the move as planned (moves.ts), JSON
  move         TEXT    NOT NULL ${J('move')},
  state        TEXT    NOT NULL DEFAULT 'planned' CHECK (state IN (${list(MOVE_STATES)})),
  -- the venue's id: convert orderId, withdrawal id, fiat order id, the transfer's client id echoed
  venue_id     TEXT,
  -- requests sent that could have moved money (a convert counts each accept; quotes are in detail)
  attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- how an unknown outcome was resolved: {by, found, at, record?}
  resolution   TEXT    ${J('resolution', true)},
  -- the venue's last answer and what the executor saw (quotes, the guard's numbers), JSON
  detail       TEXT    ${J('detail', true)},
  error        TEXT,
  created_at   INTEGER NOT NULL,
  sent_at      INTEGER,
  updated_at   INTEGER NOT NULL,
  -- when the state became final (succeeded, failed); refused is not final: a later apply may try again
  finished_at  INTEGER,
  UNIQUE (plan_id, seq)
) STRICT;
CREATE INDEX treasury_moves_time ON treasury_moves (created_at, plan_id, seq);
CREATE INDEX treasury_moves_open ON treasury_moves (updated_at) WHERE state IN ('sent', 'unknown', 'pending');
`,
};
