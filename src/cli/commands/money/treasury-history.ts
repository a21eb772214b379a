/**
 * `halyard treasury history [--journal FILE] [--plan ID] [--json]` (issue 23 deliverable 6): every
 * treasury move the journal holds (treasury_moves, schema 7) with its client id, venue id and last
 * state; a move whose outcome was unknown says how it was resolved. Read-only: a running bot's
 * journal is read while it writes. A missing journal is a usage error (exit 2) naming the path.
 */
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { loadConfig } from '../../../config/load.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import { formatHistory, historyJson } from '../../../treasury/journal/history.ts';
import { openMoveStore } from '../../../treasury/journal/move-store.ts';
import { loadTreasuryFile } from '../../../treasury/policy/parse.ts';
import { UsageError } from '../../errors.ts';
import { printJson, type CliIo } from '../../io.ts';
import { JOURNAL_OPTION, withJournal } from '../../journal-file.ts';
import { checkJournalPath, journalSource } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';

export interface TreasuryHistoryArgs extends GlobalArgs {
  journal?: string;
  plan?: string;
  json?: boolean;
}

export const TREASURY_HISTORY = {
  command: 'history',
  describe: 'List every treasury move in the journal: client id, venue id, final state, how an unknown outcome was resolved',
} as const;

export function treasuryHistoryCommand(io: CliIo) {
  return {
    ...TREASURY_HISTORY,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('journal', JOURNAL_OPTION)
        .option('plan', { type: 'string', describe: 'only the moves of this plan id' })
        .option('json', { type: 'boolean', describe: 'print the moves as JSON' }),
    handler: (args: TreasuryHistoryArgs) => {
      runTreasuryHistory(io, args);
    },
  };
}

export function runTreasuryHistory(io: CliIo, args: TreasuryHistoryArgs): void {
  // --config names the treasury policy or a bot config here, as for plan and apply: a bot config's journal is the default.
  const configured = typeof args.config === 'string' ? loadTreasuryFile(args.config).bot?.journal : loadConfig(undefined).journal.path;
  const file = resolveJournalPath(args.journal, io.env, configured);
  checkJournalPath(file, journalSource(args.journal, io.env, configured));
  if (!existsSync(file)) throw new UsageError(`no journal at ${file}: treasury apply and the bot write their moves to their journal; name it with --journal`);
  withJournal(file, { readonly: true }, (journal) => {
    const rows = openMoveStore(journal).list(args.plan === undefined ? {} : { planId: args.plan });
    if (args.json === true) {
      printJson(io, historyJson(rows));
      return;
    }
    io.out(args.plan !== undefined && rows.length === 0 ? `no treasury moves of plan ${args.plan} in ${file}` : formatHistory(rows));
  });
}
