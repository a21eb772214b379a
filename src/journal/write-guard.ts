/**
 * Turns a SQLite constraint failure into a `JournalError` that says which record and which rule,
 * instead of a bare "CHECK constraint failed"; and a write lock held by another process past the
 * busy timeout (SQLITE_BUSY, "database is locked") into one that says what to do.
 */
import { JournalError } from './errors.ts';

export function guardWrite<T>(file: string, what: () => string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    const code = e && typeof e === 'object' && 'code' in e ? String(e.code) : '';
    if (code.startsWith('SQLITE_CONSTRAINT')) {
      throw new JournalError('INVALID_RECORD', file, `${what()}: ${(e as Error).message}`, { cause: e });
    }
    if (code.startsWith('SQLITE_BUSY')) {
      throw new JournalError('BUSY', file, `${what()}: another process held the journal's write lock past the wait (an import or a record still running); nothing was written, run this again once it has finished`, { cause: e });
    }
    throw e;
  }
}
