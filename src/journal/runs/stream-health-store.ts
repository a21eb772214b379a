/**
 * Changes of a stream's health (issue 20 deliverable 3: CONNECTING, LIVE, STALE, RESYNCING, DOWN;
 * the user stream and each market stream), so a run's journal says when orders were denied with
 * STREAM_NOT_LIVE and why a resync ran. The stream code owns the vocabulary of states; the
 * journal keeps what it is told, one row per change.
 */
import type { Database, Statement } from 'better-sqlite3';
import { JournalError } from '../errors.ts';
import { guardWrite } from '../write-guard.ts';

export interface StreamHealthChange {
  id: number;
  runId: string;
  time: number;
  /** e.g. `user`, `btcphp@depth`. */
  stream: string;
  /** Null for a stream's first state. */
  from: string | null;
  to: string;
  /** e.g. `listen key expired (-1125)`, `no message for 60000 ms`. */
  reason: string | null;
}

export type NewStreamHealthChange = Omit<StreamHealthChange, 'id' | 'from' | 'reason'> & { from?: string | null; reason?: string | null };

type Row = { id: number; run_id: string; time: number; stream: string; from_state: string | null; to_state: string; reason: string | null };

export class StreamHealthStore {
  private readonly insert: Statement;
  private readonly selectById: Statement;
  private readonly selectByRun: Statement;
  private readonly selectLatest: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insert = db.prepare('INSERT INTO stream_health (run_id, time, stream, from_state, to_state, reason) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectById = db.prepare('SELECT * FROM stream_health WHERE id = ?');
    this.selectByRun = db.prepare('SELECT * FROM stream_health WHERE run_id = @runId AND (@stream IS NULL OR stream = @stream) ORDER BY time, id');
    this.selectLatest = db.prepare('SELECT * FROM stream_health WHERE run_id = ? AND stream = ? ORDER BY time DESC, id DESC LIMIT 1');
  }

  /** Record one change; returns its id. The run must exist. */
  record(change: NewStreamHealthChange): number {
    const what = (): string => `health of stream ${change.stream} at ${change.time}`;
    if (typeof change.stream !== 'string' || change.stream === '') throw new JournalError('INVALID_RECORD', this.file, `${what()}: stream must be a non-empty name`);
    if (typeof change.to !== 'string' || change.to === '') throw new JournalError('INVALID_RECORD', this.file, `${what()}: to must be a non-empty state`);
    return guardWrite(this.file, what, () =>
      Number(this.insert.run(change.runId, change.time, change.stream, change.from ?? null, change.to, change.reason ?? null).lastInsertRowid),
    );
  }

  byId(id: number): StreamHealthChange | undefined {
    const row = this.selectById.get(id) as Row | undefined;
    return row && toChange(row);
  }

  /** A run's changes (of one stream if given), in time order. */
  byRun(runId: string, stream?: string): StreamHealthChange[] {
    return (this.selectByRun.all({ runId, stream: stream ?? null }) as Row[]).map(toChange);
  }

  /** The stream's last change in the run. */
  latest(runId: string, stream: string): StreamHealthChange | undefined {
    const row = this.selectLatest.get(runId, stream) as Row | undefined;
    return row && toChange(row);
  }
}

function toChange(r: Row): StreamHealthChange {
  return { id: r.id, runId: r.run_id, time: r.time, stream: r.stream, from: r.from_state, to: r.to_state, reason: r.reason };
}
