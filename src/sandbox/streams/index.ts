/**
 * The sandbox's WebSocket streams (issue "Sandbox exchange" deliverable 7; protocol notes 1, 4).
 * Wire-up: `const streams = attachStreams(httpServer, { clock, store, book, isSymbol, listenKeys })`
 * and give `streams` to the engine as its `SandboxEventSink`: it feeds `store` and the sockets.
 */
export { attachStreams, type ConnectionInfo, type StreamServer } from './stream-server.ts';
export { CLOSE, DEFAULT_TIMINGS, type StreamDeps, type StreamTimings } from './config.ts';
export { COMBINED_PATH, RAW_PREFIX, USER_PREFIX } from './paths.ts';
