/**
 * What a persisted sandbox (`halyard sandbox --state file.db`) keeps beyond accounts, keys and
 * balances: every area whose records an account can query registers them here once, as one
 * named part, and the state store saves all parts together with the balances (one transaction,
 * before every answer that changes state, every couple of seconds and at close: state-sync.ts)
 * and gives them back at the next start.
 *
 *   persistentPartsOf(state.services).register('wallet.deposits', DEPOSITS_STATE, depositBook);
 *
 * A part is a `Persistent<T>` (dumpState / restoreState) plus a zod schema of T: what a file holds
 * is checked before restoreState sees it, so a hand-edited or foreign body is a clear error
 * (StateDataError naming the part and the field), not a crash later. Rules for a part:
 * - dumpState returns JSON-safe data: money as decimal strings (never numbers), ids as strings.
 * - restoreState runs once, on a fresh part, before the sandbox serves a request; it replaces the
 *   part's records and moves no money (the restored balances already hold its effects). Id
 *   generators continue above the restored ids.
 * - Parts may register in any order and late (a service created on first use): data loaded
 *   before a part registered waits for it. Data of a part not registered in this run (an area
 *   left out) is written back unchanged, so leaving an area out for one run loses nothing.
 *
 * A part with a long history of records that never change once made (the engine's closed orders
 * and trades) registers with `registerArchiving`: its small, changing head is dumped whole on
 * every save, its records are stored one row each, written once (by key) and dropped when the
 * part lets go of them. A save then costs what changed, not the whole history.
 */
import type { z } from 'zod';
import type { SandboxServices } from '../http/route-types.ts';

export interface Persistent<T> {
  dumpState(): T;
  restoreState(data: T): void;
}

/**
 * A part whose history records never change once made: each is stored once, by its key (a safe
 * integer, unique within the part and never reused; numbers, so visiting a long history on every
 * save makes no strings). A part may also keep records that do change (the engine's open orders):
 * `changed` says which stored ones to write again, `committed` hears which were written.
 */
export interface ArchivingPersistent<T, R, I> {
  dumpState(): T;
  /** Visit every record the part keeps now, newer ones after older ones, with its key and a handle. */
  archive(visit: (key: number, item: I) => void): void;
  /** The record of a visited handle: asked only for the keys the store lacks, or that `changed`. */
  record(key: number, item: I): R;
  /** Whether the stored record of a visited key is out of date (default: never). */
  changed?(key: number, item: I): boolean;
  /** The store wrote the records built since the last dump (`record`); a failed write is never committed. */
  committed?(): void;
  /** `records`: the stored records, in the order they were first stored. */
  restoreState(data: T, records: readonly R[]): void;
}

/** One stored record of an archiving part. */
export interface ArchivedRow {
  readonly part: string;
  readonly key: number;
  readonly body: unknown;
}

/** What a save writes: every part's data, and the archive's new and dropped rows. */
export interface PartsDump {
  readonly parts: Record<string, unknown>;
  readonly put: ArchivedRow[];
  readonly drop: { readonly part: string; readonly key: number }[];
}

/** A part's data does not fit its schema, or the part refused it. */
export class StateDataError extends Error {
  override readonly name = 'StateDataError';
  constructor(
    readonly part: string,
    readonly problem: string,
    /** The store it came from (a file path), once known. */
    readonly location?: string,
  ) {
    super(`${location === undefined ? '' : `state file ${location}: `}part "${part}": ${problem}`);
  }
}

interface Entry {
  readonly schema: z.ZodType;
  readonly target: Persistent<unknown> | ArchivingPersistent<unknown, unknown, unknown>;
  /** Archiving parts: the schema of one record. */
  readonly recordSchema?: z.ZodType;
}

export class PersistentParts {
  private readonly parts = new Map<string, Entry>();
  /** Loaded data no registered part has claimed yet. */
  private readonly waiting = new Map<string, unknown>();
  private readonly waitingRows = new Map<string, ArchivedRow[]>();
  /** The archive keys the store holds, per part (from the load, then every committed save). */
  private readonly stored = new Map<string, Set<number>>();

  register<T>(key: string, schema: z.ZodType<T>, target: Persistent<T>): void {
    this.add(key, { schema, target: target as Persistent<unknown> });
  }

  registerArchiving<T, R, I>(key: string, schema: z.ZodType<T>, recordSchema: z.ZodType<R>, target: ArchivingPersistent<T, R, I>): void {
    this.add(key, { schema, recordSchema, target: target as ArchivingPersistent<unknown, unknown, unknown> });
  }

