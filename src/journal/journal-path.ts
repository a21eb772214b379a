/**
 * Where the journal lives: `--journal`, else `HALYARD_JOURNAL`, else the config's `journal.path`,
 * else `data/halyard.db` under the working directory.
 */
export const DEFAULT_JOURNAL_PATH = 'data/halyard.db';

export function resolveJournalPath(explicit: string | undefined, env: NodeJS.ProcessEnv, configured?: string): string {
  return explicit || env['HALYARD_JOURNAL'] || configured || DEFAULT_JOURNAL_PATH;
}
