/**
 * Resolving a move whose outcome is unknown (spec 7.1: a 5xx "must not be treated as a failure";
 * a timeout likewise): looked up by the client id the request carried, never sent again.
 * Withdrawals, transfers and fund collection go through the client's `reconcileWrite`
 * (src/exchange/client/reconcile-writes.ts); a cash-out (fiat history by `internalOrderId`) and an
 * accepted quote (convert history by quote id) are looked up here the same way: when nothing is
 * found and the request could still land, it waits until it cannot (`settleWait`) and looks once
 * more, so "not found" is final.
 */
import { RECONCILABLE_WRITES } from '../../exchange/client/reconcile-writes.ts';
import { settleWait } from '../../exchange/client/reconcile.ts';
import type { ExchangeError } from '../../exchange/errors/errors.ts';
import type { MoveResolution } from '../journal/move-store.ts';
import type { ConvertMove, Move } from '../moves.ts';
import type { ApplyContext } from './context.ts';
import { findConvert, findMove, foundOf, type Found } from './lookups.ts';

export interface Resolved {
  found: Found | undefined;
  resolution: MoveResolution;
}

const HISTORY_OF = {
  transfer: 'subAccount.universalTransferHistory',
  collect: 'subAccount.getFundRecord',
  withdraw: 'wallet.withdrawHistory',
  'cash-out': 'fiat.historyV2',
} as const;

export async function resolveUnknown(ctx: ApplyContext, move: Exclude<Move, ConvertMove>, error: ExchangeError): Promise<Resolved> {
  if (RECONCILABLE_WRITES.includes(error.endpoint)) {
    const r = await ctx.client.reconcileWrite(error);
    const found = r.status === 'found' ? foundOf(move, r.record) : undefined;
    const resolution: MoveResolution = { by: HISTORY_OF[move.kind], key: r.clientId, found: found !== undefined, at: ctx.serverNow(), ...(found ? { record: found.record } : {}) };
    return { found, resolution };
  }
  const found = await lookTwice(ctx, error, () => findMove(ctx.client, move));
  return { found, resolution: { by: HISTORY_OF[move.kind], key: move.clientId, found: found !== undefined, at: ctx.serverNow(), ...(found ? { record: found.record } : {}) } };
}

/** An accept-quote whose outcome is unknown: the convert order carrying its quote id, from just before it was sent. */
export async function resolveAccept(ctx: ApplyContext, quoteId: string, since: number, error: ExchangeError): Promise<Resolved> {
  const found = await lookTwice(ctx, error, () => findConvert(ctx.client, quoteId, since));
  return { found, resolution: { by: 'convert.queryOrderHistory', key: quoteId, found: found !== undefined, at: ctx.serverNow(), ...(found ? { record: found.record } : {}) } };
}

async function lookTwice(ctx: ApplyContext, error: ExchangeError, find: () => Promise<Found | undefined>): Promise<Found | undefined> {
  const first = await find();
  if (first !== undefined) return first;
  if (!(await settleWait(ctx.client.rest, error))) return undefined;
  return find();
}
