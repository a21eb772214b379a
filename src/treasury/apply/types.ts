/**
 * What the executor takes and gives back (issue 23 deliverable 3). The call is shared by
 * `halyard treasury apply` and the bot's rebalancer (src/treasury/bot/); agreed in notes B-C.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Journal } from '../../journal/journal.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Move, MoveState } from '../moves.ts';
import type { MoveResolution } from '../journal/move-store.ts';

/** A configured place money may leave to (the policy's `destinations`, src/treasury/policy/schema.ts). */
export type ExecutorDestination =
  | { kind: 'withdraw'; coin: string; network: string; address: string; addressTag?: string | undefined }
  | {
      kind: 'cash-out';
      currency: string;
      channelName: string;
      channelSubject: string;
      recipientName?: string | undefined;
      recipientAccountNumber?: string | undefined;
      recipientAddress?: string | undefined;
      remarks?: string | undefined;
    };

/** The part of the treasury policy the executor reads; the policy's own type fits it. */
export interface ExecutorPolicy {
  convert: {
    /** How much worse than the book mid a quote may be, basis points. */
    slippageBps: number;
    /** New quotes after an expired or refused-as-stale one before the move fails. */
    quoteRefreshes: number;
  };
  destinations: Readonly<Record<string, ExecutorDestination>>;
  /** Caps per asset (decimal text), re-checked before each move is sent (limits.ts). */
  limits?: { maxPerMove?: Readonly<Record<string, string>>; maxPerDay?: Readonly<Record<string, string>> } | undefined;
}

export type LogFn = (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;

/** Something the executor saw, awaited before it goes on (tests move virtual time here). */
export type ApplyEvent =
  | { kind: 'quote'; clientId: string; quoteId: string; price: string; expirySeconds: number; deadline: number }
  | { kind: 'sent'; clientId: string; endpoint: string }
  | { kind: 'state'; clientId: string; state: MoveState };

export interface ApplyOptions {
  client: ExchangeClient;
  journal: Pick<Journal, 'db' | 'file'>;
  policy: ExecutorPolicy;
  /** `--approve` on the command line for this plan; the bot passes false (withdraw / cash-out refused, nothing sent). */
  approve: boolean;
  /** Waits between polls; default the client's clock. Quote expiry is measured on the client's server clock. */
  clock?: Clock | undefined;
  /** The bot's run id, journaled with each move. */
  runId?: string | undefined;
  log?: LogFn | undefined;
  /** How a move the venue has not finished is followed: poll every `pollMs` (default 2000) for at most `maxWaitMs` (default 300000). */
  follow?: { pollMs?: number | undefined; maxWaitMs?: number | undefined } | undefined;
  /** Kept back from a quote's expiry before accepting it (default 2000 ms): the accept must land before it. */
  quoteMarginMs?: number | undefined;
  onEvent?: ((event: ApplyEvent) => void | Promise<void>) | undefined;
}

export interface MoveOutcome {
  move: Move;
  state: MoveState;
  venueId?: string | undefined;
  /** One line: what happened, or why the move was refused (with the numbers that refused it). */
  detail?: string | undefined;
  /** How an unknown outcome was resolved (query and what it found). */
  resolution?: MoveResolution | undefined;
}

export interface ApplyResult {
  planId: string;
  /** In plan order, up to and including the move that stopped the plan. */
  outcomes: MoveOutcome[];
  /** Why the moves after the last outcome were not applied; absent when every move succeeded. */
  stopped?: string | undefined;
}

/** What one move's handler ends with (the journal row is updated to it). */
export interface MoveEnd {
  state: MoveState;
  venueId?: string | undefined;
  received?: string | undefined;
  detail?: string | undefined;
  resolution?: MoveResolution | undefined;
  data?: Record<string, unknown> | undefined;
}
