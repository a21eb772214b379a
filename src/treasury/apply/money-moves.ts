/**
 * Transfers, fund collection, withdrawals and cash-outs (issue 23 deliverable 3):
 * - transfer: spec 4.9 universal transfer with `clientTranId` (master<->sub, sub<->sub; the
 *   master's key, so sub-to-master needs no sub-account key);
 * - collect: spec 4.9 collect-from-sub-account with `clientRequestId`, followed from INIT to a
 *   final status; -10324 "Request repeated" while a task is INIT: when the task with our id exists,
 *   it is ours (the request was repeated, not a new one) and is followed; otherwise another task
 *   holds the desk and the move is refused for now;
 * - withdraw: spec 4.2 withdraw apply with `withdrawOrderId`, only with approval to a configured
 *   destination on the venue's whitelist (notes 6) whose address fits the coin's network (spec
 *   2.8), followed through the withdrawal history (0 PROCESSING -> 1 SUCCESS / 2 FAILED);
 * - cash-out: spec 4.8 with `internalOrderId`, the same approval rules, followed to SUCCEEDED,
 *   FAILED or CANCEL (spec 3.2: only those are final).
 * Every request's row is committed as sent before it leaves; an unknown outcome is resolved by
 * the client id (resolve.ts), never sent again.
 */
import { checkDestinations } from '../policy/venue-checks.ts';
import type { TreasuryPolicy } from '../policy/schema.ts';
import type { MoveRow } from '../journal/move-store.ts';
import type { CollectMove, ConvertMove, Move, WithdrawMove } from '../moves.ts';
import { MASTER } from '../moves.ts';
import { isLeaving, refuseLeaving } from './approval.ts';
import { errorOfJournaled, journaledRequest, type ApplyContext } from './context.ts';
import { classifyFailure } from './failures.ts';
import { follow } from './follow.ts';
import { findMove, type Found } from './lookups.ts';
import { resolveUnknown } from './resolve.ts';
import type { MoveEnd } from './types.ts';

type MoneyMove = Exclude<Move, ConvertMove>;

/** The client id parameter of each kind's request. */
export const CLIENT_ID_PARAM = { transfer: 'clientTranId', collect: 'clientRequestId', withdraw: 'withdrawOrderId', 'cash-out': 'internalOrderId' } as const;

export async function applyMoneyMove(ctx: ApplyContext, move: MoneyMove, row: MoveRow): Promise<MoveEnd> {
  // A move journaled as sent, unknown or pending was sent by an earlier apply: find it, never send it again.
  if (row.state === 'pending') {
    const found = await findMove(ctx.client, move);
    if (found !== undefined) return follow(ctx, move, found);
  }
  if (row.state === 'sent' || row.state === 'unknown' || row.state === 'pending') {
    const request = journaledRequest(row);
    if (request === undefined) return { state: 'failed', detail: `journaled as ${row.state} without its request: cannot be looked up; not sent again` };
    return afterUnknown(ctx, move, await resolveUnknown(ctx, move, errorOfJournaled(request, CLIENT_ID_PARAM[move.kind])));
  }

  if (isLeaving(move)) {
    const refusal = refuseLeaving(move, ctx.policy, ctx.approve) ?? (move.kind === 'withdraw' ? await venueRefusal(ctx, move) : undefined);
    if (refusal !== undefined) return { state: 'refused', detail: refusal };
  }
  if (move.kind === 'transfer' && move.from === move.to) return { state: 'refused', detail: `transfer of ${move.amount} ${move.asset} from ${move.from} to itself; nothing was sent` };

  let answer: unknown;
  try {
    answer = await send(ctx, move);
  } catch (e) {
    const failure = classifyFailure(e);
    if (failure.kind === 'not-sent') {
      await ctx.set(move, 'refused', { error: failure.text });
      return { state: 'refused', detail: `not sent: ${failure.text}` };
    }
    if (failure.kind === 'rejected') {
      if (move.kind === 'collect' && failure.error.venueCode === -10324) return repeatedCollection(ctx, move);
      return { state: 'failed', detail: `refused by the venue: ${failure.text}` };
    }
    await ctx.set(move, 'unknown', { error: failure.text });
    ctx.log('warn', 'treasury move outcome unknown: looking it up by its client id, not sending it again', { clientId: move.clientId, error: failure.text });
    return afterUnknown(ctx, move, await resolveUnknown(ctx, move, failure.error));
  }
  return afterAnswer(ctx, move, answer);
}

