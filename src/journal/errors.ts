/**
 * Errors of the journal (design: journal/ is the SQLite adapter). A `JournalError` always names the
 * file and says why, so a wrong `--journal` path reads as a clear message, not as "SQLITE_NOTADB".
 */

export type JournalErrorCode =
  /** The file exists but is not a SQLite database (a text file, a CSV, a truncated copy). */
  | 'NOT_SQLITE'
  /** A SQLite database, but not a Halyard journal; it is never migrated. */
  | 'FOREIGN_DATABASE'
  /** A Halyard journal written by a newer Halyard (schema version above the ones known here). */
  | 'NEWER_SCHEMA'
  /** A journal of an older schema opened read-only that could not be upgraded (openJournal upgrades it when it can write). */
  | 'OLDER_SCHEMA'
  /** A migration step failed; the journal stays at the version before it. */
  | 'MIGRATION_FAILED'
  /** The journal's own records are inconsistent (meta row missing, migration history broken). */
  | 'CORRUPT'
  /** The file could not be opened (permissions, missing folder). */
  | 'OPEN_FAILED'
  /** A value given to a store breaks the journal's rules (not decimal text, unknown run, ...). */
  | 'INVALID_RECORD'
  /** Another connection held the write lock past the busy timeout (a long import, a record). */
  | 'BUSY';

export class JournalError extends Error {
  readonly code: JournalErrorCode;
  readonly file: string;
  constructor(code: JournalErrorCode, file: string, reason: string, options?: { cause?: unknown }) {
    super(`journal ${file}: ${reason}`, options);
    this.name = 'JournalError';
    this.code = code;
    this.file = file;
  }
}
