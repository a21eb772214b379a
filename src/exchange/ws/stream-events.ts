/**
 * What a stream connection tells the rest of the process (design rule 9: streams are Observables;
 * every reconnect emits a resync event). `events$` is the log of what happened, `status$` the state
 * now. Times are the injected scheduler's (ms).
 */
import type { HalyardError } from '../errors/errors.ts';

export type ConnectionState =
  /** Not started yet. */
  | 'idle'
  /** Preparing the target (e.g. a listen key) or opening the socket. */
  | 'connecting'
  | 'open'
  /** No message and no pong within the bound: the socket is being replaced. */
  | 'stale'
  /** An attempt failed or the socket was lost: waiting `delayMs` before the next attempt. */
  | 'backoff'
  /** Closed by its owner; final. */
  | 'closed';

export interface ConnectionStatus {
  readonly state: ConnectionState;
  /** Why the state was entered (for logs and health). */
  readonly reason: string;
  readonly at: number;
}

/** One data event: `stream` is the combined path's stream name, undefined for a bare event. */
export interface StreamMessage {
  readonly stream: string | undefined;
  /** The event, parsed losslessly (integers above 2^53 as decimal strings). */
  readonly data: unknown;
  readonly receivedAt: number;
}

export type ConnectionEvent =
  | { readonly type: 'connecting'; readonly at: number; readonly attempt: number; readonly reason: string }
  /** `target` names the endpoint without secrets (a listen key is shown as `<listenKey>`). */
  | { readonly type: 'open'; readonly at: number; readonly attempt: number; readonly target: string }
  /** The socket is lost: events may be missed from now until `reconnected` with the same `seq`. */
  | { readonly type: 'gap'; readonly at: number; readonly seq: number; readonly reason: string }
  /** Open again (and resubscribed) after gap `seq`: state kept from the stream must be resynced over REST now. */
  | { readonly type: 'reconnected'; readonly at: number; readonly seq: number; readonly reason: string }
  | { readonly type: 'stale'; readonly at: number; readonly reason: string }
  | { readonly type: 'retrying'; readonly at: number; readonly attempt: number; readonly delayMs: number; readonly reason: string; readonly error?: unknown }
  | { readonly type: 'pong'; readonly at: number; readonly value: unknown }
  /** A frame that is not JSON or not understood; the connection keeps running. */
  | { readonly type: 'frame-error'; readonly at: number; readonly reason: string; readonly frame: string }
  /** An error reply nothing waited for, or a resubscription the venue refused (its streams are dropped). */
  | { readonly type: 'request-error'; readonly at: number; readonly error: HalyardError }
  | { readonly type: 'closed'; readonly at: number; readonly reason: string };

export type ReconnectedEvent = Extract<ConnectionEvent, { type: 'reconnected' }>;
