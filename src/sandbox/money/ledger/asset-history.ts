/**
 * `GET /openapi/v1/asset/transaction/history` (spec 4.9, 2.12): one token's balance changes from
 * the money ledger, `{transfers: [{txId, bizSubject, tokenId, status, changed, time}], meta}`.
 *
 * Window (rule 5): both times: as sent (the table refuses spans over 7 days); only startTime: the
 * 7 days after it; only endTime: the 7 days before it; neither: the last 7 days. Bounds inclusive.
 * `subUserId`: a master reads one of its sub-accounts; any other UID is -1025.
 * Paging: `meta.next_page` = pageNum + 1 and `previous_page` = pageNum - 1 (as the spec's sample,
 * which shows next_page 2 with has_next false); `has_next` tells whether a next page has rows.
 */
import { defineHandlers, VenueError, venueErrors, type HandlerContext } from '../../http/route-types.ts';
import { moneyLedgerOf } from './money-ledger.ts';

const WEEK_MS = 7 * 86_400_000;

export function historyWindow(now: number, start: number | undefined, end: number | undefined, spanMs: number): { startTime: number; endTime: number } {
  if (start !== undefined && end !== undefined) return { startTime: start, endTime: end };
  if (start !== undefined) return { startTime: start, endTime: start + spanMs };
  if (end !== undefined) return { startTime: end - spanMs, endTime: end };
  return { startTime: now - spanMs, endTime: now };
}

function targetAccount(ctx: HandlerContext): string {
  const self = ctx.account;
  if (!self) throw new VenueError(-1002, 'You are not authorized to execute this request.', 401);
  const sub = ctx.params['subUserId'];
  if (sub === undefined || sub === self.id) return self.id;
  const target = ctx.sandbox.accounts.getAccount(String(sub));
  if (!target || target.masterId !== self.id) throw venueErrors.invalidParam('subUserId', 'not a sub-account of this account');
  return target.id;
}

export const assetHistoryHandlers = defineHandlers({
  'subAccount.assetTransactionHistory': (ctx) => {
    const accountId = targetAccount(ctx);
    const tokenId = String(ctx.params['tokenId']).toUpperCase();
    const pageNum = (ctx.params['pageNum'] as number | undefined) ?? 1;
    const pageSize = (ctx.params['pageSize'] as number | undefined) ?? 20;
    const window = historyWindow(ctx.now, ctx.params['startTime'] as number | undefined, ctx.params['endTime'] as number | undefined, WEEK_MS);
    const rows = moneyLedgerOf(ctx.sandbox.services).entries(accountId, { asset: tokenId, ...window }, ctx.now);
    const from = (pageNum - 1) * pageSize;
    return {
      transfers: rows.slice(from, from + pageSize).map((e) => ({
        txId: e.txId,
        bizSubject: e.bizSubject,
        tokenId: e.asset,
        status: e.status,
        changed: e.delta,
        time: String(e.time),
      })),
      meta: { has_next: rows.length > from + pageSize, next_page: pageNum + 1, previous_page: pageNum - 1 },
    };
  },
});
