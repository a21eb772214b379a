/**
 * Opening a journal file: refuse what is not a Halyard journal (before writing a byte), then
 * migrate, then set the connection up: WAL (readers never block the writer, a replay can read
 * while a live run writes), foreign keys on (off by default in SQLite), a busy timeout (a second
 * process waits for the lock instead of failing at once).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { makeDirs } from '../fs/make-dirs.ts';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { JournalError } from './errors.ts';
import { SQLITE_HEADER } from './identity.ts';
import { migrate, readIdentity, type MigrateResult } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export interface OpenOptions {
  /** Open for reading only: no migration, no WAL switch; the file must already be a current journal. */
  readonly?: boolean;
  /**
   * With `readonly`: a journal of an older schema is opened as it is (its version in the result)
   * instead of refused; the caller reads only what that version holds. For a dry run, which must
   * leave the file unchanged.
   */
  olderAsIs?: boolean;
  /** How long a statement waits for another connection's lock, ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * `NORMAL` (default): with WAL, a process crash loses nothing committed; a power cut may lose the
   * last transactions. `FULL`: every commit is synced to disk.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Time source for created_at / applied_at (ms). Default Date.now; tests inject. */
  now?: () => number;
  /** Create the file's folder when missing (the CLI's default `data/`). Default false. */
  createDirs?: boolean;
  /** Migrations to apply (tests only; default the project's list). */
  migrations?: readonly Migration[];
}

export interface OpenedDatabase extends MigrateResult {
  db: Database;
}

const MEMORY = ':memory:';

/** Refuse a non-empty file whose first bytes are not SQLite's header, naming what it looks like. */
function checkHeader(file: string): void {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new JournalError('OPEN_FAILED', file, 'is a directory, not a journal file; name the file (e.g. halyard.db in it)');
    size = st.size;
  } catch (e) {
    if (e instanceof JournalError) throw e;
    return; // does not exist yet: SQLite creates it (or reports why it cannot)
  }
  if (size === 0) return; // SQLite treats an empty file as an empty database
  const buf = Buffer.alloc(16);
  let read: number;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, buf, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new JournalError('OPEN_FAILED', file, `cannot read it${code === 'EACCES' || code === 'EPERM' ? ': permission denied' : `: ${(e as Error).message}`}`, { cause: e });
  }
  const head = buf.subarray(0, read).toString('latin1');
  if (head !== SQLITE_HEADER) {
    const shown = JSON.stringify(head.replace(/[^\x20-\x7e]/g, '.'));
    throw new JournalError('NOT_SQLITE', file, `not a SQLite database (${size} bytes, starts with ${shown}); pass the path of a Halyard journal`);
  }
}

function sqliteCode(e: unknown): string | undefined {
  return e && typeof e === 'object' && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

export function openDatabase(file: string, options: OpenOptions = {}): OpenedDatabase {
  if (file !== MEMORY) {
    checkHeader(file);
    if (options.createDirs && !options.readonly) makeDirs(dirname(file));
  }
  let db: Database;
  try {
    db = new Sqlite(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (e) {
    throw new JournalError('OPEN_FAILED', file, `cannot open: ${(e as Error).message}`, { cause: e });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma('foreign_keys = ON');
    const migrations = options.migrations ?? MIGRATIONS;
    let result: MigrateResult;
    if (options.readonly) {
      const identity = readIdentity(db, file);
      if (identity.kind !== 'journal') {
        const why = identity.kind === 'empty' ? 'an empty database, not a Halyard journal' : identity.reason;
        throw new JournalError('FOREIGN_DATABASE', file, why);
      }
      if (identity.version !== migrations.length && !(options.olderAsIs && identity.version < migrations.length)) {
        throw new JournalError(
          identity.version > migrations.length ? 'NEWER_SCHEMA' : 'OLDER_SCHEMA',
          file,
          identity.version > migrations.length
            ? `schema version ${identity.version} was written by a newer Halyard (this one knows up to ${migrations.length}); upgrade Halyard to open it`
            : `schema version ${identity.version}, this Halyard reads ${migrations.length}`,
        );
      }
      result = { version: identity.version, applied: [], created: false };
    } else {
      result = migrate(db, file, migrations, options.now ?? Date.now);
      if (file !== MEMORY) db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    }
    return { db, ...result };
  } catch (e) {
    db.close();
    if (e instanceof JournalError) throw e;
    if (sqliteCode(e) === 'SQLITE_NOTADB') {
      throw new JournalError('NOT_SQLITE', file, 'not a SQLite database (SQLite says: file is not a database)', { cause: e });
    }
    throw new JournalError('OPEN_FAILED', file, `cannot open: ${(e as Error).message}`, { cause: e });
  }
}

