/**
 * A journal's klines read without changing its file: opened read-only at whatever schema it has.
 * `openJournal` upgrades a journal of an older schema even when asked for read-only (a backtest
 * of it needs the current tables); a dry run must not, so it reads the `klines` table (the same in
 * every version, kline-rows.ts) as it is and says what a real run would upgrade.
 */
import { openDatabase, type OpenOptions } from '../db.ts';
import { KlineRows } from './kline-rows.ts';
import { LATEST_SCHEMA_VERSION } from '../migrations/index.ts';

export interface JournalAsIs {
  readonly file: string;
  /** The file's schema version: at most `latestVersion` (a newer journal is refused). */
  readonly schemaVersion: number;
  /** The version this Halyard writes: a writer opening the file upgrades it to this first. */
  readonly latestVersion: number;
  readonly klines: KlineRows;
  close(): void;
}

/** Throws JournalError for what `openJournal` would refuse too (not a journal, a newer schema, missing). */
export function openJournalAsIs(file: string, options: Pick<OpenOptions, 'busyTimeoutMs'> = {}): JournalAsIs {
  const { db, version } = openDatabase(file, { ...options, readonly: true, olderAsIs: true });
  try {
    return {
      file,
      schemaVersion: version,
      latestVersion: LATEST_SCHEMA_VERSION,
      klines: new KlineRows(db),
      close: () => {
        if (db.open) db.close();
      },
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
