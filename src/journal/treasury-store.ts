/**
 * Treasury actions (convert, transfer, withdraw ...; spec 4.2, 4.3, 4.6): what was planned, what
 * the venue answered. Keyed by the action's own id (its client id), so a retry updates, never doubles.
 */
import type { Database, Statement } from 'better-sqlite3';
import { fromJson, fromJsonOrNull, toJson, toJsonOrNull } from './json-column.ts';
import { requireMoneyText } from './money-text.ts';
import { guardWrite } from './write-guard.ts';

export interface TreasuryAction {
  id: string;
  runId: string | null;
  time: number;
  /** `convert`, `transfer`, `withdraw`, `sub-transfer`, ...: the treasury module owns the vocabulary. */
  kind: string;
  asset: string | null;
  /** Signed decimal text. */
  amount: string | null;
  status: string;
  updatedAt: number;
  payload: unknown;
  result: unknown;
}

export type NewTreasuryAction = Pick<TreasuryAction, 'id' | 'time' | 'kind' | 'status' | 'payload'> &
  Partial<Pick<TreasuryAction, 'runId' | 'asset' | 'amount'>>;

type Row = {
  id: string;
  run_id: string | null;
  time: number;
  kind: string;
  asset: string | null;
  amount: string | null;
  status: string;
  updated_at: number;
  payload: string;
  result: string | null;
};

export class TreasuryStore {
  private readonly insert: Statement;
  private readonly update: Statement;
  private readonly selectOne: Statement;
  private readonly selectList: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insert = db.prepare(`
      INSERT INTO treasury_actions (id, run_id, time, kind, asset, amount, status, updated_at, payload)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`);
    this.update = db.prepare('UPDATE treasury_actions SET status = ?, updated_at = ?, result = coalesce(?, result) WHERE id = ?');
    this.selectOne = db.prepare('SELECT * FROM treasury_actions WHERE id = ?');
    this.selectList = db.prepare(
      'SELECT * FROM treasury_actions WHERE (@runId IS NULL OR run_id = @runId) AND time >= @from AND time < @to ORDER BY time, id',
    );
  }

  /** Record a planned action; false when this id exists already (nothing changes). */
  record(action: NewTreasuryAction): boolean {
    requireMoneyText(this.file, () => `treasury action ${action.id}`, action, ['amount']);
    return guardWrite(this.file, () => `treasury action ${action.id}`, () =>
      this.insert.run(
        action.id,
        action.runId ?? null,
        action.time,
        action.kind,
        action.asset ?? null,
        action.amount ?? null,
        action.status,
        action.time,
        toJson(action.payload),
      ).changes === 1,
    );
  }

  /** New status (and the venue's answer); false when the id is unknown. */
  setStatus(id: string, status: string, updatedAt: number, result?: unknown): boolean {
    return this.update.run(status, updatedAt, toJsonOrNull(result), id).changes === 1;
  }

  get(id: string): TreasuryAction | undefined {
    const row = this.selectOne.get(id) as Row | undefined;
    return row && toAction(row);
  }

  /** Actions with time in [from, to), of one run if given, oldest first. */
  list(filter: { runId?: string; from?: number; to?: number } = {}): TreasuryAction[] {
    return (this.selectList.all({ runId: filter.runId ?? null, from: filter.from ?? Number.MIN_SAFE_INTEGER, to: filter.to ?? Number.MAX_SAFE_INTEGER }) as Row[]).map(toAction);
  }
}

function toAction(r: Row): TreasuryAction {
  return {
    id: r.id,
    runId: r.run_id,
    time: r.time,
    kind: r.kind,
    asset: r.asset,
    amount: r.amount,
    status: r.status,
    updatedAt: r.updated_at,
    payload: fromJson(r.payload),
    result: fromJsonOrNull(r.result),
  };
}
