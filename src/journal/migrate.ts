/**
 * Brings a journal to the latest schema: checks the identity, then applies the missing migrations
 * in order, each in the same IMMEDIATE transaction as its record in `schema_migrations`, so two
 * processes opening one file at once cannot both apply a step, and a crash leaves no half step.
 */
import type { Database } from 'better-sqlite3';
import { JournalError } from './errors.ts';
import { APPLICATION_ID, MAGIC, META_TABLE_SQL } from './identity.ts';
import type { Migration } from './migrations/index.ts';

export interface MigrateResult {
  /** Schema version after the call. */
  version: number;
  /** Versions applied by this call (empty on a reopen). */
  applied: number[];
  /** True when the file was empty and has just become a journal. */
  created: boolean;
}

/** Identity of the database, read without writing anything. */
type Identity = { kind: 'empty' } | { kind: 'journal'; version: number } | { kind: 'foreign'; reason: string };

export function readIdentity(db: Database, file: string): Identity {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  if (appId === 0 && tables.length === 0) return { kind: 'empty' };
  if (appId !== APPLICATION_ID) {
    const what = appId === 0 ? 'no application id' : `application id 0x${(appId >>> 0).toString(16)}`;
    const list = tables.length ? `tables ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', ...' : ''}` : 'no tables';
    return { kind: 'foreign', reason: `a SQLite database that is not a Halyard journal (${what}, ${list}); it was left unchanged` };
  }
  if (!tables.includes('meta') || !tables.includes('schema_migrations')) {
    throw new JournalError('CORRUPT', file, 'has the Halyard application id but no meta or schema_migrations table');
  }
  const meta = new Map(db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
  if (meta.get('magic') !== MAGIC) {
    return { kind: 'foreign', reason: `has the Halyard application id but meta.magic is ${JSON.stringify(meta.get('magic') ?? null)}, not '${MAGIC}'; it was left unchanged` };
  }
  const version = Number(meta.get('schema_version'));
  if (!Number.isInteger(version) || version < 0) {
    throw new JournalError('CORRUPT', file, `meta.schema_version is ${JSON.stringify(meta.get('schema_version') ?? null)}`);
  }
  return { kind: 'journal', version };
}

export function migrate(db: Database, file: string, migrations: readonly Migration[], now: () => number): MigrateResult {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration list out of order: position ${i} holds version ${m.version}`);
  });
  const latest = migrations.length;
  const applied: number[] = [];
  let created = false;

  // First a plain read, without taking the write lock: a foreign file is refused untouched.
  const seen = readIdentity(db, file);
  if (seen.kind === 'foreign') throw new JournalError('FOREIGN_DATABASE', file, seen.reason);

  // IMMEDIATE takes the write lock first, so the identity read inside is the one we act on.
  const step = db.transaction(() => {
    const identity = readIdentity(db, file);
    if (identity.kind === 'foreign') throw new JournalError('FOREIGN_DATABASE', file, identity.reason);
    if (identity.kind === 'empty') {
      db.exec(META_TABLE_SQL);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      put.run('magic', MAGIC);
      put.run('schema_version', '0');
      put.run('created_at', String(now()));
      created = true;
      return 0;
    }
    return identity.version;
  });
  let version = step.immediate();

  if (version > latest) {
    throw new JournalError('NEWER_SCHEMA', file, `schema version ${version} was written by a newer Halyard (this one knows up to ${latest}); upgrade Halyard to open it`);
  }
  const recorded = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
  if (recorded.length !== version || recorded.some((v, i) => v !== i + 1)) {
    throw new JournalError('CORRUPT', file, `schema_migrations holds [${recorded.join(', ')}] but meta.schema_version is ${version}`);
  }

  for (const m of migrations.slice(version)) {
    const apply = db.transaction(() => {
      // Re-read under the lock: another process may have applied this step meanwhile.
      const current = Number(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get());
      if (current >= m.version) return false;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, now());
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(m.version));
      db.pragma(`user_version = ${m.version}`);
      return true;
    });
    let done: boolean;
    try {
      done = apply.immediate();
    } catch (e) {
      throw new JournalError('MIGRATION_FAILED', file, `migration ${m.version} (${m.name}) failed, the journal stays at version ${version}: ${(e as Error).message}`, { cause: e });
    }
    if (done) applied.push(m.version);
    version = m.version;
  }
  return { version, applied, created };
}
