/**
 * `halyard payment-request create|list|cancel|remind` (issue 23 deliverable 5; spec 4.3, shapes
 * 2.13): SIGNED USER_DATA with HALYARD_API_KEY and HALYARD_API_SECRET. The work is in
 * src/merchant/payment-request/; this file reads the line and prints. Options that belong to
 * another action are refused by name.
 */
import type { Argv } from 'yargs';
import { recordId } from '../../../merchant/input.ts';
import { cancelRequest, createRequest, listRequests, remindRequest, requestCreate, requestListQuery, type RequestCreateArgs, type RequestListArgs } from '../../../merchant/payment-request/request-actions.ts';
import { UsageError } from '../../errors.ts';
import { printJson, type CliIo } from '../../io.ts';
import { withClient, type GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { refuseForeignOptions } from './merchant-options.ts';

const ACTIONS: Record<string, readonly string[]> = {
  create: ['payer', 'account', 'amount', 'message', 'collectors', 'expires'],
  list: ['id', 'from', 'to', 'limit'],
  cancel: ['id'],
  remind: ['id'],
};

const OPTIONS = {
  payer: "create: the payer's email or phone number the request goes to",
  account: 'create: the receiving account, a token such as PHP or a balance id',
  amount: 'create: the amount, a decimal above 0',
  message: 'create: the message the payer reads',
  collectors: 'create: payment collector codes, comma-separated (service_peso_wallet, CEBL, MLH, PLWN)',
  expires: 'create: ISO 8601 time or a delta such as 1w, 3d, 2h, 32m (default 7d)',
  id: 'list / cancel / remind: the payment request id',
  from: 'list: created at or after (ms or ISO 8601)',
  to: 'list: created at or before (ms or ISO 8601)',
  limit: 'list: at most this many (1..1000, default 500)',
} as const;

export function paymentRequestCommand(io: CliIo) {
  return {
    ...COMMANDS['payment-request'],
    builder: (y: Argv<GlobalArgs>) => {
      let b: Argv<GlobalArgs> = y.positional('action', { type: 'string', describe: 'create, list, cancel or remind' });
      for (const [name, describe] of Object.entries(OPTIONS)) b = b.option(name, { type: 'string', describe }) as Argv<GlobalArgs>;
      return b.example('$0 payment-request create --payer payer@example.com --account PHP --amount 250 --message "March rent"', '');
    },
    handler: async (args: GlobalArgs & { action?: string }) => {
      const action = args.action ?? '';
      if (!(action in ACTIONS)) throw new UsageError(`payment-request: '${action}' is not an action: create, list, cancel or remind`);
      refuseForeignOptions(args, 'payment-request', action, ACTIONS);
      // Read before any connection: a bad option changes nothing and sends nothing.
      if (action === 'create') {
        const req = requestCreate(args as RequestCreateArgs);
        await withClient(io, args, async ({ client }) => printJson(io, await createRequest(client.paymentRequest, req)));
      } else if (action === 'list') {
        const q = requestListQuery(args as RequestListArgs);
        await withClient(io, args, async ({ client }) => printJson(io, await listRequests(client.paymentRequest, q)));
      } else {
        const id = recordId('--id', args['id']);
        await withClient(io, args, async ({ client }) => {
          if (action === 'cancel') printJson(io, await cancelRequest(client.paymentRequest, id));
          else printJson(io, { id, reminded: await remindRequest(client.paymentRequest, id) });
        });
      }
    },
  };
}
