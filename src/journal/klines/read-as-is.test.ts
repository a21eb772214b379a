import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import { JournalError } from '../errors.ts';
import { openJournal } from '../journal.ts';
import { MIGRATIONS, type Migration } from '../migrations/index.ts';
import { openJournalAsIs } from './read-as-is.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-as-is-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const M = 60_000;

function errorOf(fn: () => unknown): JournalError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(JournalError);
    return e as JournalError;
  }
  throw new Error('expected a JournalError');
}

describe('openJournalAsIs', () => {
  it('reads the klines of a schema-1 journal without upgrading it: the file stays byte for byte', () => {
    const file = join(dir, 'old.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }).db;
    const ins = old.prepare('INSERT INTO klines (symbol, interval, open_time, open, high, low, close, volume, close_time, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 5000; i++) ins.run('BTCUSDT', '1m', i * M, `${100 + i}.5`, `${101 + i}`, `${99 + i}`, `${100 + i}`, '1.25', i * M + M - 1, 'old');
    old.close();
    const bytes = readFileSync(file);

    const j = openJournalAsIs(file);
    expect(j).toMatchObject({ schemaVersion: 1, latestVersion: MIGRATIONS.length });
    const rows = [...j.klines.iterate('BTCUSDT', '1m', 10 * M, 4500 * M)];
    expect(rows).toHaveLength(4490);
    expect(rows[0]).toEqual([10 * M, '110.5', '111', '109', '110', '1.25', 11 * M - 1, null, null, null, null]);
    j.close();
    expect(readFileSync(file).equals(bytes)).toBe(true);

    // What openJournal reads after upgrading it is the same.
    const up = openJournal(file, { readonly: true });
    expect(up.schemaVersion).toBe(MIGRATIONS.length);
    expect([...up.klines.iterateKlines('BTCUSDT', '1m', 10 * M, 4500 * M)]).toEqual(rows);
    up.close();
  });

  it('refuses what openJournal refuses: a newer schema, a file that is not a journal, a missing file', () => {
    const file = join(dir, 'j.db');
    const newer: Migration[] = [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'later', sql: 'CREATE TABLE later (x INTEGER);' }];
    openJournal(file, { migrations: newer }).close();
    expect(errorOf(() => openJournalAsIs(file)).code).toBe('NEWER_SCHEMA');
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello');
    expect(errorOf(() => openJournalAsIs(text)).code).toBe('NOT_SQLITE');
    expect(errorOf(() => openJournalAsIs(join(dir, 'missing.db'))).code).toBe('OPEN_FAILED');
  });
});
