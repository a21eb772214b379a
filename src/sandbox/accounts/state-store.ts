/**
 * Persistence seam for `halyard sandbox --state file.db`: accounts and keys survive a restart.
 * `load` returns undefined for a fresh store (the config's accounts are seeded then). Balances,
 * orders and the rest belong to their owners (the engine persists its own state).
 */
import type { RegistrySnapshot } from './registry.ts';

export interface StateStore {
  load(): RegistrySnapshot | undefined;
  save(snapshot: RegistrySnapshot): void;
  close(): void;
}

/** Keeps the last snapshot in memory (tests, and `--state` absent). */
export class MemoryStateStore implements StateStore {
  private last: RegistrySnapshot | undefined;
  load(): RegistrySnapshot | undefined {
    return this.last === undefined ? undefined : structuredClone(this.last);
  }
  save(snapshot: RegistrySnapshot): void {
    this.last = structuredClone(snapshot);
  }
  close(): void {}
}
