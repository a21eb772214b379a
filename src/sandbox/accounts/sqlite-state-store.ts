/**
 * SQLite StateStore (better-sqlite3): one row per account and per key, rewritten in a single
 * transaction on save. Key secrets are stored as given: this is a local sandbox's fake data.
 */
import Database from 'better-sqlite3';
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { RegistrySnapshot } from './registry.ts';
import type { BalanceRow, StateStore } from './state-store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (api_key TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balances (account_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (account_id, asset));
`;

export class SqliteStateStore implements StateStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  load(): RegistrySnapshot | undefined {
    const next = this.db.prepare('SELECT value FROM meta WHERE name = ?').get('nextUid') as { value: string } | undefined;
    if (next === undefined) return undefined;
    const accounts = (this.db.prepare('SELECT body FROM accounts ORDER BY rowid').all() as { body: string }[]).map(
      (r) => JSON.parse(r.body) as SandboxAccount,
    );
    const keys = (this.db.prepare('SELECT body FROM api_keys ORDER BY rowid').all() as { body: string }[]).map(
      (r) => JSON.parse(r.body) as ApiKeyRecord,
    );
    return { accounts, keys, nextUid: next.value };
  }

  save(snapshot: RegistrySnapshot): void {
    const write = this.db.transaction((s: RegistrySnapshot) => {
      this.db.prepare('DELETE FROM accounts').run();
      this.db.prepare('DELETE FROM api_keys').run();
      const account = this.db.prepare('INSERT INTO accounts (id, body) VALUES (?, ?)');
      for (const a of s.accounts) account.run(a.id, JSON.stringify(a));
      const key = this.db.prepare('INSERT INTO api_keys (api_key, account_id, body) VALUES (?, ?, ?)');
      for (const k of s.keys) key.run(k.apiKey, k.accountId, JSON.stringify(k));
      this.db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run('nextUid', s.nextUid);
    });
    write(snapshot);
  }

  loadBalances(): BalanceRow[] {
    return this.db.prepare('SELECT account_id AS accountId, asset, amount FROM balances ORDER BY rowid').all() as BalanceRow[];
  }

  /** Money as TEXT (exact decimal strings), replaced whole in one transaction. */
  saveBalances(rows: readonly BalanceRow[]): void {
    const write = this.db.transaction((list: readonly BalanceRow[]) => {
      this.db.prepare('DELETE FROM balances').run();
      const insert = this.db.prepare('INSERT INTO balances (account_id, asset, amount) VALUES (?, ?, ?)');
      for (const r of list) insert.run(r.accountId, r.asset, r.amount);
    });
    write(rows);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
