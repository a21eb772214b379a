/**
 * SQLite StateStore (better-sqlite3) for `halyard sandbox --state file.db`. Tables:
 *   meta      name -> value: `format` (halyard-sandbox-state), `schema` (2), `nextUid`, and
 *             `ids.<sequence>`: each id sequence's reservation mark (persistence/id-reservations.ts),
 *             written alone, at once, before an id of the reserved block is issued
 *   accounts  one JSON body per account      api_keys  one JSON body per key
 *   balances  (account_id, asset, amount TEXT): totals as exact decimal strings, never REAL
 *   parts     (key, body TEXT): each persistent part's JSON (engine head: books and open orders; money flows)
 *   archive   (part, key INTEGER, body TEXT): records that never change once made (closed orders, trades),
 *             one row each, written once; rowid keeps the order they were first stored in
 * The registry is rewritten in one transaction on each change; balances, parts and the archive's
 * changes together in one transaction (`saveLive`). Key secrets are stored as given: a local
 * sandbox's fake data.
 *
 * Files written before the parts table existed (schema 1: meta, accounts, api_keys, balances)
 * open as they are and gain the table; they restore accounts, keys and balances, nothing else.
 * A file that is not SQLite, is damaged, belongs to another program or to a newer Halyard is
 * refused with a StateFileError naming the file and the problem.
 */
import Database from 'better-sqlite3';
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { RegistrySnapshot } from './registry.ts';
import type { ArchivedRow } from '../persistence/persistent-parts.ts';
import type { BalanceRow, LiveChanges, LiveState, StateStore } from './state-store.ts';

