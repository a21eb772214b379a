/**
 * The venue's WebSocket streams (issue 20 deliverables 1 and 3; protocol notes 1, 4, 4.1):
 * a reconnecting connection as RxJS Observables, market connections on the raw and combined paths,
 * and the user data stream with its listen-key lifecycle and health.
 */
export { fullJitterDelay, seededRandom, type BackoffSettings } from './backoff.ts';
export { DEFAULT_LISTEN_KEY_POLICY, isListenKeyGone, listenKeyRetryFloor, type ListenKeyPolicy } from './listen-key-policy.ts';
export { marketConnection, type MarketConnectionOptions } from './market-connection.ts';
export { StreamConnection, type ConnectionTarget, type ResolvedTarget, type StreamConnectionOptions, type TargetStreams } from './stream-connection.ts';
export * from './stream-errors.ts';
export type { ConnectionEvent, ConnectionState, ConnectionStatus, ReconnectedEvent, StreamMessage } from './stream-events.ts';
export { classifyFrame, type InboundFrame } from './stream-frames.ts';
export { HEALTH_STATES, type HealthState, type StreamGap, type StreamHealth, type StreamNotice } from './stream-health.ts';
export { combinedStreamUrl, marketUrl, rawStreamUrl, userDataUrl, MAX_STREAMS_PER_CONNECTION, type MarketPath } from './stream-paths.ts';
export { DEFAULT_STREAM_TIMINGS, streamTimings, type StreamTimings, type StreamTimingsInput } from './stream-timings.ts';
export { DEFAULT_KEEPALIVE_MS, UserDataStream, type ListenKeyApi, type UserDataStreamOptions } from './user-data-stream.ts';
