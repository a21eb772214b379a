/**
 * A venue in memory for the pipeline's tests, speaking the interfaces the pipeline takes
 * (types.ts MarketStreamPort, MarketDataClient) on one RxJS VirtualTimeScheduler: a market
 * connection whose socket the test drops and reopens (status and gap / reconnected events as
 * exchange/ws/stream-connection.ts emits them), kline pushes shaped as the wire's (protocol notes 4:
 * the closed `x: true` event shortly after the bar's end, the bar in progress every push), and REST
 * klines (spec 4.4: startTime/endTime inclusive, limit, the period in progress included) charged
 * to a real WeightBudget on the same virtual clock, every call counted.
 *
 * Used where the real sandbox over sockets would take minutes of real time (24 h of bars for 5
 * symbols); test/live-market-data-sandbox.test.ts runs the pipeline against the real sandbox.
 */
import type { VirtualTimeScheduler} from 'rxjs';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { nextOpen, periodOpen } from '../../../core/market/intervals.ts';
import type { Kline } from '../../../exchange/codecs/market.ts';
import { marketEndpoints } from '../../../exchange/endpoints/areas/market.ts';
import { WeightBudget } from '../../../exchange/rate/weight-budget.ts';
import { chargesFor } from '../../../exchange/rate/weights.ts';
import { StreamRequestError } from '../../../exchange/ws/stream-errors.ts';
import type { ConnectionEvent, ConnectionState, ConnectionStatus, StreamMessage } from '../../../exchange/ws/stream-events.ts';
import type { Interval } from '../../../strategy/types.ts';
import { schedulerDelay } from '../scheduler-delay.ts';
import type { MarketDataClient, MarketStreamPort } from '../types.ts';

/** The bar of `symbol` opening at `openTime`: deterministic text, so a stream bar and a REST bar compare equal. */
export function fakeKline(symbol: string, interval: Interval, openTime: number): Kline {
  const n = Math.floor(openTime / 60_000) % 997;
  const base = 100 + (symbol.length % 7);
  const close = `${base + n / 100}`;
  return {
    openTime,
    open: `${base}`,
    high: `${base + 10}`,
    low: `${base - 1}`,
    close,
    volume: `${1 + (n % 13)}`,
    closeTime: nextOpen(interval, openTime) - 1,
    quoteVolume: '0',
    trades: n,
    takerBuyBaseVolume: '0',
    takerBuyQuoteVolume: '0',
  };
}

export class FakeConnection implements MarketStreamPort {
  private readonly messagesSubject = new Subject<StreamMessage>();
  private readonly eventsSubject = new Subject<ConnectionEvent>();
  private readonly statusSubject: BehaviorSubject<ConnectionStatus>;
  readonly messages$: Observable<StreamMessage> = this.messagesSubject.asObservable();
  readonly events$: Observable<ConnectionEvent> = this.eventsSubject.asObservable();
  readonly status$: Observable<ConnectionStatus>;
  readonly subscribed = new Set<string>();
  /** Every SUBSCRIBE the pipeline sent, in order (one per stream name expected). */
  readonly subscribeCalls: string[] = [];
  readonly unsubscribeCalls: string[] = [];
  /** Names the venue refuses. */
  readonly refuse = new Set<string>();
  private seq = 0;

  constructor(private readonly scheduler: VirtualTimeScheduler) {
    this.statusSubject = new BehaviorSubject<ConnectionStatus>({ state: 'idle', reason: 'not started', at: scheduler.now() });
    this.status$ = this.statusSubject.asObservable();
  }

  get state(): ConnectionState {
    return this.statusSubject.value.state;
  }

  start(): this {
    return this;
  }

  subscribe(streams: readonly string[]): Promise<void> {
    for (const s of streams) {
      this.subscribeCalls.push(s);
      if (this.refuse.has(s)) return Promise.reject(new StreamRequestError(2, `STREAM [${s}] was invalid.`, { method: 'SUBSCRIBE', params: [...streams], id: 1 }));
    }
    for (const s of streams) this.subscribed.add(s);
    return Promise.resolve();
  }

