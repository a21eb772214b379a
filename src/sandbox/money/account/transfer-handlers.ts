/**
 * `POST /openapi/transfer/v3/transfers`, `POST /openapi/transfer/v4/transfers` (notes 6) and
 * `GET /openapi/transfer/v3/transfers/{id}` (spec 2.9, 4.3). v3 and v4 behave the same here: the
 * sandbox's errors are always JSON `{code, msg}` (the v4 promise) and both echo `customSenderName`.
 *
 * Query (4.3 rules): path `id`, else `client_transfer_id` (the caller's own client ids), gives that
 * record (an empty list when the caller cannot see it); otherwise a page of every transfer the
 * caller sent or received, oldest first, filtered by `from_address` (sender e-mail) or
 * `to_address` (target as sent), case-insensitive. `type` 1 = in, 2 = out.
 * `meta` (spec 2.9: total_count, next_page, previous_page, all int): the neighbours of the page
 * asked for, page + 1 and page - 1 (0 on the first page), as the asset transaction history pages
 * (ledger/asset-history.ts); `total_count` tells where the list ends. A record asked for by id is
 * page 1 of its list.
 */
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { transfersOf, type TransferRecord } from './transfers.ts';

const str = (ctx: HandlerContext, name: string) => (ctx.params[name] === undefined ? undefined : String(ctx.params[name]));

const meta = (totalCount: number, page: number) => ({ total_count: totalCount, next_page: page + 1, previous_page: page - 1 });

function created(r: TransferRecord) {
  return {
    transfer: {
      id: r.id,
      status: r.status,
      account: r.account,
      target_address: r.targetAddress,
      amount: r.amount,
      exchange: null,
      payment: null,
      client_transfer_id: r.clientTransferId ?? null,
      message: r.message ?? null,
      errorMessage: r.errorMessage ?? null,
      ...(r.customSenderName === undefined ? {} : { customSenderName: r.customSenderName }),
    },
  };
}

function item(r: TransferRecord, viewer: string) {
  return {
    id: r.id,
    client_transfer_id: r.senderId === viewer ? (r.clientTransferId ?? null) : null,
    account: r.asset,
    amount: r.amount,
    fee_amount: '0',
    currency: r.asset,
    sourceAddress: r.sourceAddress,
    target_address: r.targetAddress,
    payment: null,
    type: r.senderId === viewer ? 2 : 1,
    status: r.status,
    message: r.message ?? null,
    created_at: new Date(r.createdAt).toISOString(),
  };
}

function createTransfer(ctx: HandlerContext) {
  const record = transfersOf(ctx.sandbox).create(
    ctx.account?.id ?? '',
    {
      client_transfer_id: str(ctx, 'client_transfer_id'),
      account: String(ctx.params['account']),
      target_address: String(ctx.params['target_address']),
      amount: String(ctx.params['amount']),
      message: str(ctx, 'message'),
      customSenderName: str(ctx, 'customSenderName'),
    },
    ctx.now,
  );
  return created(record);
}

function getTransfers(ctx: HandlerContext) {
  const viewer = ctx.account?.id ?? '';
  const visible = transfersOf(ctx.sandbox).visibleTo(viewer);
  const id = str(ctx, 'id');
  const clientId = str(ctx, 'client_transfer_id');
  if (id !== undefined || clientId !== undefined) {
    const one = id !== undefined ? visible.filter((r) => r.id === id) : visible.filter((r) => r.senderId === viewer && r.clientTransferId === clientId);
    return { transfers: one.map((r) => item(r, viewer)), meta: meta(one.length, 1) };
  }
  const from = str(ctx, 'from_address')?.toLowerCase();
  const to = str(ctx, 'to_address')?.toLowerCase();
  const rows = visible.filter((r) => (from === undefined || r.sourceAddress.toLowerCase() === from) && (to === undefined || r.targetAddress.toLowerCase() === to));
  const page = (ctx.params['page'] as number | undefined) ?? 1;
  const perPage = (ctx.params['per_page'] as number | undefined) ?? 2000;
  const start = (page - 1) * perPage;
  return {
    transfers: rows.slice(start, start + perPage).map((r) => item(r, viewer)),
    meta: meta(rows.length, page),
  };
}

export const transferHandlers = defineHandlers({
  'account.createTransfer': createTransfer,
  'account.createTransferV4': createTransfer,
  'account.getTransfers': getTransfers,
});
