/**
 * Persistence seam for `halyard sandbox --state file.db`: a paper account survives a restart.
 * Two kinds of state, saved at different moments:
 * - the account registry (accounts, keys), saved on every change (`save`);
 * - the live state (`saveLive`): balances and every registered part (persistence/persistent-parts.ts:
 *   the engine's open orders, order history and trades, and every money flow's records), saved
 *   together in one transaction before every answer that changes state (persistence/durable-answers.ts),
 *   every couple of seconds and at a clean shutdown. Archived rows (closed orders and trades, which
 *   never change; open orders, written again when they change) are written by key and dropped when
 *   their part lets go of them; a save carries only the rows that changed.
 * - the id sequences' reservation marks (`saveIdMark`), each written at once.
 * Balances are kept as totals (free + locked): at restore the engine locks its open orders' funds
 * again. `load` returns undefined for a fresh store (the config's accounts are seeded then).
 */
import type { IdMarkStore } from '../persistence/id-reservations.ts';
import type { ArchivedRow } from '../persistence/persistent-parts.ts';
import type { RegistrySnapshot } from './registry.ts';

/** One balance line: the account's whole holding of an asset (free + locked at save time). */
export interface BalanceRow {
  accountId: string;
  asset: string;
  amount: string;
}

export interface LiveState {
  balances: BalanceRow[];
  /** The registered parts' data by part key, JSON-safe. */
  parts: Record<string, unknown>;
  /** Every archived row, in the order first stored. */
  archive: ArchivedRow[];
}

/** One save: balances and parts replace what was there; archive rows are added and dropped. */
export interface LiveChanges {
  balances: readonly BalanceRow[];
  parts: Readonly<Record<string, unknown>>;
  put: readonly ArchivedRow[];
  drop: readonly { readonly part: string; readonly key: number }[];
}

/** Also the id sequences' reservation marks (persistence/id-reservations.ts), each written at once. */
export interface StateStore extends IdMarkStore {
  /** Where the state lives, for messages (a file path). */
  readonly location: string;
  load(): RegistrySnapshot | undefined;
  save(snapshot: RegistrySnapshot): void;
  /** Empty (no balances, no parts, no rows) for a store that never saved any. */
  loadLive(): LiveState;
  /** In one transaction. */
  saveLive(changes: LiveChanges): void;
  close(): void;
}

/** Keeps the last snapshot in memory (tests, and `--state` absent). */
export class MemoryStateStore implements StateStore {
  readonly location = 'memory';
  private last: RegistrySnapshot | undefined;
  private balances: BalanceRow[] = [];
  private parts: Record<string, unknown> = {};
  /** Insertion-ordered, by part and key. */
  private readonly rows = new Map<string, ArchivedRow>();
  private readonly marks = new Map<string, string>();
  loadIdMarks(): Record<string, string> {
    return Object.fromEntries(this.marks);
  }
  saveIdMark(name: string, mark: string): void {
    this.marks.set(name, mark);
  }
  loadLive(): LiveState {
    return structuredClone({ balances: this.balances, parts: this.parts, archive: [...this.rows.values()] });
  }
  saveLive(changes: LiveChanges): void {
    this.balances = structuredClone([...changes.balances]);
    this.parts = structuredClone({ ...changes.parts });
    for (const r of changes.drop) this.rows.delete(`${r.part}\n${r.key}`);
    for (const r of changes.put) this.rows.set(`${r.part}\n${r.key}`, structuredClone(r));
  }
  load(): RegistrySnapshot | undefined {
    return this.last === undefined ? undefined : structuredClone(this.last);
  }
  save(snapshot: RegistrySnapshot): void {
    this.last = structuredClone(snapshot);
  }
  close(): void {}
}
