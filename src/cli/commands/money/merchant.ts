/**
 * `halyard merchant invoice create|list|cancel`, `halyard merchant receive` and `merchant history` (issue 23
 * deliverable 5; spec 4.10, 5.4, 6.1). Merchant credentials from HALYARD_MERCHANT_KEY and
 * HALYARD_MERCHANT_SECRET (src/merchant/credentials.ts). The work is in src/merchant/; this file
 * reads the line and prints. Options that belong to another action are refused by name.
 */
import type { Argv } from 'yargs';
import { existsSync } from 'node:fs';
import { loadConfig } from '../../../config/load.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import { createLogger } from '../../../log/logger.ts';
import { humanLines } from '../../../log/human-lines.ts';
import { CallbackStore } from '../../../merchant/callbacks/callback-store.ts';
import { formatHistory, invoiceHistory } from '../../../merchant/callbacks/history.ts';
import { listenAddress } from '../../../merchant/callbacks/listen-address.ts';
import { runReceiver } from '../../../merchant/callbacks/run-receiver.ts';
import { merchantKeysFromEnv } from '../../../merchant/credentials.ts';
import { cancelInvoice, createInvoice, invoiceCreateRequest, invoiceListQuery, listInvoices, type InvoiceCreateArgs, type InvoiceListArgs } from '../../../merchant/invoice/invoice-actions.ts';
import { recordId } from '../../../merchant/input.ts';
import { UsageError } from '../../errors.ts';
import { EXIT, printJson, type CliIo } from '../../io.ts';
import { openUserJournal, withJournal } from '../../journal-file.ts';
import { intOption } from '../../options.ts';
import { checkJournalPath, journalSource } from '../../paths.ts';
import { withClient, type GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { refuseForeignOptions } from './merchant-options.ts';

interface MerchantArgs extends GlobalArgs {
  subject?: string;
  action?: string;
}

const ACTIONS: Record<string, readonly string[]> = {
  'invoice create': ['amount', 'currency', 'collectors', 'external-id', 'expires'],
  'invoice list': ['id', 'from', 'to', 'limit'],
  'invoice cancel': ['id'],
  receive: ['listen', 'journal', 'quiet-minutes'],
  history: ['journal', 'id', 'json'],
};

const OPTIONS = {
  amount: 'invoice create: the amount, a decimal above 0',
  currency: 'invoice create: the currency, e.g. PHP',
  collectors: 'invoice create: payment collector codes, comma-separated (default service_peso_wallet)',
  'external-id': "invoice create: your transaction id (default: derived from the invoice and today's date, so a rerun cannot make a second invoice)",
  expires: 'invoice create: ISO 8601 UTC time or a delta such as 1w, 3d, 2h, 32m (default 7d)',
  id: 'invoice list / cancel, history: the invoice id',
  from: 'invoice list: created at or after (ms or ISO 8601)',
  to: 'invoice list: created at or before (ms or ISO 8601)',
  limit: 'invoice list: at most this many (1..1000, default 500)',
  listen: 'receive: HOST:PORT to take callbacks on, e.g. 127.0.0.1:8787',
  journal: 'receive / history: journal file (default $HALYARD_JOURNAL or data/halyard.db)',
  'quiet-minutes': 'receive: with no callback for this long, ask the venue for the invoices\' states (default 5)',
} as const;

export function merchantCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    ...COMMANDS.merchant,
    builder: (y: Argv<GlobalArgs>) => {
      let b: Argv<GlobalArgs> = y
        .positional('subject', { type: 'string', describe: 'invoice, receive or history' })
        .positional('action', { type: 'string', describe: 'for invoice: create, list or cancel' });
      for (const [name, describe] of Object.entries(OPTIONS)) b = b.option(name, { type: 'string', describe }) as Argv<GlobalArgs>;
      b = b.option('json', { type: 'boolean', describe: 'history: print JSON' }) as Argv<GlobalArgs>;
      return b.example('$0 merchant invoice create --amount 100 --currency PHP --expires 1d', '').example('$0 merchant receive --listen 127.0.0.1:8787 --journal data/merchant.db', '').example('$0 merchant history --journal data/merchant.db', '');
    },
    handler: async (args: MerchantArgs) => {
      const subject = args.subject;
      if (subject === 'receive') {
        if (args.action !== undefined) throw new UsageError(`merchant receive takes no action (got '${args.action}')`);
        refuseForeignOptions(args, 'merchant', 'receive', ACTIONS);
        await receive(io, args);
        return;
      }
      if (subject === 'history') {
        if (args.action !== undefined) throw new UsageError(`merchant history takes no action (got '${args.action}')`);
        refuseForeignOptions(args, 'merchant', 'history', ACTIONS);
        history(io, args);
        return;
      }
      if (subject !== 'invoice') throw new UsageError(`merchant: '${subject}' is not a subject; use \`merchant invoice create|list|cancel\`, \`merchant receive\` or \`merchant history\``);
      const action = `invoice ${args.action ?? ''}`;
      if (!(action in ACTIONS)) throw new UsageError(`merchant invoice: ${args.action === undefined ? 'name an action' : `'${args.action}' is not an action`}: create, list or cancel`);
      refuseForeignOptions(args, 'merchant', action, ACTIONS);
      // Read before any connection: a bad option changes nothing and sends nothing.
      if (action === 'invoice create') {
        const req = invoiceCreateRequest(args as InvoiceCreateArgs, Date.now());
        await withClient(io, args, async ({ client }) => {
          const r = await createInvoice(client.merchant, req, () => Date.now());
          if (r.outcome === 'unknown-not-found') {
            io.err(`error: the create's outcome is unknown (${r.error}) and no invoice with external_transaction_id ${r.externalTransactionId} was found; it was not sent again. Run the same command again later: the same id cannot make a second invoice`);
            setExit(EXIT.failed);
            return;
          }
          if (r.outcome === 'unknown-found') io.err(`note: the create's answer was lost; invoice ${r.invoice.id} carries external_transaction_id ${r.invoice.external_transaction_id}, so it was created`);
          printJson(io, r.invoice);
        });
      } else if (action === 'invoice list') {
        const q = invoiceListQuery(args as InvoiceListArgs);
        await withClient(io, args, async ({ client }) => printJson(io, await listInvoices(client.merchant, q)));
      } else {
        const id = recordId('--id', args['id']);
        await withClient(io, args, async ({ client }) => printJson(io, await cancelInvoice(client.merchant, id)));
      }
    },
  };
}

