/**
 * Turns a SQLite constraint failure into a `JournalError` that says which record and which rule,
 * instead of a bare "CHECK constraint failed".
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
    throw e;
  }
}