  unsubscribe(streams: readonly string[]): Promise<void> {
    for (const s of streams) {
      this.unsubscribeCalls.push(s);
      this.subscribed.delete(s);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.set('closed', 'closed by its owner');
    return Promise.resolve();
  }

  /** The first open (no gap before it). */
  open(): void {
    this.set('open', 'opened');
  }

  /** The socket is lost: a gap, then back-off until `reopen`. */
  drop(reason = 'dropped by the test'): void {
    this.seq++;
    this.eventsSubject.next({ type: 'gap', at: this.scheduler.now(), seq: this.seq, reason });
    this.set('backoff', reason);
  }

  /** No message within the bound. */
  stale(): void {
    this.set('stale', 'no message within the bound');
  }

  reopen(reason = 'reopened'): void {
    this.set('open', reason);
    this.eventsSubject.next({ type: 'reconnected', at: this.scheduler.now(), seq: this.seq, reason });
  }

  /** Deliver an event on `stream` if it is subscribed and the socket is open. */
  push(stream: string, data: unknown): boolean {
    if (this.state !== 'open' || !this.subscribed.has(stream)) return false;
    this.messagesSubject.next({ stream, data, receivedAt: this.scheduler.now() });
    return true;
  }

  private set(state: ConnectionState, reason: string): void {
    this.statusSubject.next({ state, reason, at: this.scheduler.now() });
  }
}

export interface FakeVenueOptions {
  readonly symbols: readonly string[];
  readonly interval: Interval;
  /** IP pool of the client's budget per minute (default: the spec's 1200). */
  readonly ipLimit?: number;
  /** Delay of the `x: true` push after the bar's end (default 1000 ms; the venue pushes every 2 s). */
  readonly closePushMs?: number;
}

/** Stream pushes and REST klines of a market where every period has a bar. */
export class FakeVenue {
  readonly connection: FakeConnection;
  readonly budget: WeightBudget;
  readonly client: MarketDataClient;
  /** Every REST klines call: when, and its parameters. */
  readonly restCalls: { at: number; params: Record<string, unknown> }[] = [];
  /** Set: REST calls fail (the venue unreachable). */
  restDown = false;
  /** Closed events pushed twice (a duplicate on the wire). */
  duplicatePushes = false;
  private readonly interval: Interval;

  constructor(
    readonly scheduler: VirtualTimeScheduler,
    private readonly options: FakeVenueOptions,
  ) {
    this.interval = options.interval;
    this.connection = new FakeConnection(scheduler);
    const clock = { now: () => scheduler.now(), sleep: (ms: number, signal?: AbortSignal) => schedulerDelay(scheduler, ms, signal) };
    this.budget = new WeightBudget({ clock, config: { pools: [{ name: 'IP', limit: options.ipLimit ?? 1200, windowMs: 60_000 }] } });
    const klines = async (params: { symbol: string; interval: Interval; startTime?: number; endTime?: number; limit?: number }, opts?: { consumer?: string }): Promise<Kline[]> => {
      await this.budget.acquire(chargesFor(marketEndpoints.klines, params, 'spec'), opts?.consumer === undefined ? {} : { consumer: opts.consumer });
      this.restCalls.push({ at: scheduler.now(), params });
      if (this.restDown) throw new Error('connect ECONNREFUSED (fake venue down)');
      return this.rest(params.symbol, params.interval, params.startTime, params.endTime, params.limit ?? 500);
    };
    this.client = { market: { klines: klines as never }, rest: { budget: this.budget } };
  }

  /** REST klines: the bars that have opened by now (the one in progress too), in [start, end]. */
  rest(symbol: string, interval: Interval, start: number | undefined, end: number | undefined, limit: number): Kline[] {
    const now = this.scheduler.now();
    const last = Math.min(periodOpen(interval, now), end ?? Infinity);
    const out: Kline[] = [];
    if (start === undefined) {
      for (let t = periodOpen(interval, last); out.length < limit; t = periodOpen(interval, t - 1)) out.unshift(fakeKline(symbol, interval, t));
      return out;
    }
    for (let t = periodOpen(interval, start) < start ? nextOpen(interval, periodOpen(interval, start)) : start; t <= last && out.length < limit; t = nextOpen(interval, t)) out.push(fakeKline(symbol, interval, t));
    return out;
  }

  /** Push the closed event of the bar opening at `openTime` for every symbol (those subscribed and connected receive it). */
  pushClosed(openTime: number): void {
    for (const symbol of this.options.symbols) {
      const stream = `${symbol.toLowerCase()}@kline_${this.interval}`;
      const data = wireKline(symbol, this.interval, fakeKline(symbol, this.interval, openTime), true, this.scheduler.now());
      this.connection.push(stream, data);
      if (this.duplicatePushes) this.connection.push(stream, data);
    }
  }

  /** Schedule the closed pushes of every bar from now on, `closePushMs` after each bar's end. */
  run(): void {
    const delay = this.options.closePushMs ?? 1000;
    const tick = (): void => {
      const now = this.scheduler.now();
      const justClosed = periodOpen(this.interval, periodOpen(this.interval, now - delay) - 1);
      this.pushClosed(justClosed);
      const nextPush = nextOpen(this.interval, periodOpen(this.interval, now)) + delay;
      this.scheduler.schedule(tick, nextPush - now);
    };
    const now = this.scheduler.now();
    this.scheduler.schedule(tick, nextOpen(this.interval, periodOpen(this.interval, now)) + delay - now);
  }
}

/** A kline event as on the wire (notes 4). */
export function wireKline(symbol: string, interval: Interval, k: Kline, closed: boolean, E: number): Record<string, unknown> {
  return {
    e: 'kline',
    E,
    s: symbol,
    k: { t: k.openTime, T: k.closeTime, s: symbol, i: interval, f: '-1', L: '-1', o: k.open, c: k.close, h: k.high, l: k.low, v: k.volume, n: k.trades, x: closed, q: k.quoteVolume, V: k.takerBuyBaseVolume, Q: k.takerBuyQuoteVolume, B: '0' },
  };
}
