/**
 * The policy's caps re-checked by the executor before a move is sent (issue 23 deliverable 1:
 * "a maximum size per move and per day"): the planner keeps to them, but a plan file is the
 * user's input and may have been edited, and a plan made earlier in the day does not know what
 * moved since. Per move: the amount of the asset moved (a convert counts its source). Per UTC
 * day: what the journal says moved or may have moved since midnight (MoveStore.movedSince) plus
 * this move. Exact decimals; a refusal names the numbers.
 */
import { D } from '../../core/money/decimal.ts';
import type { Move } from '../moves.ts';
import type { ExecutorPolicy } from './types.ts';

const DAY_MS = 86_400_000;

/** The asset and amount a move takes from its account; none for a collection (it moves whatever is there). */
export function movedBy(move: Move): { asset: string; amount: string } | undefined {
  switch (move.kind) {
    case 'convert':
      return { asset: move.from, amount: move.sourceAmount };
    case 'transfer':
      return { asset: move.asset, amount: move.amount };
    case 'withdraw':
      return { asset: move.coin, amount: move.amount };
    case 'cash-out':
      return { asset: move.currency, amount: move.amount };
    case 'collect':
      return undefined;
  }
}

export function dayStartOf(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** Why `move` would break a cap; undefined when it keeps to them. `movedToday`: per asset, since midnight UTC. */
export function refuseOverLimit(move: Move, limits: ExecutorPolicy['limits'], movedToday: Readonly<Record<string, string>>): string | undefined {
  const moved = movedBy(move);
  if (moved === undefined || limits === undefined) return undefined;
  const amount = new D(moved.amount);
  const perMove = limits.maxPerMove?.[moved.asset];
  if (perMove !== undefined && amount.gt(perMove)) {
    return `${move.kind} of ${moved.amount} ${moved.asset} is above limits.maxPerMove ${perMove} ${moved.asset}; nothing was sent`;
  }
  const perDay = limits.maxPerDay?.[moved.asset];
  if (perDay !== undefined) {
    const before = new D(movedToday[moved.asset] ?? '0');
    if (before.plus(amount).gt(perDay)) {
      return `${move.kind} of ${moved.amount} ${moved.asset} would make ${before.plus(amount).toFixed()} ${moved.asset} today (${before.toFixed()} moved already), above limits.maxPerDay ${perDay}; nothing was sent`;
    }
  }
  return undefined;
}
