/**
 * Runs (one live session, sandbox session or backtest) and the intents their strategy emitted
 * (design rule 3: strategies return intents; the journal keeps them for replay and diffing).
 */
import type { Database, Statement } from 'better-sqlite3';
import { fromJson, fromJsonOrNull, toJson, toJsonOrNull } from '../json-column.ts';
import { guardWrite } from '../write-guard.ts';

export const RUN_KINDS = ['live', 'sandbox', 'backtest'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export interface RunRecord {
  id: string;
  kind: RunKind;
  strategy: string;
  params: unknown;
  config: unknown;
  startedAt: number;
  endedAt: number | null;
  result: unknown;
}

export interface NewRun {
  id: string;
  kind: RunKind;
  strategy: string;
  params?: unknown;
  config?: unknown;
  startedAt: number;
}

export interface IntentRecord {
  id: number;
  runId: string;
  time: number;
  strategy: string;
  /** e.g. `place`, `cancel`, `replace`, `treasury`: the strategy contract owns the vocabulary. */
  kind: string;
  payload: unknown;
  clientOrderId: string | null;
}

export type NewIntent = Omit<IntentRecord, 'id' | 'clientOrderId'> & { clientOrderId?: string | null };

export type RunRow = { id: string; kind: RunKind; strategy: string; params: string; config: string; started_at: number; ended_at: number | null; result: string | null };
type IntentRow = { id: number; run_id: string; time: number; strategy: string; kind: string; payload: string; client_order_id: string | null };

export class RunStore {
  private readonly insertRun: Statement;
  private readonly finishRun: Statement;
  private readonly selectRun: Statement;
  private readonly selectRuns: Statement;
  private readonly insertIntent: Statement;
  private readonly selectIntents: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertRun = db.prepare('INSERT INTO runs (id, kind, strategy, params, config, started_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.finishRun = db.prepare('UPDATE runs SET ended_at = ?, result = ? WHERE id = ?');
    this.selectRun = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.selectRuns = db.prepare(
      'SELECT * FROM runs WHERE (@kind IS NULL OR kind = @kind) AND (@strategy IS NULL OR strategy = @strategy) ORDER BY started_at, id',
    );
    this.insertIntent = db.prepare('INSERT INTO intents (run_id, time, strategy, kind, payload, client_order_id) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectIntents = db.prepare('SELECT * FROM intents WHERE run_id = ? ORDER BY time, id');
  }

  start(run: NewRun): void {
    guardWrite(this.file, () => `run ${run.id}`, () =>
      this.insertRun.run(run.id, run.kind, run.strategy, toJson(run.params ?? {}), toJson(run.config ?? {}), run.startedAt),
    );
  }

  /** Mark a run ended with its result (metrics, exit reason). Returns false when no such run. */
  finish(id: string, endedAt: number, result: unknown): boolean {
    return this.finishRun.run(endedAt, toJsonOrNull(result), id).changes === 1;
  }

  get(id: string): RunRecord | undefined {
    const row = this.selectRun.get(id) as RunRow | undefined;
    return row && toRun(row);
  }

  list(filter: { kind?: RunKind; strategy?: string } = {}): RunRecord[] {
    return (this.selectRuns.all({ kind: filter.kind ?? null, strategy: filter.strategy ?? null }) as RunRow[]).map(toRun);
  }

  /** Record an intent; returns its row id. The run must exist (foreign key). */
  addIntent(intent: NewIntent): number {
    return guardWrite(this.file, () => `intent of run ${intent.runId} at ${intent.time}`, () =>
      Number(
        this.insertIntent.run(intent.runId, intent.time, intent.strategy, intent.kind, toJson(intent.payload), intent.clientOrderId ?? null)
          .lastInsertRowid,
      ),
    );
  }

  intents(runId: string): IntentRecord[] {
    return (this.selectIntents.all(runId) as IntentRow[]).map((r) => ({
      id: r.id,
      runId: r.run_id,
      time: r.time,
      strategy: r.strategy,
      kind: r.kind,
      payload: fromJson(r.payload),
      clientOrderId: r.client_order_id,
    }));
  }
}

/** A runs row as a RunRecord (the live run store adds its own columns to it). */
export function toRun(r: RunRow): RunRecord {
  return {
    id: r.id,
    kind: r.kind,
    strategy: r.strategy,
    params: fromJson(r.params),
    config: fromJson(r.config),
    startedAt: r.started_at,
    endedAt: r.ended_at,
    result: fromJsonOrNull(r.result),
  };
}
