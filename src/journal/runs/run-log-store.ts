/**
 * `run_log` (schema 5): one row per record a run journaled, written by triggers in the same
 * statement as the record, so it is complete whatever wrote the record. Its `seq` is the journal's
 * write order across tables; explain-run.ts turns the rows into a timeline.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface RunLogRow {
  seq: number;
  time: number;
  /** run-start, intent, request, answer, resolution, order, fill, balance, health, reconciliation, treasury, run-stop */
  kind: string;
  /** The record's id; for a fill `symbol tradeId side`. */
  ref: string;
  /** A request's state at its answer, a treasury action's status at that change. */
  note: string | null;
}

export class RunLogStore {
  private readonly byTime: Statement;
  private readonly bySeq: Statement;
  private readonly lastTime: Statement;

  constructor(db: Database) {
    this.byTime = db.prepare('SELECT seq, time, kind, ref, note FROM run_log WHERE run_id = ? ORDER BY time, seq');
    this.bySeq = db.prepare('SELECT seq, time, kind, ref, note FROM run_log WHERE run_id = ? ORDER BY seq');
    this.lastTime = db.prepare('SELECT max(time) FROM run_log WHERE run_id = ?').pluck(true);
  }

  /** A run's rows by time then journal order (`time`), or in journal order alone (`journal`). */
  rows(runId: string, order: 'time' | 'journal' = 'time'): RunLogRow[] {
    return (order === 'time' ? this.byTime : this.bySeq).all(runId) as RunLogRow[];
  }

  /** The latest time of anything the run journaled; undefined when it journaled nothing. */
  lastActivity(runId: string): number | undefined {
    return (this.lastTime.get(runId) as number | null) ?? undefined;
  }
}
