/** Balance snapshots (spec 2.7 account balances): one row per snapshot, one line per asset. */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { requireMoneyText } from './money-text.ts';
import { guardWrite } from './write-guard.ts';

export interface AssetBalance {
  asset: string;
  free: string;
  locked: string;
}

export interface BalanceSnapshot {
  id: number;
  runId: string | null;
  takenAt: number;
  /** `rest`, `stream`, `reconciliation`, `backtest`, ... */
  source: string;
  balances: AssetBalance[];
}

export type NewBalanceSnapshot = Omit<BalanceSnapshot, 'id' | 'runId'> & { runId?: string | null };

type Row = { id: number; run_id: string | null; taken_at: number; source: string };

export class BalanceStore {
  private readonly insertHead: Statement;
  private readonly insertLine: Statement;
  private readonly selectAt: Statement;
  private readonly selectLines: Statement;
  private readonly selectByRun: Statement;
  private readonly recordTx: Transaction<(s: NewBalanceSnapshot) => number>;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertHead = db.prepare('INSERT INTO balance_snapshots (run_id, taken_at, source) VALUES (?, ?, ?)');
    this.insertLine = db.prepare('INSERT INTO balances (snapshot_id, asset, free, locked) VALUES (?, ?, ?, ?)');
    this.selectAt = db.prepare(
      'SELECT * FROM balance_snapshots WHERE taken_at <= @time AND (@runId IS NULL OR run_id = @runId) ORDER BY taken_at DESC, id DESC LIMIT 1',
    );
    this.selectByRun = db.prepare('SELECT * FROM balance_snapshots WHERE run_id = ? ORDER BY taken_at, id');
    this.selectLines = db.prepare('SELECT asset, free, locked FROM balances WHERE snapshot_id = ? ORDER BY asset');
    this.recordTx = db.transaction((s: NewBalanceSnapshot) => {
      const id = Number(this.insertHead.run(s.runId ?? null, s.takenAt, s.source).lastInsertRowid);
      for (const b of s.balances) this.insertLine.run(id, b.asset, b.free, b.locked);
      return id;
    });
  }

  /** Store a snapshot with all its lines in one transaction; returns its id. */
  record(snapshot: NewBalanceSnapshot): number {
    for (const b of snapshot.balances) requireMoneyText(this.file, () => `balance snapshot at ${snapshot.takenAt}, ${b.asset}`, b, ['free', 'locked']);
    return guardWrite(this.file, () => `balance snapshot at ${snapshot.takenAt}`, () => this.recordTx(snapshot));
  }

  /** The last snapshot taken at or before `time` (of one run if given). */
  at(time: number, runId?: string): BalanceSnapshot | undefined {
    const row = this.selectAt.get({ time, runId: runId ?? null }) as Row | undefined;
    return row && this.snapshot(row);
  }

  /** Every snapshot of a run, oldest first. */
  byRun(runId: string): BalanceSnapshot[] {
    return (this.selectByRun.all(runId) as Row[]).map((row) => this.snapshot(row));
  }

  private snapshot(row: Row): BalanceSnapshot {
    return { id: row.id, runId: row.run_id, takenAt: row.taken_at, source: row.source, balances: this.selectLines.all(row.id) as AssetBalance[] };
  }

  latest(runId?: string): BalanceSnapshot | undefined {
    return this.at(Number.MAX_SAFE_INTEGER, runId);
  }
}
