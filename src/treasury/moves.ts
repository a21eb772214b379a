/**
 * The treasury's unit of work (issue 23): one money movement the planner proposes and the executor
 * carries out. Every move names its client id up front, so it can be journaled before it is sent
 * and an unknown outcome found by it (spec 4.2 `withdrawOrderId`, 4.6 convert has none: the
 * quote id and the convert history are the handle, 4.8 `internalOrderId`, 4.9 `clientTranId` /
 * `clientRequestId`).
 *
 * Money is a decimal string (never a number); accounts are `'master'` or a sub-account's email.
 */

/** `'master'` or the sub-account's email (spec 4.9 `<sub_account_email>`). */
export type AccountRef = string;

export const MASTER: AccountRef = 'master';

interface MoveBase {
  /** Deterministic per (plan, position): the same plan applied twice yields the same ids. */
  clientId: string;
  /** One line a person reads in `treasury plan`: why this move brings an account inside its band. */
  reason: string;
}

/** Spec 4.6: quote `sourceAmount` of `from` into `to` in `account` (master only on this venue). */
export interface ConvertMove extends MoveBase {
  kind: 'convert';
  account: AccountRef;
  from: string;
  to: string;
  /** Decimal string of `from` to sell. */
  sourceAmount: string;
}

/** Spec 4.9 universal transfer (master<->sub, sub<->sub) or sub-to-master. */
export interface TransferMove extends MoveBase {
  kind: 'transfer';
  from: AccountRef;
  to: AccountRef;
  asset: string;
  amount: string;
}

/** Spec 4.9 collect-from-sub-account: a task followed until it leaves INIT. */
export interface CollectMove extends MoveBase {
  kind: 'collect';
}

/** Spec 4.2 withdraw apply to a configured destination; needs approval. */
export interface WithdrawMove extends MoveBase {
  kind: 'withdraw';
  coin: string;
  network: string;
  address: string;
  addressTag?: string;
  amount: string;
  /** The destination's name in the config. */
  destination: string;
}

/** Spec 4.8 fiat cash-out to a configured destination; needs approval. */
export interface CashOutMove extends MoveBase {
  kind: 'cash-out';
  currency: string;
  amount: string;
  channelName: string;
  channelSubject: string;
  extendInfo?: Record<string, string>;
  destination: string;
}

export type Move = ConvertMove | TransferMove | CollectMove | WithdrawMove | CashOutMove;

/** Moves whose money leaves the venue: sent only with `--approve`, never by the bot. */
export function leavesVenue(move: Move): move is WithdrawMove | CashOutMove {
  return move.kind === 'withdraw' || move.kind === 'cash-out';
}

export interface Plan {
  /** Time the balances and prices were read (ms). */
  asOf: number;
  /** Hash of the inputs; client ids derive from it, so a re-plan on the same inputs repeats them. */
  id: string;
  moves: Move[];
  /** Accounts and assets that stay outside a band after the moves, with why (a cap, a guard). */
  unresolved: { account: AccountRef; asset: string; reason: string }[];
}

/** A move's last known state, as the journal and `treasury history` show it. */
export type MoveState = 'planned' | 'sent' | 'unknown' | 'pending' | 'succeeded' | 'failed' | 'refused';
