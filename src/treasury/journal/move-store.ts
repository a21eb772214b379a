/**
 * The journal of treasury moves (table `treasury_moves`, schema 7; issue 23 deliverables 3 and 6).
 *
 * The executor's discipline (spec 7.1: a 5xx or a timeout leaves the outcome unknown, so a move is
 * found again by its client id, never sent twice) is held here:
 * - `record` commits the move's row (state `planned`) before anything is sent; the same client id
 *   recorded again returns the row already there (a plan applied twice resumes, never doubles);
 * - `markSent` commits `sent` and counts the attempt before the request leaves;
 * - `update` records what came back: a state, the venue's id, how an unknown outcome was
 *   resolved, the venue's answer, an error text.
 * Amounts are decimal text; a number is refused naming the field (money-text.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import { fromJsonOrNull, toJson, toJsonOrNull } from '../../journal/json-column.ts';
import type { Journal } from '../../journal/journal.ts';
import { requireMoneyText } from '../../journal/money-text.ts';
import { guardWrite } from '../../journal/write-guard.ts';
import { D } from '../../core/money/decimal.ts';
import { MASTER, type Move, type MoveState } from '../moves.ts';

/** States after which nothing more happens to a move. `refused` is not one: nothing was sent, a later apply may try again. */
export const FINAL_STATES: ReadonlySet<MoveState> = new Set(['succeeded', 'failed']);
/** States in which a request may have moved money and the venue has to be asked what happened. */
export const OPEN_STATES: ReadonlySet<MoveState> = new Set(['sent', 'unknown', 'pending']);

/** How an unknown outcome (5xx, timeout) was resolved: where it was looked up and what was found. */
export interface MoveResolution {
  /** The query that answered: `wallet.withdrawHistory`, `fiat.details`, `convert.queryOrderHistory` ... */
  by: string;
  /** The client id (or quote id) it was looked up by. */
  key: string;
  found: boolean;
  /** Server-clock time of the look-up, ms. */
  at: number;
  /** The record found (the venue's fields), when found. */
  record?: unknown;
}

export interface MoveRow {
  clientId: string;
  planId: string;
  seq: number;
  runId: string | null;
  kind: Move['kind'];
  fromAccount: string | null;
  toAccount: string | null;
  asset: string | null;
  toAsset: string | null;
  amount: string | null;
  received: string | null;
  move: Move;
  state: MoveState;
  venueId: string | null;
  attempts: number;
  resolution: MoveResolution | null;
  detail: Record<string, unknown> | null;
  error: string | null;
  createdAt: number;
  sentAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
}

export interface MoveUpdate {
  state: MoveState;
  venueId?: string | undefined;
  received?: string | undefined;
  resolution?: MoveResolution | undefined;
  /** Merged into the row's detail (keys given replace those there). */
  detail?: Record<string, unknown> | undefined;
  /** Replaces the error text; `null` clears it. */
  error?: string | null | undefined;
}

type Row = {
  client_id: string;
  plan_id: string;
  seq: number;
  run_id: string | null;
  kind: Move['kind'];
  from_account: string | null;
  to_account: string | null;
  asset: string | null;
  to_asset: string | null;
  amount: string | null;
  received: string | null;
  move: string;
  state: MoveState;
  venue_id: string | null;
  attempts: number;
  resolution: string | null;
  detail: string | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
  updated_at: number;
  finished_at: number | null;
};

/** The columns a move fills from its own fields. */
function columnsOf(move: Move): Pick<Row, 'from_account' | 'to_account' | 'asset' | 'to_asset' | 'amount'> {
  switch (move.kind) {
    case 'convert':
      return { from_account: move.account, to_account: move.account, asset: move.from, to_asset: move.to, amount: move.sourceAmount };
    case 'transfer':
      return { from_account: move.from, to_account: move.to, asset: move.asset, to_asset: null, amount: move.amount };
    case 'collect':
      return { from_account: null, to_account: MASTER, asset: null, to_asset: null, amount: null };
    case 'withdraw':
      return { from_account: MASTER, to_account: move.destination, asset: move.coin, to_asset: null, amount: move.amount };
    case 'cash-out':
      return { from_account: MASTER, to_account: move.destination, asset: move.currency, to_asset: null, amount: move.amount };
  }
}

export class MoveStore {
  private readonly insert: Statement;
  private readonly sent: Statement;
  private readonly change: Statement;
  private readonly one: Statement;
  private readonly all: Statement;
  private readonly ofPlan: Statement;
  private readonly since: Statement;

  constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {
    this.insert = db.prepare(`
      INSERT INTO treasury_moves (client_id, plan_id, seq, run_id, kind, from_account, to_account, asset, to_asset, amount, move, created_at, updated_at)
      VALUES (@client_id, @plan_id, @seq, @run_id, @kind, @from_account, @to_account, @asset, @to_asset, @amount, @move, @now, @now)
      ON CONFLICT (client_id) DO NOTHING`);
    this.sent = db.prepare(`
      UPDATE treasury_moves SET state = 'sent', attempts = attempts + 1, sent_at = coalesce(sent_at, @now), updated_at = @now,
        detail = @detail, error = NULL WHERE client_id = @id`);
    this.change = db.prepare(`
      UPDATE treasury_moves SET state = @state, venue_id = coalesce(@venue_id, venue_id), received = coalesce(@received, received),
        resolution = coalesce(@resolution, resolution), detail = @detail, error = @error, updated_at = @now,
        finished_at = CASE WHEN @final THEN coalesce(finished_at, @now) ELSE finished_at END
      WHERE client_id = @id`);
    this.one = db.prepare('SELECT * FROM treasury_moves WHERE client_id = ?');
    this.all = db.prepare('SELECT * FROM treasury_moves ORDER BY created_at, plan_id, seq');
    this.ofPlan = db.prepare('SELECT * FROM treasury_moves WHERE plan_id = ? ORDER BY seq');
    this.since = db.prepare(
      "SELECT asset, amount FROM treasury_moves WHERE sent_at >= ? AND amount IS NOT NULL AND asset IS NOT NULL AND state IN ('sent', 'unknown', 'pending', 'succeeded')",
    );
  }

