/**
 * Stream server dependencies and timing defaults (protocol notes 1 and 4). Every period is
 * configurable so tests run in milliseconds; all of them run on the injected clock.
 */
import type { Clock } from '../../ports/clock.ts';
import type { ListenKeyRegistry } from '../contracts.ts';
import type { MarketDataStore } from '../market-data/store.ts';
import type { BookSource } from '../market-data/types.ts';

export interface StreamTimings {
  /** `@kline_<i>` push period. Notes 4: 2000 ms. */
  klineMs: number;
  /** `@ticker`, `@miniTicker` and the `!…@arr` streams. Notes 4: 1000 ms. */
  tickerMs: number;
  /** `@depth@100ms` diffs and `@depth<N>` snapshots (N < 200). Notes 4: 100 ms. */
  depthFastMs: number;
  /** `@depth` diffs and `@depth200` snapshots. Notes 4: 1000 ms. */
  depthSlowMs: number;
  /** How often idle, over-age and listen-key checks run. */
  sweepMs: number;
  /** Drop a connection with neither ping nor message for this long. Notes 1: 5 minutes. */
  idleMs: number;
  /** Longest life of a connection (notes 1: 24 h for user data; assumed for market sockets too). */
  maxLifetimeMs: number;
}

export const DEFAULT_TIMINGS: StreamTimings = {
  klineMs: 2000,
  tickerMs: 1000,
  depthFastMs: 100,
  depthSlowMs: 1000,
  sweepMs: 1000,
  idleMs: 5 * 60_000,
  maxLifetimeMs: 24 * 3_600_000,
};

export interface StreamDeps {
  clock: Clock;
  /** Market data; the stream server feeds it trades (wire the engine to the server, not both). */
  store: MarketDataStore;
  /** The matching engine's books (depth snapshots, best levels, update ids). */
  book: BookSource;
  /** True for a listed symbol (upper case); others get "Invalid Symbols!". */
  isSymbol(symbol: string): boolean;
  listenKeys: ListenKeyRegistry;
  timings?: Partial<StreamTimings>;
  /** Errors of periodic tasks (never thrown into the engine). Default: ignored. */
  onError?(err: unknown): void;
}

/** Close codes the server uses (4000-4999 are application codes). */
export const CLOSE = {
  idle: 4000,
  listenKey: 4001,
  lifetime: 4002,
  shutdown: 1001,
} as const;
