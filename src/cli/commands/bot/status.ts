/**
 * `halyard status [--journal FILE] [--run ID] [--json]`: what a running or stopped bot is doing,
 * from its journal alone (issue 21 deliverable 4: "`halyard status --journal FILE` prints the same
 * for a running or stopped bot from its journal"). The block is the one the bot draws on its
 * terminal (bot/status/render-block.ts); `--json` prints the BotStatusSnapshot itself. The journal
 * is opened read-only: a running bot's journal (WAL) is read while it writes, nothing is changed.
 * The last live or sandbox run by default; a missing file, a journal without a live run, or an
 * unknown run id is a usage error (exit 2) that says which.
 */
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { statusFromJournal, StatusFromJournalError } from '../../../bot/status/from-journal.ts';
import { renderStatusBlock } from '../../../bot/status/render-block.ts';
import { loadConfig } from '../../../config/load.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import { UsageError } from '../../errors.ts';
import { isTerminal, printJson, useColor, type CliIo } from '../../io.ts';
import { JOURNAL_OPTION, withJournal } from '../../journal-file.ts';
import { checkJournalPath, journalSource } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

export interface StatusArgs extends GlobalArgs {
  journal?: string;
  run?: string;
  json?: boolean;
}

export interface StatusCommandOptions {
  /** The clock ages are counted from (tests pin it); default Date.now. */
  readonly now?: () => number;
}

export function statusCommand(io: CliIo, options: StatusCommandOptions = {}) {
  return {
    ...COMMANDS.status,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('journal', JOURNAL_OPTION)
        .option('run', { type: 'string', describe: 'the live run to show (default: the last one started)' })
        .option('json', { type: 'boolean', describe: 'print the status snapshot as JSON' }),
    handler: (args: StatusArgs) => {
      runStatus(io, args, options.now ?? Date.now);
    },
  };
}

export function runStatus(io: CliIo, args: StatusArgs, now: () => number): void {
  const configured = loadConfig(args.config as string | undefined).journal.path;
  const file = resolveJournalPath(args.journal, io.env, configured);
  checkJournalPath(file, journalSource(args.journal, io.env, configured));
  if (!existsSync(file)) throw new UsageError(`no journal at ${file}: a bot writes its journal where its config says (\`halyard run --config bot.json\`); name it with --journal`);
  withJournal(file, { readonly: true }, (journal) => {
    let snapshot;
    try {
      snapshot = statusFromJournal(journal, args.run);
    } catch (e) {
      if (e instanceof StatusFromJournalError) throw new UsageError(e.message);
      throw e;
    }
    if (args.json === true) {
      printJson(io, snapshot);
      return;
    }
    const columns = isTerminal(io, 'out') ? process.stdout.columns : undefined;
    const block = renderStatusBlock(snapshot, { now: now(), color: useColor(io, 'out'), ...(columns !== undefined && columns > 0 ? { width: columns } : {}) });
    const marks = snapshot.strategies.some((s) => s.positions.some((p) => p.markSource !== null));
    io.out(
      [
        block,
        `(from journal ${file}: realised PnL FIFO as the backtest counts it, fees included${marks ? '; unrealised marked at the newest fill or recorded bar close' : ''}; weight and clock offset are known to the running bot only)`,
      ].join('\n'),
    );
  });
}
