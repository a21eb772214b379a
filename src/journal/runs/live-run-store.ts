/**
 * The lifecycle of a live (or sandbox) run, issue 20 deliverable 7: its start with the config
 * (secrets redacted, redact-secrets.ts), the strategies and their params; its stop with the exit
 * reason. A process that dies (SIGKILL, power cut, OOM) writes no stop: the next run of the same
 * kind that begins on this journal marks it `crashed`, ended at the last thing it journaled
 * (run_log, schema 5), in the same transaction that starts the new run. So a journal is meant
 * for one live process at a time per run kind: a second one starting beside a running one would
 * mark it crashed (it reads the first's requests as pending, too).
 *
 * Rows live in `runs` (schema 1) with schema 5's columns; RunStore reads the same rows without them.
 */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { JournalError } from '../errors.ts';
import { fromJsonOrNull, toJson, toJsonOrNull } from '../json-column.ts';
import { redactSecrets } from './redact-secrets.ts';
import { toRun, type RunRecord, type RunRow } from './run-store.ts';
import { guardWrite } from '../write-guard.ts';

/** How a run ended: a clean stop, a signal (SIGINT/SIGTERM), a fatal error caught, or found unfinished. */
export const EXIT_REASONS = ['stopped', 'signal', 'error', 'crashed'] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

export type LiveRunKind = 'live' | 'sandbox';

export interface RunStrategy {
  name: string;
  params?: unknown;
  symbols?: readonly string[];
}

export interface NewLiveRun {
  id: string;
  /** Default `live`. */
  kind?: LiveRunKind;
  strategies: readonly RunStrategy[];
  /** The effective config; redacted before it is written. */
  config: unknown;
  /** Secret values (API key and secret, ...) to replace wherever they occur in config or params. */
  secrets?: readonly (string | undefined)[];
  startedAt: number;
}

export interface RunStop {
  endedAt: number;
  reason: Exclude<ExitReason, 'crashed'>;
  /** e.g. `{ signal: 'SIGTERM' }`, `{ message }` of the error. */
  detail?: unknown;
  /** Metrics of the run, kept in `runs.result`. */
  result?: unknown;
}

export interface LiveRunRecord extends RunRecord {
  strategies: RunStrategy[];
  exitReason: ExitReason | null;
  /** For `crashed`: `{ detectedAt, detectedBy, lastActivityAt }`. */
  exitDetail: unknown;
}

export interface CrashDetail {
  /** The start of the run that found it unfinished. */
  detectedAt: number;
  detectedBy: string;
  /** The time of the last record it journaled (its start when none): its `endedAt`. */
  lastActivityAt: number;
}

type Row = RunRow & {
  strategies: string | null;
  exit_reason: ExitReason | null;
  exit_detail: string | null;
};

export class LiveRunStore {
  private readonly insertRun: Statement;
  private readonly selectOpen: Statement;
  private readonly selectLastActivity: Statement;
  private readonly markEnded: Statement;
  private readonly selectRun: Statement;
  private readonly selectRuns: Statement;
  private readonly beginTx: Transaction<(run: NewLiveRun) => LiveRunRecord[]>;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertRun = db.prepare('INSERT INTO runs (id, kind, strategy, params, config, started_at, strategies) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.selectOpen = db.prepare('SELECT * FROM runs WHERE kind = ? AND ended_at IS NULL ORDER BY started_at, id');
    this.selectLastActivity = db.prepare('SELECT max(time) FROM run_log WHERE run_id = ?').pluck(true);
    this.markEnded = db.prepare('UPDATE runs SET ended_at = ?, exit_reason = ?, exit_detail = ?, result = coalesce(?, result) WHERE id = ? AND ended_at IS NULL');
    this.selectRun = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.selectRuns = db.prepare("SELECT * FROM runs WHERE kind IN ('live', 'sandbox') AND (@kind IS NULL OR kind = @kind) ORDER BY started_at, id");
    this.beginTx = db.transaction((run: NewLiveRun) => {
      const kind = run.kind ?? 'live';
      const crashed: LiveRunRecord[] = [];
      for (const open of this.selectOpen.all(kind) as Row[]) {
        const last = (this.selectLastActivity.get(open.id) as number | null) ?? open.started_at;
        const detail: CrashDetail = { detectedAt: run.startedAt, detectedBy: run.id, lastActivityAt: Math.max(last, open.started_at) };
        this.markEnded.run(detail.lastActivityAt, 'crashed', toJson(detail), null, open.id);
        crashed.push(this.get(open.id)!);
      }
      const strategies = redactSecrets(run.strategies, run.secrets) as RunStrategy[];
      this.insertRun.run(run.id, kind, run.strategies.map((s) => s.name).join(','), '{}', toJson(redactSecrets(run.config ?? {}, run.secrets)), run.startedAt, toJson(strategies));
      return crashed;
    });
  }

  /**
   * Start a run: earlier runs of its kind left unfinished are marked `crashed` first (returned, for
   * the log and for start-up reconciliation), then the run is written; one transaction.
   */
  begin(run: NewLiveRun): { crashed: LiveRunRecord[] } {
    this.check(run);
    return { crashed: guardWrite(this.file, () => `run ${run.id}`, () => this.beginTx.immediate(run)) };
  }

  /** Record the stop; false when the run is unknown or already ended (the first end stands). */
  end(id: string, stop: RunStop): boolean {
    // `crashed` is only ever found by the next run, never declared by the run itself.
    if (!['stopped', 'signal', 'error'].includes(stop.reason)) {
      throw new JournalError('INVALID_RECORD', this.file, `run ${id}: exit reason must be one of stopped, signal, error, got ${JSON.stringify(stop.reason)}`);
    }
    return guardWrite(this.file, () => `stop of run ${id}`, () =>
      this.markEnded.run(stop.endedAt, stop.reason, toJsonOrNull(stop.detail), toJsonOrNull(stop.result), id).changes === 1,
    );
  }

  get(id: string): LiveRunRecord | undefined {
    const row = this.selectRun.get(id) as Row | undefined;
    return row && toLiveRun(row);
  }

  /** Live and sandbox runs (of one kind if given), oldest first. */
  list(filter: { kind?: LiveRunKind } = {}): LiveRunRecord[] {
    return (this.selectRuns.all({ kind: filter.kind ?? null }) as Row[]).map(toLiveRun);
  }

  private check(run: NewLiveRun): void {
    const bad = (why: string): JournalError => new JournalError('INVALID_RECORD', this.file, `run ${JSON.stringify(run.id)}: ${why}`);
    if (typeof run.id !== 'string' || run.id === '') throw bad('id must be a non-empty string');
    if (run.kind !== undefined && run.kind !== 'live' && run.kind !== 'sandbox') throw bad(`kind must be live or sandbox, got ${JSON.stringify(run.kind)}`);
    if (!Array.isArray(run.strategies) || run.strategies.length === 0) throw bad('strategies must list at least one strategy');
    run.strategies.forEach((s, i) => {
      if (!s || typeof s.name !== 'string' || s.name === '') throw bad(`strategies[${i}].name must be a non-empty string`);
    });
    if (!Number.isSafeInteger(run.startedAt)) throw bad(`startedAt must be epoch milliseconds, got ${String(run.startedAt)}`);
  }
}

function toLiveRun(r: Row): LiveRunRecord {
  return {
    ...toRun(r),
    strategies: (fromJsonOrNull(r.strategies) as RunStrategy[] | null) ?? [],
    exitReason: r.exit_reason,
    exitDetail: fromJsonOrNull(r.exit_detail),
  };
}
