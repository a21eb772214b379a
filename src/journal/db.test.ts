import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JournalError } from './errors.ts';
import { APPLICATION_ID, MAGIC } from './identity.ts';
import { openJournal } from './journal.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/types.ts';

/** The schema version this Halyard writes: test migrations are numbered after it. */
const V = MIGRATIONS.length;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function openError(file: string, options = {}): JournalError {
  try {
    openJournal(file, options).close();
  } catch (e) {
    expect(e).toBeInstanceOf(JournalError);
    return e as JournalError;
  }
  throw new Error('expected openJournal to fail');
}

describe('openJournal', () => {
  it('turns a new file into a journal: application id, meta magic, every migration recorded, WAL, foreign keys, busy timeout', () => {
    const file = join(dir, 'j.db');
    const j = openJournal(file, { now: () => 1234 });
    expect(j.created).toBe(true);
    expect(j.schemaVersion).toBe(MIGRATIONS.length);
    expect(j.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(j.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(j.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(j.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(j.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const meta = Object.fromEntries(j.db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
    expect(meta).toEqual({ magic: MAGIC, schema_version: String(MIGRATIONS.length), created_at: '1234' });
    expect(j.db.prepare('SELECT version, name, applied_at FROM schema_migrations').all()).toEqual([
      { version: 1, name: 'init', applied_at: 1234 },
      { version: 2, name: 'kline-blocks', applied_at: 1234 },
      { version: 3, name: 'fills-key-side', applied_at: 1234 },
      { version: 4, name: 'kline-checked', applied_at: 1234 },
      { version: 5, name: 'live-runs', applied_at: 1234 },
      { version: 6, name: 'cancel-attempts', applied_at: 1234 },
      { version: 7, name: 'treasury-moves', applied_at: 1234 },
      { version: 8, name: 'merchant-callbacks', applied_at: 1234 },
    ]);
    j.close();
  });

  it('reopening applies nothing and keeps the data', () => {
    const file = join(dir, 'j.db');
    const a = openJournal(file);
    a.runs.start({ id: 'r1', kind: 'backtest', strategy: 's', startedAt: 1 });
    a.close();
    const b = openJournal(file);
    expect(b.created).toBe(false);
    expect(b.runs.get('r1')?.strategy).toBe('s');
    expect(b.db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length);
    b.close();
  });

  it('applies later migrations in order on reopen, once', () => {
    const file = join(dir, 'j.db');
    openJournal(file).close();
    const extra: Migration[] = [
      ...MIGRATIONS,
      { version: V + 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;' },
      { version: V + 2, name: 'notes-time', sql: 'ALTER TABLE notes ADD COLUMN time INTEGER;' },
    ];
    const j = openJournal(file, { migrations: extra });
    expect(j.schemaVersion).toBe(V + 2);
    expect(j.db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').raw().all()).toEqual([
      ...MIGRATIONS.map((m) => [m.version, m.name]),
      [V + 1, 'notes'],
      [V + 2, 'notes-time'],
    ]);
    j.db.prepare('INSERT INTO notes (body, time) VALUES (?, ?)').run('x', 1);
    j.close();
    const again = openJournal(file, { migrations: extra });
    expect(again.schemaVersion).toBe(V + 2);
    again.close();
  });

  it('a failing migration leaves the journal at the previous version', () => {
    const file = join(dir, 'j.db');
    openJournal(file).close();
    const bad: Migration[] = [...MIGRATIONS, { version: V + 1, name: 'broken', sql: 'CREATE TABLE ok_part (x INTEGER); SELECT * FROM no_such_table;' }];
    const e = openError(file, { migrations: bad });
    expect(e.code).toBe('MIGRATION_FAILED');
    expect(e.message).toContain(`migration ${V + 1} (broken) failed, the journal stays at version ${V}: no such table: no_such_table`);
    const j = openJournal(file);
    expect(j.schemaVersion).toBe(V);
    expect(j.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'ok_part'").pluck().get()).toBe(0);
    j.close();
  });

  it('refuses a journal written by a newer Halyard', () => {
    const file = join(dir, 'j.db');
    const newer: Migration[] = [...MIGRATIONS, { version: V + 1, name: 'future', sql: 'CREATE TABLE future (x INTEGER);' }];
    openJournal(file, { migrations: newer }).close();
    const e = openError(file);
    expect(e.code).toBe('NEWER_SCHEMA');
    expect(e.message).toContain(file);
    expect(e.message).toMatch(new RegExp(`schema version ${V + 1} .* newer Halyard`));
  });

  it('refuses another SQLite database and leaves it byte for byte unchanged', () => {
    const file = join(dir, 'other.db');
    const other = new Sqlite(file);
    other.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('a');");
    other.close();
    const bytes = readFileSync(file);
    const e = openError(file);
    expect(e.code).toBe('FOREIGN_DATABASE');
    expect(e.file).toBe(file);
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/not a Halyard journal .*customers/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('refuses a SQLite database with another application id, even without tables', () => {
    const file = join(dir, 'app.db');
    const other = new Sqlite(file);
    other.pragma('application_id = 42');
    other.close();
    expect(openError(file).message).toMatch(/application id 0x2a/);
  });

  it('refuses the Halyard application id without the magic meta row', () => {
    const file = join(dir, 'fake.db');
    const other = new Sqlite(file);
    other.pragma(`application_id = ${APPLICATION_ID}`);
    other.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE schema_migrations (version INTEGER); INSERT INTO meta VALUES ('magic', 'something-else');");
    other.close();
    const e = openError(file);
    expect(e.code).toBe('FOREIGN_DATABASE');
    expect(e.message).toMatch(/meta\.magic/);
  });

  it('refuses a text file, saying what it starts with, and does not touch it', () => {
    const file = join(dir, 'BTCUSDT-1m.csv');
    writeFileSync(file, 'timestamp,open,high,low,close,volume\n1709251200000,1,1,1,1,1\n');
    const e = openError(file);
    expect(e.code).toBe('NOT_SQLITE');
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/not a SQLite database .*starts with "timestamp,open,h"/);
    expect(readFileSync(file, 'utf8')).toMatch(/^timestamp/);
  });

  it('refuses a directory as the journal file, read-only or not, without an errno', () => {
    for (const options of [{}, { readonly: true }]) {
      const e = openError(dir, options);
      expect(e.code).toBe('OPEN_FAILED');
      expect(e.message).toBe(`journal ${dir}: is a directory, not a journal file; name the file (e.g. halyard.db in it)`);
    }
  });

  it('turns an empty (0-byte) file into a journal', () => {
    const file = join(dir, 'empty.db');
    writeFileSync(file, '');
    const j = openJournal(file);
    expect(j.created).toBe(true);
    j.close();
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('says why a path cannot be opened, and creates missing folders only when asked', () => {
    const file = join(dir, 'no', 'such', 'folder', 'j.db');
    expect(openError(file).code).toBe('OPEN_FAILED');
    const j = openJournal(file, { createDirs: true });
    expect(j.created).toBe(true);
    j.close();
  });

  it('readonly: reads a current journal, upgrades an older one, refuses a missing or foreign file', () => {
    const file = join(dir, 'j.db');
    const w = openJournal(file);
    w.runs.start({ id: 'r', kind: 'live', strategy: 's', startedAt: 1 });
    w.close();
    const r = openJournal(file, { readonly: true });
    expect(r.runs.get('r')?.kind).toBe('live');
    expect(() => r.runs.start({ id: 'x', kind: 'live', strategy: 's', startedAt: 1 })).toThrow(/readonly/);
    r.close();
    expect(openError(join(dir, 'missing.db'), { readonly: true }).code).toBe('OPEN_FAILED');
    // An older journal opened read-only is upgraded first when it can be; else the error says why not.
    const broken: Migration[] = [...MIGRATIONS, { version: V + 1, name: 'broken', sql: 'CREATE TABLE nope (' }];
    const failed = openError(file, { readonly: true, migrations: broken });
    expect(failed.code).toBe('OLDER_SCHEMA');
    expect(failed.message).toMatch(/schema version \d+, this Halyard reads \d+; upgrading it failed: /);
    const newer: Migration[] = [...MIGRATIONS, { version: V + 1, name: 'later', sql: 'CREATE TABLE later (x INTEGER);' }];
    const upgraded = openJournal(file, { readonly: true, migrations: newer });
    expect(upgraded.schemaVersion).toBe(V + 1);
    expect(upgraded.runs.get('r')?.kind).toBe('live');
    upgraded.close();
  });

  it('a second connection waits for the writer instead of failing (busy timeout)', () => {
    const file = join(dir, 'j.db');
    const a = openJournal(file);
    const b = openJournal(file, { busyTimeoutMs: 2000 });
    a.runs.start({ id: 'r1', kind: 'live', strategy: 's', startedAt: 1 });
    expect(b.runs.get('r1')?.id).toBe('r1');
    a.close();
    b.close();
  });

  it('journal.transaction takes the write lock before its function runs (a read first cannot strand it on an old snapshot)', () => {
    const file = join(dir, 'j.db');
    const a = openJournal(file, { busyTimeoutMs: 100 });
    const b = openJournal(file);
    b.db.exec('BEGIN IMMEDIATE');
    let entered = 0;
    const t0 = Date.now();
    expect(() =>
      a.transaction(() => {
        entered++;
        return a.exchangeInfo.list();
      }),
    ).toThrow(/locked/);
    // Waited for the lock at BEGIN (busy timeout) instead of reading on a snapshot that another
    // process's commit makes stale, which fails the first write at once with SQLITE_BUSY.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    expect(entered).toBe(0);
    b.db.exec('COMMIT');
    expect(a.transaction(() => a.exchangeInfo.save(1, { n: a.exchangeInfo.list().length }))).toBe(1);
    a.close();
    b.close();
  });

  it('enforces foreign keys: an intent needs its run', () => {
    const j = openJournal(':memory:');
    expect(() => j.runs.addIntent({ runId: 'nope', time: 1, strategy: 's', kind: 'place', payload: {} })).toThrow(/FOREIGN KEY/);
    j.close();
  });

  it('closes the connection when opening fails after the database opened (a store cannot be prepared)', () => {
    const file = join(dir, 'j.db');
    openJournal(file).close();
    const raw = new Sqlite(file);
    raw.exec('DROP TABLE treasury_actions');
    raw.close();
    const closes = vi.spyOn(Sqlite.prototype, 'close');
    try {
      expect(() => openJournal(file)).toThrow(/no such table: treasury_actions/);
      expect(closes).toHaveBeenCalledTimes(1);
    } finally {
      closes.mockRestore();
    }
  });

  it('a write waiting past the busy timeout for another connection\'s lock is a BUSY JournalError saying what to do', () => {
    const file = join(dir, 'j.db');
    const holder = openJournal(file);
    const waiter = openJournal(file, { busyTimeoutMs: 0 });
    try {
      holder.db.prepare('BEGIN IMMEDIATE').run();
      const bar = { symbol: 'BTCPHP', interval: '1m', openTime: 0, closeTime: 59_999, open: '1', high: '1', low: '1', close: '1', volume: '1', source: 't' };
      expect(() => waiter.klines.insertKlines([bar])).toThrow(
        expect.objectContaining({ code: 'BUSY', message: expect.stringMatching(/another process held the journal's write lock .*run this again once it has finished/) as string }) as Error,
      );
      holder.db.prepare('ROLLBACK').run();
      expect(waiter.klines.insertKlines([bar])).toBe(1);
    } finally {
      waiter.close();
      holder.close();
    }
  });
});
