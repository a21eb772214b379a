/**
 * Spec 4.9 universal transfer (master) and sub-to-master (sub), rule 1: an omitted side is the
 * master; at least one side must be sent (checked before the handler); master->sub, sub->master
 * and sub->sub of one master are allowed. An e-mail equal to the master's own counts as the
 * master; both sides the same account is refused (-1025). `clientTranId` is unique within the
 * master's family (-1025 when reused); without it the sandbox generates a numeric one.
 * Transfers settle at once: the record's status is `success`, and the answer `result: true`.
 */
import type { SandboxAccount } from '../../contracts.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { defineHandlers } from '../../http/route-types.ts';
import { memberOf, param, requireMaster, requireSub } from './access.ts';
import type { SubAccountArea } from './area-state.ts';
import { subAccountErrors } from './errors.ts';
import { checkAmount, moveFunds } from './move-funds.ts';

function transfer(ctx: HandlerContext, area: SubAccountArea, master: SandboxAccount, from: SandboxAccount, to: SandboxAccount) {
  if (from.id === to.id) throw subAccountErrors.invalid('toEmail', 'the source and the target are the same account');
  for (const side of [from, to]) if (side.frozen) throw subAccountErrors.frozen(side.email);
  const asset = String(ctx.params['asset']).toUpperCase();
  const amount = checkAmount(ctx, asset, String(ctx.params['amount']));
  const sent = param<string>(ctx, 'clientTranId');
  if (sent !== undefined && area.transfers.find(master.id, sent)) throw subAccountErrors.invalid('clientTranId', `'${sent}' was already used`);
  const clientTranId = sent ?? area.transfers.nextClientTranId(master.id);
  moveFunds(ctx.sandbox, { from, to, asset, amount, time: ctx.now, txId: clientTranId });
  area.transfers.add({
    masterId: master.id,
    clientTranId,
    fromAccountId: from.id,
    toAccountId: to.id,
    fromEmail: from.email,
    toEmail: to.email,
    asset,
    amount: amount.toFixed(),
    createdAt: ctx.now,
    status: 'success',
  });
  return { clientTransferId: clientTranId, result: true };
}

export function transferHandlers(area: SubAccountArea) {
  return defineHandlers({
    'subAccount.universalTransfer': (ctx) => {
      const master = requireMaster(ctx);
      const fromEmail = param<string>(ctx, 'fromEmail');
      const toEmail = param<string>(ctx, 'toEmail');
      const from = fromEmail === undefined ? master : memberOf(ctx, master, fromEmail, 'fromEmail');
      const to = toEmail === undefined ? master : memberOf(ctx, master, toEmail, 'toEmail');
      return transfer(ctx, area, master, from, to);
    },
    'subAccount.subToMaster': (ctx) => {
      const { sub, master } = requireSub(ctx);
      return transfer(ctx, area, master, sub, master);
    },
  });
}