async function send(ctx: ApplyContext, move: MoneyMove): Promise<unknown> {
  const c = ctx.client;
  switch (move.kind) {
    case 'transfer': {
      const params = {
        ...(move.from === MASTER ? {} : { fromEmail: move.from }),
        ...(move.to === MASTER ? {} : { toEmail: move.to }),
        clientTranId: move.clientId,
        asset: move.asset,
        amount: move.amount,
      };
      await ctx.beforeSend(move, 'subAccount.universalTransfer', 'POST', '/openapi/v1/sub-account/transfer/universal-transfer', params);
      return c.subAccount.universalTransfer(params);
    }
    case 'collect': {
      const params = { clientRequestId: move.clientId };
      await ctx.beforeSend(move, 'subAccount.collectFromSubAccount', 'POST', '/openapi/v1/fund-collect/collect-from-sub-account', params);
      return c.subAccount.collectFromSubAccount(params);
    }
    case 'withdraw': {
      const params = {
        coin: move.coin,
        network: move.network,
        address: move.address,
        ...(move.addressTag === undefined ? {} : { addressTag: move.addressTag }),
        amount: move.amount,
        withdrawOrderId: move.clientId,
      };
      await ctx.beforeSend(move, 'wallet.withdraw', 'POST', '/openapi/wallet/v1/withdraw/apply', params);
      return c.wallet.withdraw(params);
    }
    case 'cash-out': {
      const params = {
        internalOrderId: move.clientId,
        currency: move.currency,
        amount: move.amount,
        channelName: move.channelName as 'INSTAPAY' | 'SWIFTPAY_PESONET',
        channelSubject: move.channelSubject,
        ...(move.extendInfo === undefined ? {} : { extendInfo: move.extendInfo }),
      };
      const { extendInfo, ...flat } = params;
      await ctx.beforeSend(move, 'fiat.cashOut', 'POST', '/openapi/fiat/v1/cash-out', { ...flat, ...(extendInfo === undefined ? {} : { extendInfo: JSON.stringify(extendInfo) }) });
      return c.fiat.cashOut(params);
    }
  }
}

/** The venue answered: a transfer is done (or refused, `result: false`); the others are followed from their first status. */
async function afterAnswer(ctx: ApplyContext, move: MoneyMove, answer: unknown): Promise<MoveEnd> {
  const body = (answer ?? {}) as Record<string, unknown>;
  if (move.kind === 'transfer' && body['result'] === false) return { state: 'failed', detail: 'the venue answered result: false (transfer not made)', data: { answer: body } };
  const found = await findMove(ctx.client, move);
  if (found !== undefined) return follow(ctx, move, found);
  // Answered but not yet listed: a transfer's acknowledgement says it is done; the others are pending.
  if (move.kind === 'transfer') return { state: 'succeeded', venueId: String(body['clientTransferId'] ?? move.clientId), data: { answer: body } };
  const venueId = move.kind === 'withdraw' ? body['id'] : move.kind === 'cash-out' ? (body['data'] as Record<string, unknown> | undefined)?.['internalOrderId'] : move.clientId;
  return follow(ctx, move, { by: 'answer', record: body, state: 'pending', venueId: venueId === undefined ? undefined : String(venueId) });
}

/** After a look-up by client id: found, it is followed to its end; not found, it never happened (and is not sent again). */
async function afterUnknown(ctx: ApplyContext, move: MoneyMove, resolved: { found: Found | undefined; resolution: MoveEnd['resolution'] }): Promise<MoveEnd> {
  await ctx.set(move, resolved.found === undefined ? 'failed' : 'unknown', { resolution: resolved.resolution });
  if (resolved.found === undefined) {
    return {
      state: 'failed',
      resolution: resolved.resolution,
      detail: `outcome was unknown; ${resolved.resolution?.by ?? 'the venue'} has no move with client id ${move.clientId} after it could no longer land: it was not made, and is not sent again`,
    };
  }
  const end = await follow(ctx, move, resolved.found);
  return { ...end, resolution: resolved.resolution };
}

/** -10324 while a task is INIT: ours (the request repeated) is followed; another's holds the desk. */
async function repeatedCollection(ctx: ApplyContext, move: CollectMove): Promise<MoveEnd> {
  const found = await findMove(ctx.client, move);
  if (found !== undefined) {
    ctx.log('info', 'collection request repeated (-10324): the task with this clientRequestId is ours, following it', { clientId: move.clientId });
    return follow(ctx, move, found);
  }
  await ctx.set(move, 'refused', { error: '-10324 Request repeated' });
  return { state: 'refused', detail: 'another collection task is still INIT (-10324 Request repeated, spec 4.9 rule 6); this one was not created: apply again once it has finished' };
}

/** A withdrawal the venue would refuse or send astray: its address not whitelisted, or not of the coin's network. */
async function venueRefusal(ctx: ApplyContext, move: WithdrawMove): Promise<string | undefined> {
  const destination = ctx.policy.destinations[move.destination]!;
  const coins = await ctx.client.wallet.coinConfig();
  const issues = checkDestinations({ destinations: { [move.destination]: destination } } as unknown as TreasuryPolicy, coins);
  if (issues.length > 0) return `withdrawal of ${move.amount} ${move.coin} to '${move.destination}': ${issues.join('; ')}; nothing was sent`;
  const listed = await ctx.client.wallet.withdrawAddressWhitelist({ coin: move.coin, network: move.network, address: move.address });
  const on = listed.some((w) => w.coin === move.coin && w.network === move.network && w.address === move.address && (w.addressTag ?? '') === (move.addressTag ?? ''));
  if (!on) return `withdrawal of ${move.amount} ${move.coin} to '${move.destination}': ${move.coin}/${move.network} ${move.address}${move.addressTag ? ` tag ${move.addressTag}` : ''} is not on the venue's withdrawal whitelist (spec 4.2 rule 1); nothing was sent`;
  return undefined;
}
