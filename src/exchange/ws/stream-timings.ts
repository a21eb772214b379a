/**
 * Timers of a stream connection (protocol notes 1), every one configurable and run on the injected
 * RxJS scheduler (design rule 8), so tests move them on virtual time.
 */
import type { BackoffSettings } from './backoff.ts';

export interface StreamTimings {
  /** JSON `{"ping":<ms>}` period. Notes 1: about every 3 minutes (the venue drops a socket silent for 5). */
  pingIntervalMs: number;
  /**
   * After a ping, how long a pong (or any frame) may take. Nothing in that time: the connection is
   * STALE and is replaced. So a socket is never trusted longer than pingIntervalMs + pongTimeoutMs
   * without a sign of life.
   */
  pongTimeoutMs: number;
  /** A SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS reply may take this long. */
  requestTimeoutMs: number;
  /** Planned reconnect before the venue's 24 h connection limit (notes 1). */
  maxLifetimeMs: number;
  /** Reconnect back-off (full jitter, see backoff.ts). */
  backoff: BackoffSettings;
  /** Opening handshake bound (wall time: `ws`'s own timer). */
  handshakeTimeoutMs: number;
}

export const DEFAULT_STREAM_TIMINGS: StreamTimings = {
  pingIntervalMs: 180_000,
  pongTimeoutMs: 30_000,
  requestTimeoutMs: 10_000,
  maxLifetimeMs: 23 * 3_600_000 + 50 * 60_000,
  backoff: { baseMs: 1000, maxMs: 60_000 },
  handshakeTimeoutMs: 10_000,
};

export type StreamTimingsInput = Partial<Omit<StreamTimings, 'backoff'>> & { backoff?: Partial<BackoffSettings> };

/** Defaults filled in; nonsensical values refused with the field's name. */
export function streamTimings(input: StreamTimingsInput = {}): StreamTimings {
  const t: StreamTimings = { ...DEFAULT_STREAM_TIMINGS, ...input, backoff: { ...DEFAULT_STREAM_TIMINGS.backoff, ...input.backoff } };
  const positive: [string, number][] = [
    ['pingIntervalMs', t.pingIntervalMs],
    ['pongTimeoutMs', t.pongTimeoutMs],
    ['requestTimeoutMs', t.requestTimeoutMs],
    ['maxLifetimeMs', t.maxLifetimeMs],
    ['handshakeTimeoutMs', t.handshakeTimeoutMs],
    ['backoff.baseMs', t.backoff.baseMs],
    ['backoff.maxMs', t.backoff.maxMs],
  ];
  for (const [name, v] of positive) {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`stream timings: ${name} must be a positive number of ms, got ${String(v)}`);
  }
  if (t.backoff.maxMs < t.backoff.baseMs) throw new RangeError(`stream timings: backoff.maxMs (${t.backoff.maxMs}) is below backoff.baseMs (${t.backoff.baseMs})`);
  return t;
}
