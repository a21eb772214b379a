/**
 * Health of the user data stream (issue 20 deliverable 3), read and logged by the rest of the
 * process; the live venue denies new orders unless it is LIVE.
 *
 *   CONNECTING  making or checking the listen key, opening the socket
 *   LIVE        open, and the consumer has resynced since the last gap
 *   STALE       no message and no pong within the bound; the socket is being replaced
 *   RESYNCING   open again after a gap (or first opened): events may have been missed, and the
 *               consumer must resync over REST and then call `markResynced(gap.seq)`
 *   DOWN        no socket: waiting to retry (with the reason: unreachable, key creation refused,
 *               rate limited ...) or closed for good
 */

export const HEALTH_STATES = ['CONNECTING', 'LIVE', 'STALE', 'RESYNCING', 'DOWN'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export interface StreamHealth {
  readonly state: HealthState;
  readonly reason: string;
  /** Scheduler time the state was entered. */
  readonly since: number;
  /** RESYNCING: the gap to resync (`markResynced(gap)`). */
  readonly gap?: number | undefined;
}

/** A stretch in which events may have been missed; the consumer resyncs, then calls markResynced(seq). */
export interface StreamGap {
  readonly seq: number;
  readonly reason: string;
  /** When the stream was open again (resync from here). */
  readonly at: number;
}

/** Something the operator should see in the log; the stream keeps running. */
export interface StreamNotice {
  readonly at: number;
  readonly level: 'info' | 'warn';
  readonly kind: 'listen-key' | 'keepalive' | 'frame' | 'decode' | 'request' | 'close';
  readonly message: string;
  readonly error?: unknown;
}
