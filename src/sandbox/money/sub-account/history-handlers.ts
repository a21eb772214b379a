/**
 * Spec 4.9 universal-transfer history (master, rule 2) and sub-account transfer history (sub,
 * rule 3); limits spec 8.9-8.10. Oldest first (spec 1.2; 4.9 names no other order), `{result,
 * total}` with `total` the number of matches before paging.
 *
 * Universal history: `fromEmail` and `toEmail` not both (checked before the handler); with neither,
 * `fromEmail` is the master's e-mail (rule 2), so the default lists what the master sent. A sent
 * e-mail must be the master's or one of its sub-accounts' (-1025). Sub history: `type` 1 lists
 * transfers into the calling sub-account, 2 those out of it (the endpoint table reads a missing or
 * invalid type as 2, spec 4.9).
 * Windows: window.ts (30 days).
 */
import type { HandlerContext } from '../../http/route-types.ts';
import { defineHandlers } from '../../http/route-types.ts';
import { memberOf, param, requireMaster, requireSub } from './access.ts';
import type { SubAccountArea } from './area-state.ts';
import { transferView, type SubTransferRecord } from './transfer-store.ts';
import { inWindow, pageOf, resolveWindow } from './window.ts';

const HISTORY_DAYS = 30;

function answer(ctx: HandlerContext, records: SubTransferRecord[], asset: string | undefined, extra: (r: SubTransferRecord) => boolean) {
  const window = resolveWindow(param<number>(ctx, 'startTime'), param<number>(ctx, 'endTime'), ctx.now, HISTORY_DAYS);
  const clientTranId = param<string>(ctx, 'clientTranId');
  const wanted = asset?.toUpperCase();
  const matches = records.filter(
    (r) => inWindow(window, r.createdAt) && (wanted === undefined || r.asset === wanted) && (clientTranId === undefined || r.clientTranId === clientTranId) && extra(r),
  );
  return { result: pageOf(matches, param<number>(ctx, 'page') ?? 1, param<number>(ctx, 'limit') ?? 500).map(transferView), total: matches.length };
}

export function historyHandlers(area: SubAccountArea) {
  return defineHandlers({
    'subAccount.universalTransferHistory': (ctx) => {
      const master = requireMaster(ctx);
      const fromEmail = param<string>(ctx, 'fromEmail');
      const toEmail = param<string>(ctx, 'toEmail');
      const to = toEmail === undefined ? undefined : memberOf(ctx, master, toEmail, 'toEmail');
      const from = fromEmail !== undefined ? memberOf(ctx, master, fromEmail, 'fromEmail') : to === undefined ? master : undefined;
      return answer(ctx, area.transfers.ofMaster(master.id), param<string>(ctx, 'tokenId'), (r) => (from === undefined || r.fromAccountId === from.id) && (to === undefined || r.toAccountId === to.id));
    },
    'subAccount.subTransferHistory': (ctx) => {
      const { sub, master } = requireSub(ctx);
      const incoming = param<number>(ctx, 'type') === 1;
      return answer(ctx, area.transfers.ofMaster(master.id), param<string>(ctx, 'asset'), (r) => (incoming ? r.toAccountId === sub.id : r.fromAccountId === sub.id));
    },
  });
}
