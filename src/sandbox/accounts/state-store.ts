/**
 * Persistence seam for `halyard sandbox --state file.db`: a paper account survives a restart.
 * Accounts, keys and balances are kept; open orders are not (on restart they are gone and their
 * locked funds are free again, as after an exchange maintenance). `load` returns undefined for a
 * fresh store (the config's accounts are seeded then).
 */
import type { RegistrySnapshot } from './registry.ts';

/** One balance line: the account's whole holding of an asset (free + locked at save time). */
export interface BalanceRow {
  accountId: string;
  asset: string;
  amount: string;
}

export interface StateStore {
  load(): RegistrySnapshot | undefined;
  save(snapshot: RegistrySnapshot): void;
  loadBalances(): BalanceRow[];
  saveBalances(rows: readonly BalanceRow[]): void;
  close(): void;
}

/** Keeps the last snapshot in memory (tests, and `--state` absent). */
export class MemoryStateStore implements StateStore {
  private last: RegistrySnapshot | undefined;
  private balances: BalanceRow[] = [];
  loadBalances(): BalanceRow[] {
    return structuredClone(this.balances);
  }
  saveBalances(rows: readonly BalanceRow[]): void {
    this.balances = structuredClone([...rows]);
  }
  load(): RegistrySnapshot | undefined {
    return this.last === undefined ? undefined : structuredClone(this.last);
  }
  save(snapshot: RegistrySnapshot): void {
    this.last = structuredClone(snapshot);
  }
  close(): void {}
}