  keys(): string[] {
    return [...this.parts.keys()];
  }

  /** Restore every registered part from `data` (by key) and the archive rows; the rest waits for its part. */
  restore(data: Readonly<Record<string, unknown>>, rows: readonly ArchivedRow[] = []): void {
    for (const [key, value] of Object.entries(data)) this.waiting.set(key, value);
    for (const row of rows) {
      let list = this.waitingRows.get(row.part);
      if (list === undefined) this.waitingRows.set(row.part, (list = []));
      list.push(row);
      this.storedOf(row.part).add(row.key);
    }
    for (const [key, entry] of this.parts) this.claim(key, entry);
  }

  /**
   * Every part's data by key (plus data loaded for parts not registered in this run), and the
   * archive rows to write and to drop relative to what the store holds. Hand it to `commit`
   * once the store has written it.
   */
  dump(): PartsDump {
    const parts: Record<string, unknown> = Object.fromEntries(this.waiting);
    const put: ArchivedRow[] = [];
    const drop: { part: string; key: number }[] = [];
    for (const [part, entry] of this.parts) {
      parts[part] = entry.target.dumpState();
      if (entry.recordSchema === undefined) continue;
      const target = entry.target as ArchivingPersistent<unknown, unknown, unknown>;
      const stored = this.storedOf(part);
      // Keys visited that the store holds: when that is all of them, nothing was dropped, and no
      // set of every key is built (a save precedes every answer; the open orders alone may be many).
      let held = 0;
      target.archive((key, item) => {
        if (stored.has(key)) {
          held++;
          if (target.changed?.(key, item) === true) put.push({ part, key, body: target.record(key, item) });
          return;
        }
        put.push({ part, key, body: target.record(key, item) });
      });
      if (held !== stored.size) {
        const seen = new Set<number>();
        target.archive((key) => seen.add(key));
        for (const key of stored) if (!seen.has(key)) drop.push({ part, key });
      }
    }
    return { parts, put, drop };
  }

  /** The store wrote `d`: its rows are what the store holds from now on. */
  commit(d: PartsDump): void {
    for (const r of d.put) this.storedOf(r.part).add(r.key);
    for (const r of d.drop) this.storedOf(r.part).delete(r.key);
    for (const entry of this.parts.values()) if (entry.recordSchema !== undefined) (entry.target as ArchivingPersistent<unknown, unknown, unknown>).committed?.();
  }

  private storedOf(part: string): Set<number> {
    let set = this.stored.get(part);
    if (set === undefined) this.stored.set(part, (set = new Set()));
    return set;
  }

  private add(key: string, entry: Entry): void {
    if (this.parts.has(key)) throw new Error(`persistent part "${key}" is registered twice`);
    this.parts.set(key, entry);
    this.claim(key, entry);
  }

  private claim(key: string, entry: Entry): void {
    if (!this.waiting.has(key)) return;
    const data = this.waiting.get(key);
    this.waiting.delete(key);
    const rows = this.waitingRows.get(key) ?? [];
    this.waitingRows.delete(key);
    const head = parse(key, entry.schema, data, '');
    try {
      if (entry.recordSchema === undefined) {
        (entry.target as Persistent<unknown>).restoreState(head);
      } else {
        const schema = entry.recordSchema;
        const records = rows.map((r) => parse(key, schema, r.body, `record ${r.key}: `));
        (entry.target as ArchivingPersistent<unknown, unknown, unknown>).restoreState(head, records);
      }
    } catch (e) {
      if (e instanceof StateDataError) throw e;
      throw new StateDataError(key, e instanceof Error ? e.message : String(e));
    }
  }
}

function parse(part: string, schema: z.ZodType, data: unknown, what: string): unknown {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  throw new StateDataError(part, `${what}${where}${issue?.message ?? 'invalid data'}`);
}

declare module '../http/route-types.ts' {
  interface SandboxServices {
    persistentParts?: PersistentParts;
  }
}

/** The sandbox's part registry, created on first use so areas may register in any order. */
export function persistentPartsOf(services: SandboxServices): PersistentParts {
  return (services.persistentParts ??= new PersistentParts());
}

/** Replace a readonly list's contents (restoreState), without spreading a long list into a call. */
export function refill<T>(list: T[], items: readonly T[]): void {
  list.length = 0;
  for (const x of items) list.push(x);
}