function history(io: CliIo, args: MerchantArgs): void {
  const config = loadConfig(args.config);
  const explicit = args['journal'] as string | undefined;
  const file = resolveJournalPath(explicit, io.env, config.journal.path);
  checkJournalPath(file, journalSource(explicit, io.env, config.journal.path));
  if (!existsSync(file)) throw new UsageError(`no journal at ${file}: \`merchant receive --journal FILE\` writes one; name it with --journal`);
  const id = args['id'] === undefined ? undefined : recordId('--id', args['id']);
  withJournal(file, { readonly: true }, (journal) => {
    const list = invoiceHistory(new CallbackStore(journal.db, file), id);
    if (id !== undefined && list.length === 0) throw new UsageError(`--id: no invoice ${id} in ${file}`);
    if (args['json'] === true) printJson(io, list);
    else io.out(formatHistory(list));
  });
}

async function receive(io: CliIo, args: MerchantArgs): Promise<void> {
  const listen = listenAddress('--listen', args['listen']);
  const quiet = intOption('--quiet-minutes', args['quiet-minutes'] as string | undefined, 1);
  const keys = merchantKeysFromEnv(io.env);
  const config = loadConfig(args.config);
  const explicit = args['journal'] as string | undefined;
  const file = resolveJournalPath(explicit, io.env, config.journal.path);
  checkJournalPath(file, journalSource(explicit, io.env, config.journal.path));
  const created = !existsSync(file);
  const logger = createLogger({ level: args.logLevel ?? config.log.level }, process.stderr.isTTY === true ? humanLines(process.stderr) : undefined);
  await withClient(io, args, async ({ client }) => {
    const journal = openUserJournal(file, { createDirs: true });
    try {
      await runReceiver({
        listen,
        journal,
        client,
        merchantKey: keys.merchantKey,
        quietMs: quiet === undefined ? undefined : quiet * 60_000,
        signal: io.signal,
        log: logger,
        onListening: (r) => io.out(`receiving invoice callbacks at ${r.url} (journal ${file}${created ? ', new' : ''}); Ctrl-C stops`),
      });
    } finally {
      journal.close();
    }
  });
}
