/**
 * The journal file a command was given (--journal, $HALYARD_JOURNAL, the config's journal.path or
 * the default), opened for the command: a file that is not a Halyard journal, or one written by a
 * newer Halyard, is the user's input and so a usage error (exit 2) with the journal's own message.
 */
import { existsSync } from 'node:fs';
import type { OpenOptions } from '../journal/db.ts';
import { JournalError } from '../journal/errors.ts';
import { resolveJournalPath } from '../journal/journal-path.ts';
import { openJournal } from '../journal/journal.ts';
import type { Journal } from '../journal/journal.ts';
import { openJournalAsIs, type JournalAsIs } from '../journal/klines/read-as-is.ts';
import { UsageError } from './errors.ts';
import { checkJournalPath, journalSource } from './paths.ts';

/** `openJournal`, its JournalError a usage error. */
/** The `--journal` option of every command that reads or writes the journal. */
export const JOURNAL_OPTION = { type: 'string', describe: 'journal file (default $HALYARD_JOURNAL or data/halyard.db)' } as const;

export function openUserJournal(file: string, options: OpenOptions = {}): Journal {
  try {
    return openJournal(file, options);
  } catch (e) {
    if (e instanceof JournalError) throw new UsageError(e.message);
    throw e;
  }
}

/** `fn` on the journal opened as `openUserJournal` does, closed after. */
export function withJournal<T>(file: string, options: OpenOptions, fn: (journal: Journal) => T): T {
  const journal = openUserJournal(file, options);
  try {
    return fn(journal);
  } finally {
    journal.close();
  }
}

/**
 * `fn` on the journal's klines read as the file is (read-as-is.ts: an older schema is not
 * upgraded), closed after; what `openUserJournal` refuses is refused the same way.
 */
export function withJournalAsIs<T>(file: string, fn: (journal: JournalAsIs) => T): T {
  const journal = openUserJournalAsIs(file);
  try {
    return fn(journal);
  } finally {
    journal.close();
  }
}

/** `openJournalAsIs`, its JournalError a usage error (for a caller that closes it itself: across awaits). */
export function openUserJournalAsIs(file: string): JournalAsIs {
  try {
    return openJournalAsIs(file);
  } catch (e) {
    if (e instanceof JournalError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The journal a reading command reads (backtest, data): resolved, a path that can be a journal
 * file, existing, opened read only. `explicit` is --journal, `configured` the config's path.
 */
export function openExistingJournal(explicit: string | undefined, env: NodeJS.ProcessEnv, configured: string | undefined): { file: string; journal: Journal } {
  const file = resolveJournalPath(explicit, env, configured);
  checkJournalPath(file, journalSource(explicit, env, configured));
  if (!existsSync(file)) throw new UsageError(`no journal at ${file}: fill it with \`halyard import FILE.csv\` or \`halyard record\`, or name another with --journal (or $HALYARD_JOURNAL)`);
  return { file, journal: openUserJournal(file, { readonly: true }) };
}
