/**
 * Money that leaves the venue (issue 23 deliverable 3; spec 4.2 withdraw apply, 4.8 cash-out):
 * sent only with approval (`--approve` for this plan; the bot never gives it), only to a
 * destination named in the config whose every field the move repeats, and with a client id the
 * venue takes (spec 8.13: `withdrawOrderId` at most 30 characters; `internalOrderId` 10 to 20
 * digits, not starting with 0). Pure: a refusal names the reason; nothing is sent by this module.
 * The venue-side checks (the withdrawal whitelist, the coin's address format) are made by the
 * executor with reads before the withdrawal (money-moves.ts).
 */
import { isDecimalText } from '../../core/money/decimal.ts';
import { INTERNAL_ORDER_ID_PATTERN } from '../../exchange/endpoints/areas/fiat.ts';
import type { CashOutMove, Move, WithdrawMove } from '../moves.ts';
import type { ExecutorPolicy } from './types.ts';

const WITHDRAW_ORDER_ID = /^[A-Za-z0-9_-]{1,30}$/;

/** Why `move` may not be sent; undefined when it may. */
export function refuseLeaving(move: WithdrawMove | CashOutMove, policy: ExecutorPolicy, approve: boolean): string | undefined {
  const what = move.kind === 'withdraw' ? `withdrawal of ${move.amount} ${move.coin}` : `cash-out of ${move.amount} ${move.currency}`;
  const destination = policy.destinations[move.destination];
  if (destination === undefined) {
    const known = Object.keys(policy.destinations);
    return `${what} to '${move.destination}': not a destination in the config (destinations: ${known.length ? known.join(', ') : 'none'}); nothing was sent`;
  }
  const mismatch = differences(move, destination);
  if (mismatch.length > 0) return `${what} to '${move.destination}': the move does not match the configured destination (${mismatch.join('; ')}); nothing was sent`;
  const amount = amountProblem(move.amount);
  if (amount !== undefined) return `${what}: amount ${amount}; nothing was sent`;
  const id = idProblem(move);
  if (id !== undefined) return `${what}: ${id}; nothing was sent`;
  if (!approve) return `${what} to '${move.destination}' needs approval: money leaves the venue, run treasury apply with --approve for this plan (the bot never sends it); nothing was sent`;
  return undefined;
}

export function isLeaving(move: Move): move is WithdrawMove | CashOutMove {
  return move.kind === 'withdraw' || move.kind === 'cash-out';
}

function differences(move: WithdrawMove | CashOutMove, d: ExecutorPolicy['destinations'][string]): string[] {
  if (move.kind === 'withdraw') {
    if (d.kind !== 'withdraw') return [`'${move.destination}' is a ${d.kind} destination, not a withdrawal one`];
    return compare([
      ['coin', move.coin, d.coin],
      ['network', move.network, d.network],
      ['address', move.address, d.address],
      ['addressTag', move.addressTag, d.addressTag],
    ]);
  }
  if (d.kind !== 'cash-out') return [`'${move.destination}' is a ${d.kind} destination, not a cash-out one`];
  const info = move.extendInfo ?? {};
  return compare([
    ['currency', move.currency, d.currency],
    ['channelName', move.channelName, d.channelName],
    ['channelSubject', move.channelSubject, d.channelSubject],
    ['extendInfo.recipientName', info['recipientName'], d.recipientName],
    ['extendInfo.recipientAccountNumber', info['recipientAccountNumber'], d.recipientAccountNumber],
    ['extendInfo.recipientAddress', info['recipientAddress'], d.recipientAddress],
    ['extendInfo.remarks', info['remarks'], d.remarks],
  ]);
}

function compare(fields: [string, string | undefined, string | undefined][]): string[] {
  return fields.filter(([, got, want]) => (got ?? '') !== (want ?? '')).map(([name, got, want]) => `${name} ${JSON.stringify(got ?? null)} where the config has ${JSON.stringify(want ?? null)}`);
}

function amountProblem(amount: string): string | undefined {
  if (typeof amount !== 'string' || !isDecimalText(amount) || /e/i.test(amount)) return `${JSON.stringify(amount)} is not a decimal amount`;
  if (Number(amount) <= 0) return `${amount} must be greater than 0`;
  return undefined;
}

function idProblem(move: WithdrawMove | CashOutMove): string | undefined {
  if (move.kind === 'withdraw') {
    return WITHDRAW_ORDER_ID.test(move.clientId) ? undefined : `client id ${JSON.stringify(move.clientId)} is not a withdrawOrderId (1 to 30 of A-Z a-z 0-9 _ -, spec 8.13)`;
  }
  return INTERNAL_ORDER_ID_PATTERN.test(move.clientId) ? undefined : `client id ${JSON.stringify(move.clientId)} is not an internalOrderId (10 to 20 digits, not starting with 0, spec 4.8)`;
}