  /**
   * Journal `move` (position `seq` of plan `planId`) as `planned`, committed before anything is
   * sent. When its client id is journaled already, nothing changes and the row there is returned
   * (`created: false`): a plan applied again resumes its moves. A client id journaled for another
   * plan or position is refused: two moves must never share one.
   */
  record(move: Move, where: { planId: string; seq: number; runId?: string | undefined; now: number }): { row: MoveRow; created: boolean } {
    const what = (): string => `treasury move ${move.clientId}`;
    const cols = columnsOf(move);
    requireMoneyText(this.file, what, cols, ['amount']);
    const created = guardWrite(this.file, what, () =>
      this.insert.run({
        client_id: move.clientId,
        plan_id: where.planId,
        seq: where.seq,
        run_id: where.runId ?? null,
        kind: move.kind,
        ...cols,
        move: toJson(move),
        now: where.now,
      }).changes === 1,
    );
    const row = this.get(move.clientId)!;
    if (!created && (row.planId !== where.planId || row.seq !== where.seq || row.kind !== move.kind)) {
      throw new Error(`${what()}: the client id is journaled already for plan ${row.planId} move ${row.seq} (${row.kind}); a client id is used by one move only`);
    }
    return { row, created };
  }

  /** `sent`, one more attempt, committed before the request leaves; `detail` replaces the row's (pass the merged one). */
  markSent(clientId: string, now: number, detail?: Record<string, unknown>): MoveRow {
    const current = this.require(clientId);
    const merged = detail === undefined ? current.detail : { ...(current.detail ?? {}), ...detail };
    this.sent.run({ id: clientId, now, detail: toJsonOrNull(merged ?? undefined) });
    return this.require(clientId);
  }

  /** A new state with what came back; detail keys merge into the row's. */
  update(clientId: string, now: number, change: MoveUpdate): MoveRow {
    const current = this.require(clientId);
    if (change.received !== undefined) requireMoneyText(this.file, () => `treasury move ${clientId}`, change, ['received']);
    const merged = change.detail === undefined ? current.detail : { ...(current.detail ?? {}), ...change.detail };
    guardWrite(this.file, () => `treasury move ${clientId}`, () =>
      this.change.run({
        id: clientId,
        now,
        state: change.state,
        venue_id: change.venueId ?? null,
        received: change.received ?? null,
        resolution: toJsonOrNull(change.resolution),
        detail: toJsonOrNull(merged ?? undefined),
        error: change.error === undefined ? current.error : change.error,
        final: FINAL_STATES.has(change.state) ? 1 : 0,
      }),
    );
    return this.require(clientId);
  }

  get(clientId: string): MoveRow | undefined {
    const row = this.one.get(clientId) as Row | undefined;
    return row && toMoveRow(row);
  }

  /** Every move, oldest plan first, in plan order. */
  list(filter: { planId?: string } = {}): MoveRow[] {
    const rows = (filter.planId === undefined ? this.all.all() : this.ofPlan.all(filter.planId)) as Row[];
    return rows.map(toMoveRow);
  }

  /**
   * What moves sent since `dayStart` (ms, the journal's clock) have moved or may have moved, per
   * source asset (a convert counts its source): succeeded, pending, and sent or unknown ones alike
   * (an unknown outcome may have moved the money). The planner's per-day cap counts against it.
   */
  movedSince(dayStart: number): Record<string, string> {
    const sums = new Map<string, InstanceType<typeof D>>();
    for (const { asset, amount } of this.since.all(dayStart) as { asset: string; amount: string }[]) {
      sums.set(asset, (sums.get(asset) ?? new D(0)).plus(amount));
    }
    return Object.fromEntries([...sums].map(([asset, sum]) => [asset, sum.toFixed()]));
  }

  /** Run `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  private require(clientId: string): MoveRow {
    const row = this.get(clientId);
    if (row === undefined) throw new Error(`treasury move ${clientId} is not in the journal ${this.file}`);
    return row;
  }
}

/** The move store over an open journal (schema 7 or later). */
export function openMoveStore(journal: Pick<Journal, 'db' | 'file'>): MoveStore {
  return new MoveStore(journal.db, journal.file);
}

function toMoveRow(r: Row): MoveRow {
  return {
    clientId: r.client_id,
    planId: r.plan_id,
    seq: r.seq,
    runId: r.run_id,
    kind: r.kind,
    fromAccount: r.from_account,
    toAccount: r.to_account,
    asset: r.asset,
    toAsset: r.to_asset,
    amount: r.amount,
    received: r.received,
    move: JSON.parse(r.move) as Move,
    state: r.state,
    venueId: r.venue_id,
    attempts: r.attempts,
    resolution: fromJsonOrNull(r.resolution) as MoveResolution | null,
    detail: fromJsonOrNull(r.detail) as Record<string, unknown> | null,
    error: r.error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
  };
}
