import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountRegistry } from './registry.ts';
import { SqliteStateStore, StateFileError } from './sqlite-state-store.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tempFile(name = 'state.db'): string {
  dir ??= mkdtempSync(join(tmpdir(), 'halyard-sbx-'));
  return join(dir, name);
}

/** The tables the first version wrote (accounts, keys, balances; no parts). */
const OLD_SCHEMA = `
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE api_keys (api_key TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE balances (account_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (account_id, asset));
`;

function openError(file: string): StateFileError {
  try {
    new SqliteStateStore(file).close();
  } catch (e) {
    expect(e).toBeInstanceOf(StateFileError);
    return e as StateFileError;
  }
  throw new Error('expected the store to refuse the file');
}

describe('SqliteStateStore', () => {
  it('is empty at first, then returns what was saved across reopen', () => {
    const file = tempFile();
    const store = new SqliteStateStore(file);
    expect(store.load()).toBeUndefined();
    expect(store.loadLive()).toEqual({ balances: [], parts: {}, archive: [] });
    const r = new AccountRegistry({ maxSubAccounts: 30 });
    const a = r.createAccount({ email: 'a@x.io', createdAt: 5 });
    r.createKey({ accountId: a.id, apiKey: 'key12345', secret: 'secret12', createdAt: 6, roles: [2], ipList: ['1.1.1.1'] });
    store.save(r.snapshot());
    const live = { balances: [{ accountId: a.id, asset: 'PHP', amount: '123.456789012345678901' }], parts: { engine: { version: 1, orders: ['1'] }, 'wallet.deposits': { records: [] } } };
    const rows = [36, 12, 21, 4].map((key) => ({ part: 'engine', key, body: { key } }));
    store.saveLive({ ...live, put: rows.slice(0, 3), drop: [] });
    store.saveLive({ ...live, put: rows.slice(3), drop: [{ part: 'engine', key: 12 }] });
    store.close();
    const again = new SqliteStateStore(file);
    expect(again.load()).toEqual(r.snapshot());
    // Archived rows come back in the order they were first stored.
    expect(again.loadLive()).toEqual({ ...live, archive: [rows[0], rows[2], rows[3]] });
    again.close();
    // Money is stored as text, never REAL.
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT typeof(amount) AS t FROM balances').get()).toEqual({ t: 'text' });
    db.close();
  });

  it('writes only what changed, and what it holds is always the last save whole (also after reopening, and after a failed write)', () => {
    const file = tempFile('diff.db');
    const store = new SqliteStateStore(file);
    const b = (accountId: string, asset: string, amount: string) => ({ accountId, asset, amount });
    store.saveLive({ balances: [b('1', 'PHP', '10'), b('1', 'BTC', '1'), b('2', 'PHP', '5')], parts: { a: { n: 1 }, b: { n: 2 } }, put: [], drop: [] });
    store.saveLive({ balances: [b('1', 'PHP', '7.5'), b('2', 'PHP', '5'), b('3', 'ETH', '0.1')], parts: { a: { n: 1 }, c: { n: 3 } }, put: [], drop: [] });
    const sorted = (rows: { accountId: string; asset: string }[]) => [...rows].sort((x, y) => `${x.accountId}${x.asset}`.localeCompare(`${y.accountId}${y.asset}`));
    expect(sorted(store.loadLive().balances)).toEqual(sorted([b('1', 'PHP', '7.5'), b('2', 'PHP', '5'), b('3', 'ETH', '0.1')]));
    expect(store.loadLive().parts).toEqual({ a: { n: 1 }, c: { n: 3 } });
    // A failed write leaves the last save; the next one still writes everything that differs from it.
    expect(() => store.saveLive({ balances: [b('1', 'PHP', '1')], parts: {}, put: [{ part: 'p', key: 1, body: 1n as unknown }], drop: [] })).toThrow();
    expect(store.loadLive().parts).toEqual({ a: { n: 1 }, c: { n: 3 } });
    store.saveLive({ balances: [b('1', 'PHP', '1')], parts: { c: { n: 4 } }, put: [], drop: [] });
    store.close();
    const again = new SqliteStateStore(file);
    expect(again.loadLive()).toEqual({ balances: [b('1', 'PHP', '1')], parts: { c: { n: 4 } }, archive: [] });
    again.saveLive({ balances: [], parts: {}, put: [], drop: [] });
    expect(again.loadLive()).toEqual({ balances: [], parts: {}, archive: [] });
    again.close();
  });

  it('keeps id reservation marks, each written at once', () => {
    const file = tempFile('marks.db');
    const store = new SqliteStateStore(file);
    expect(store.loadIdMarks()).toEqual({});
    store.saveIdMark('engine.orders', '1700000000000010000');
    store.saveIdMark('engine.orders', '1700000000000020000');
    store.saveIdMark('money.ledger-ids', '1700000000000610000');
    store.close();
    const again = new SqliteStateStore(file);
    expect(again.loadIdMarks()).toEqual({ 'engine.orders': '1700000000000020000', 'money.ledger-ids': '1700000000000610000' });
    expect(again.load()).toBeUndefined();
    again.close();
  });

  it('opens a file of the first version (no parts table) and keeps its accounts and balances', () => {
    const file = tempFile();
    const r = new AccountRegistry({ maxSubAccounts: 30 });
    const a = r.createAccount({ email: 'old@x.io', createdAt: 5 });
    const db = new Database(file);
    db.exec(OLD_SCHEMA);
    for (const acct of r.snapshot().accounts) db.prepare('INSERT INTO accounts (id, body) VALUES (?, ?)').run(acct.id, JSON.stringify(acct));
    db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run('nextUid', r.snapshot().nextUid);
    db.prepare('INSERT INTO balances (account_id, asset, amount) VALUES (?, ?, ?)').run(a.id, 'BTC', '0.5');
    db.close();
    const store = new SqliteStateStore(file);
    expect(store.load()).toEqual(r.snapshot());
    expect(store.loadLive()).toEqual({ balances: [{ accountId: a.id, asset: 'BTC', amount: '0.5' }], parts: {}, archive: [] });
    store.close();
  });

  it('refuses a file that is not SQLite, naming the file', () => {
    const file = tempFile('notes.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const e = openError(file);
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/is not a SQLite database, or is damaged/);
  });

  it("refuses another program's SQLite database and a newer Halyard's file", () => {
    const foreign = tempFile('other.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)');
    db.close();
    expect(openError(foreign).message).toBe(`state file ${foreign}: is a SQLite database but not a Halyard sandbox state file (no table meta, accounts, api_keys, balances; it has photos)`);

    const newer = tempFile('newer.db');
    new SqliteStateStore(newer).close();
    const n = new Database(newer);
    n.prepare("UPDATE meta SET value = '9' WHERE name = 'schema'").run();
    n.close();
    expect(openError(newer).message).toMatch(/was written by a newer Halyard \(schema 9/);
  });

  it('names the row whose JSON is damaged', () => {
    const file = tempFile();
    const store = new SqliteStateStore(file);
    store.saveLive({ balances: [], parts: { engine: {} }, put: [], drop: [] });
    store.close();
    const db = new Database(file);
    db.prepare("UPDATE parts SET body = '{not json' WHERE key = 'engine'").run();
    db.close();
    const again = new SqliteStateStore(file);
    expect(() => again.loadLive()).toThrow(new RegExp(`state file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: part "engine" is not valid JSON`));
    again.close();
  });
});