const FORMAT = 'halyard-sandbox-state';
const SCHEMA_VERSION = 2;
/** The tables every Halyard state file has had since the first version. */
const BASE_TABLES = ['meta', 'accounts', 'api_keys', 'balances'];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (api_key TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balances (account_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (account_id, asset));
CREATE TABLE IF NOT EXISTS parts (key TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS archive (part TEXT NOT NULL, key INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (part, key));
`;

/** The state file cannot be used; the message names the file and says why. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`state file ${file}: ${problem}`);
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class SqliteStateStore implements StateStore {
  private readonly db: Database.Database;

  constructor(readonly location: string) {
    try {
      this.db = new Database(location);
    } catch (e) {
      throw new StateFileError(location, `cannot be opened (${messageOf(e)})`);
    }
    try {
      this.check();
      this.db.pragma('journal_mode = WAL');
      // Each answer that changes state waits for a commit (persistence/durable-answers.ts). NORMAL
      // in WAL mode: a commit is written to the WAL before the answer leaves, so it survives the
      // process being killed; only an OS crash or power loss can take the last commits (FULL would
      // fsync every commit, several milliseconds per answer).
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA);
      this.setMeta('format', FORMAT);
      this.setMeta('schema', String(SCHEMA_VERSION));
    } catch (e) {
      this.db.close();
      if (e instanceof StateFileError) throw e;
      throw new StateFileError(location, `is not a usable SQLite database (${messageOf(e)})`);
    }
  }

  /** Refuse what is not an empty database or a Halyard state file this version can read. */
  private check(): void {
    let tables: string[];
    try {
      tables = (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    } catch (e) {
      throw new StateFileError(this.location, `is not a SQLite database, or is damaged (${messageOf(e)})`);
    }
    if (tables.length === 0) return;
    const missing = BASE_TABLES.filter((t) => !tables.includes(t));
    if (missing.length > 0) throw new StateFileError(this.location, `is a SQLite database but not a Halyard sandbox state file (no table ${missing.join(', ')}; it has ${tables.join(', ')})`);
    const integrity = this.db.pragma('quick_check', { simple: true }) as unknown;
    if (integrity !== 'ok') throw new StateFileError(this.location, `is damaged (SQLite quick_check: ${String(integrity)})`);
    const format = this.meta('format');
    if (format !== undefined && format !== FORMAT) throw new StateFileError(this.location, `holds "${format}", not a Halyard sandbox state`);
    const schema = Number(this.meta('schema') ?? '1');
    if (!(schema >= 1)) throw new StateFileError(this.location, `has an unreadable schema version "${this.meta('schema')}"`);
    if (schema > SCHEMA_VERSION) throw new StateFileError(this.location, `was written by a newer Halyard (schema ${schema}; this one reads up to ${SCHEMA_VERSION})`);
  }

  private meta(name: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as { value: string } | undefined)?.value;
  }

  private setMeta(name: string, value: string): void {
    this.db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run(name, value);
  }

  /** JSON.parse that names the row it could not read. */
  private json<T>(text: string, what: string): T {
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw new StateFileError(this.location, `${what} is not valid JSON (${messageOf(e)})`);
    }
  }

  load(): RegistrySnapshot | undefined {
    const next = this.meta('nextUid');
    if (next === undefined) return undefined;
    const accounts = (this.db.prepare('SELECT id, body FROM accounts ORDER BY rowid').all() as { id: string; body: string }[]).map((r) => this.json<SandboxAccount>(r.body, `account ${r.id}`));
    const keys = (this.db.prepare('SELECT api_key, body FROM api_keys ORDER BY rowid').all() as { api_key: string; body: string }[]).map((r) => this.json<ApiKeyRecord>(r.body, `API key ${r.api_key}`));
    return { accounts, keys, nextUid: next };
  }

  save(snapshot: RegistrySnapshot): void {
    const write = this.db.transaction((s: RegistrySnapshot) => {
      this.db.prepare('DELETE FROM accounts').run();
      this.db.prepare('DELETE FROM api_keys').run();
      const account = this.db.prepare('INSERT INTO accounts (id, body) VALUES (?, ?)');
      for (const a of s.accounts) account.run(a.id, JSON.stringify(a));
      const key = this.db.prepare('INSERT INTO api_keys (api_key, account_id, body) VALUES (?, ?, ?)');
      for (const k of s.keys) key.run(k.apiKey, k.accountId, JSON.stringify(k));
      this.setMeta('nextUid', s.nextUid);
    });
    write(snapshot);
  }

  loadIdMarks(): Record<string, string> {
    const rows = this.db.prepare("SELECT name, value FROM meta WHERE substr(name, 1, 4) = 'ids.'").all() as { name: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.name.slice(4), r.value]));
  }

  saveIdMark(name: string, mark: string): void {
    this.setMeta(`ids.${name}`, mark);
  }

  loadLive(): LiveState {
    const balances = this.db.prepare('SELECT account_id AS accountId, asset, amount FROM balances ORDER BY rowid').all() as BalanceRow[];
    for (const b of balances) {
      if (typeof b.amount !== 'string') throw new StateFileError(this.location, `balance ${b.accountId} ${b.asset} is not a decimal string`);
    }
    const parts: Record<string, unknown> = {};
    for (const r of this.db.prepare('SELECT key, body FROM parts ORDER BY key').all() as { key: string; body: string }[]) parts[r.key] = this.json(r.body, `part "${r.key}"`);
    const archive: ArchivedRow[] = [];
    for (const r of this.db.prepare('SELECT part, key, body FROM archive ORDER BY rowid').iterate() as Iterable<{ part: string; key: number; body: string }>) {
      archive.push({ part: r.part, key: r.key, body: this.json(r.body, `part "${r.part}" record ${r.key}`) });
    }
    return { balances, parts, archive };
  }

  /**
   * Balances (money as TEXT, exact decimal strings) and parts as given, archive rows added and
   * dropped: one transaction. Only what differs from the last write is written (a save precedes
   * every answer that changes state: most change one or two balances and a few parts).
   */
  saveLive(changes: LiveChanges): void {
    const balances = new Map(changes.balances.map((r) => [`${r.accountId}\n${r.asset}`, r]));
    const parts = new Map(Object.entries(changes.parts).map(([key, body]) => [key, JSON.stringify(body)]));
    const write = this.db.transaction((c: LiveChanges) => {
      const written = this.written ?? this.readWritten();
      const dropBalance = this.db.prepare('DELETE FROM balances WHERE account_id = ? AND asset = ?');
      for (const [k, r] of written.balances) if (!balances.has(k)) dropBalance.run(r.accountId, r.asset);
      const putBalance = this.db.prepare('INSERT INTO balances (account_id, asset, amount) VALUES (?, ?, ?) ON CONFLICT(account_id, asset) DO UPDATE SET amount = excluded.amount');
      for (const [k, r] of balances) if (written.balances.get(k)?.amount !== r.amount) putBalance.run(r.accountId, r.asset, r.amount);
      const dropPart = this.db.prepare('DELETE FROM parts WHERE key = ?');
      for (const key of written.parts.keys()) if (!parts.has(key)) dropPart.run(key);
      const putPart = this.db.prepare('INSERT INTO parts (key, body) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET body = excluded.body');
      for (const [key, body] of parts) if (written.parts.get(key) !== body) putPart.run(key, body);
      const drop = this.db.prepare('DELETE FROM archive WHERE part = ? AND key = ?');
      for (const r of c.drop) drop.run(r.part, r.key);
      const put = this.db.prepare('INSERT OR REPLACE INTO archive (part, key, body) VALUES (?, ?, ?)');
      for (const r of c.put) put.run(r.part, r.key, JSON.stringify(r.body));
    });
    try {
      write(changes);
    } catch (e) {
      // Rolled back: what the file holds is read again before the next write.
      this.written = undefined;
      throw e;
    }
    this.written = { balances, parts };
  }

  /** What the last saveLive wrote (balances by account and asset, parts' JSON by key); undefined: read it from the file. */
  private written: { balances: Map<string, BalanceRow>; parts: Map<string, string> } | undefined;

  private readWritten(): { balances: Map<string, BalanceRow>; parts: Map<string, string> } {
    const balances = new Map<string, BalanceRow>();
    for (const r of this.db.prepare('SELECT account_id AS accountId, asset, amount FROM balances').all() as BalanceRow[]) balances.set(`${r.accountId}\n${r.asset}`, r);
    const parts = new Map<string, string>();
    for (const r of this.db.prepare('SELECT key, body FROM parts').all() as { key: string; body: string }[]) parts.set(r.key, r.body);
    return { balances, parts };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
