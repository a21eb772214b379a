/**
 * The live market-data pipeline's public face (issue 21 deliverable 1): per (symbol, interval) one
 * shared source of CLOSED bars (protocol notes 4: kline event, `k.x: true` only; spec 2.6 kline),
 * per symbol trades and book tops, one venue subscription however many subscribers ask, REST
 * klines (spec 4.4, weight per spec 8.x) to fill gaps and to poll while the stream is not LIVE,
 * warm-up from the journal topped up from REST, every live bar recorded to the journal.
 *
 * Stable: the bot's composition root (src/bot/) codes against this file. Add, never rename.
 */
import type { Observable, SchedulerLike } from 'rxjs';
import type { Candle } from '../../core/indicators/candle.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { RestClient } from '../../exchange/client/rest-client.ts';
import type { StreamConnection } from '../../exchange/ws/stream-connection.ts';
import type { StreamTimingsInput } from '../../exchange/ws/stream-timings.ts';
import type { KlineStore } from '../../journal/klines/kline-store.ts';
import type { BookTopInput, Interval, TradeInput } from '../../strategy/types.ts';

export type { BookTopInput, Candle, Interval, TradeInput };

/** One closed bar of one series, as the kernel's `bar(symbol, interval, candle)` takes it. */
export interface ClosedBar {
  readonly symbol: string;
  readonly interval: Interval;
  readonly candle: Candle;
  /** Where it came from: the kline stream, or REST klines (gap fill, polling). */
  readonly source: 'stream' | 'rest';
}

/** What the pipeline tells the operator; the host writes it to its log. */
export interface MarketDataLogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  /** `duplicate`, `late`, `gap`, `poll`, `health`, `journal`, `rest`, `stream`, `decode` ... */
  readonly topic: string;
  readonly message: string;
  readonly time: number;
  readonly detail?: unknown;
}
export type MarketDataLog = (entry: MarketDataLogEntry) => void;

/**
 * State of one subscribed venue stream (`btcusdt@kline_1m`, `btcusdt@trade`, ...):
 *   CONNECTING  not yet open;  LIVE  open and caught up;  STALE  no message within the bound;
 *   RESYNCING   open again after a gap, missing bars being fetched over REST;  DOWN  no socket.
 * `mode` says who delivers the bars now: the stream, or REST polling (while not LIVE).
 */
export type MarketStreamState = 'CONNECTING' | 'LIVE' | 'STALE' | 'RESYNCING' | 'DOWN';
export interface MarketStreamHealth {
  /** The venue stream name. */
  readonly stream: string;
  readonly symbol: string;
  /** Kline streams only. */
  readonly interval?: Interval | undefined;
  readonly state: MarketStreamState;
  readonly mode: 'stream' | 'polling';
  readonly reason: string;
  /** Scheduler time the state was entered. */
  readonly since: number;
  /** Open time of the last closed bar delivered (kline streams). */
  readonly lastBarOpenTime?: number | undefined;
}
export interface MarketDataHealth {
  /** Scheduler time of this snapshot. */
  readonly at: number;
  readonly streams: readonly MarketStreamHealth[];
}

/** The part of the stream connection the pipeline uses (StreamConnection has it; tests pass a fake). */
export type MarketStreamPort = Pick<StreamConnection, 'messages$' | 'events$' | 'status$' | 'subscribe' | 'unsubscribe' | 'close'> & {
  /** Open the first socket (no-op once started). */
  start(): unknown;
};

/**
 * The part of the exchange client the pipeline uses: REST klines, and the weight budget they are
 * charged to (read for the pool sizes the polling share is cut from). An ExchangeClient is one.
 */
export interface MarketDataClient {
  readonly market: Pick<ExchangeClient['market'], 'klines'>;
  readonly rest: Pick<RestClient, 'budget'>;
}

/** The part of the journal's kline store the pipeline uses. */
export type MarketDataJournal = Pick<KlineStore, 'insertKlines' | 'klines'>;

export interface MarketDataOptions {
  readonly client: MarketDataClient;
  /** The WebSocket base URL (notes 1); unused when `connection` is given. */
  readonly wsUrl: string;
  /** A ready-made market connection (tests, a shared one). Default: marketConnection over `ws`, combined path. */
  readonly connection?: MarketStreamPort;
  /** Where warm-up bars are read and every live closed bar is recorded. */
  readonly journal?: MarketDataJournal;
  /** Timers (polling, hand-back, stream timers). Default: asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Venue-aligned time (ms): decides which bars have closed. */
  now(): number;
  readonly log?: MarketDataLog;
  /** Stream timings (ping, stale bound, back-off) for the default connection. */
  readonly timings?: StreamTimingsInput;
  /**
   * Share of the REST client's IP weight pool that polling and gap fills may use (default 0.2):
   * they wait rather than take more, so orders and reconciliation always find room.
   */
  readonly pollWeightShare?: number;
  /** Weight-budget consumer name charged for the pipeline's REST calls (default `market-data`). */
  readonly consumer?: string;
  /** Grace after a bar's close before polling asks REST for it (default 1500 ms). */
  readonly pollDelayMs?: number;
  /**
   * While the stream is LIVE: how long after a bar's close its `x: true` event may take before REST
   * is asked for the bar instead (default 10 000 ms; the venue pushes klines every 2000 ms, notes 4).
   */
  readonly streamGraceMs?: number;
}

export interface ClosedBarsOptions {
  /** Open time (ms) of the last bar the subscriber already has: only later bars are delivered. */
  readonly after?: number;
}

export interface MarketData {
  /**
   * Closed bars of one series, in order, once each; one venue subscription however many subscribers.
   * A subscriber gets the bars opening after `after` (default: the bars from the one in progress at
   * subscription on). Pass the last warm-up bar's open time to get exactly the bars after warm-up:
   * the series replays the few it has just delivered when they are newer than that.
   */
  closedBars(symbol: string, interval: Interval, options?: ClosedBarsOptions): Observable<ClosedBar>;
  /** Public trades of one symbol (notes 4 trade stream); shared. */
  trades(symbol: string): Observable<TradeInput>;
  /** Best bid and ask of one symbol (notes 4 bookTicker stream); shared. */
  bookTops(symbol: string): Observable<BookTopInput>;
  /**
   * The `count` most recent closed bars before now, oldest first: from the journal, topped up from
   * REST klines (what REST gave is recorded to the journal).
   */
  warmup(symbol: string, interval: Interval, count: number): Promise<Candle[]>;
  /** Health of every subscribed stream; replays the latest snapshot. */
  readonly health$: Observable<MarketDataHealth>;
  /** The latest health snapshot. */
  health(): MarketDataHealth;
  /** Stops polling, closes the connection (when the pipeline made it), completes every stream. */
  close(): Promise<void>;
}
