/**
 * createMarketData: the live market-data pipeline put together (issue 21 deliverable 1; protocol
 * notes 1 and 4: one market connection, combined path, lower-case stream names, kline `x` closed
 * flag; spec 4.4 REST klines; spec 8 / notes 7 weights).
 *
 * One connection carries every stream. Each (symbol, interval), trade or book-ticker stream is
 * subscribed at the venue when its first subscriber comes and unsubscribed when its last leaves
 * (refCount), however many strategies ask. Frames are decoded once and routed by the event's own
 * symbol and interval, so raw and combined paths route alike. Connection state and reconnects are
 * handed to each bar series (bar-series.ts), which owns ordering, gap fill and polling.
 *
 * Trades and book tops are stream-only: a strategy gets no REST stand-in for them while the stream
 * is down (the health says so); bars are what must arrive complete.
 */
import { BehaviorSubject, Observable, Subject, asyncScheduler, share, type Subscription } from 'rxjs';
import { periodOpen } from '../../core/market/intervals.ts';
import type { TradeInput, BookTopInput, Interval } from '../../strategy/types.ts';
import { DecodeError } from '../../exchange/streams/decode-error.ts';
import { decodeMarketEvent } from '../../exchange/streams/market-payloads.ts';
import { StreamRequestError } from '../../exchange/ws/stream-errors.ts';
import { marketConnection } from '../../exchange/ws/market-connection.ts';
import type { StreamMessage } from '../../exchange/ws/stream-events.ts';
import { BarSeries, type BarSeriesDeps } from './bar-series.ts';
import { bookTickerStream, candleOfStream, klineStream, seriesKey, tradeStream } from './candles.ts';
import { linkState } from './link-state.ts';
import { KLINE_PAGE } from './rest-bars.ts';
import { bookTopInput, tradeInput } from './stream-inputs.ts';
import type { ClosedBar, ClosedBarsOptions, MarketData, MarketDataHealth, MarketDataLog, MarketDataOptions, MarketStreamHealth, MarketStreamState } from './types.ts';
import { warmupBars } from './warmup.ts';
import { WeightPacer } from './weight-pacer.ts';

export const DEFAULTS = { pollWeightShare: 0.2, consumer: 'market-data', pollDelayMs: 1500, streamGraceMs: 10_000 } as const;

interface SeriesEntry {
  readonly series: BarSeries;
  readonly stream: string;
  count: number;
}

export function createMarketData(options: MarketDataOptions): MarketData {
  const scheduler = options.scheduler ?? asyncScheduler;
  const log: MarketDataLog = options.log ?? (() => undefined);
  const now = (): number => options.now();
  const ownConnection = options.connection === undefined;
  const conn = options.connection ?? marketConnection({ wsUrl: options.wsUrl, scheduler, ...(options.timings ? { timings: options.timings } : {}) });
  const abort = new AbortController();
  const pacer = new WeightPacer(options.client.rest.budget.snapshot().pools, options.pollWeightShare ?? DEFAULTS.pollWeightShare);
  const rest = { client: options.client, pacer, scheduler, consumer: options.consumer ?? DEFAULTS.consumer, log, signal: abort.signal, now };

  const series = new Map<string, SeriesEntry>();
  const trades = new Map<string, Subject<TradeInput>>();
  const books = new Map<string, Subject<BookTopInput>>();
  const shared = new Map<string, Observable<unknown>>();
  let link: { state: MarketStreamState; reason: string; since: number } = { state: 'CONNECTING', reason: 'not yet open', since: now() };
  let closed = false;

  const health$ = new BehaviorSubject<MarketDataHealth>({ at: now(), streams: [] });
  const publish = (): void => {
    if (!closed) health$.next(snapshot());
  };
  const seriesDeps: BarSeriesDeps = {
    ...rest,
    journal: options.journal,
    pollDelayMs: options.pollDelayMs ?? DEFAULTS.pollDelayMs,
    streamGraceMs: options.streamGraceMs ?? DEFAULTS.streamGraceMs,
    changed: publish,
  };

  /** A gap was seen and its catch-up not yet started. */
  let gapOpen = false;
  /** The socket is back after a gap: every series catches up over REST before the stream is trusted. */
  const resume = (reason: string): void => {
    if (!gapOpen) return;
    gapOpen = false;
    for (const x of series.values()) x.series.reconnected(reason);
  };
  const subs: Subscription[] = [
    conn.messages$.subscribe((m) => route(m)),
    conn.status$.subscribe((s) => {
      const state = linkState(s.state);
      if (state === link.state) return;
      // The socket's `open` comes just before its `reconnected`: start the catch-up first, so the
      // health goes DOWN -> RESYNCING -> LIVE and never shows the stream trusted before it is.
      if (state === 'LIVE') resume(s.reason);
      link = { state, reason: s.reason, since: s.at };
      for (const e of series.values()) e.series.setLink(state, s.reason);
      publish();
    }),
    conn.events$.subscribe((e) => {
      if (e.type === 'reconnected') resume(e.reason);
      else if (e.type === 'gap') {
        gapOpen = true;
        log({ level: 'warn', topic: 'stream', time: now(), message: `market stream gap: ${e.reason}` });
      }
    }),
  ];

  function route(m: StreamMessage): void {
    let ev;
    try {
      ev = decodeMarketEvent(m.stream, m.data);
    } catch (err) {
      log({ level: 'warn', topic: 'decode', time: now(), message: `market event on ${m.stream ?? '(raw)'} not understood: ${err instanceof DecodeError || err instanceof Error ? err.message : String(err)}`, detail: err });
      return;
    }
    switch (ev.eventType) {
      case 'kline':
        // Only the closed event (notes 4, `x`); the 2 s updates of the bar in progress are not bars.
        if (ev.kline.closed) series.get(seriesKey(ev.kline.symbol, ev.kline.interval))?.series.streamBar(candleOfStream(ev.kline));
        return;
      case 'trade':
        trades.get(ev.symbol.toUpperCase())?.next(tradeInput(ev));
        return;
      case 'bookTicker':
        books.get(ev.symbol.toUpperCase())?.next(bookTopInput(ev, now()));
        return;
      default:
        return;
    }
  }

  function venueSubscribe(stream: string, onRefused: (reason: string) => void): void {
    if (ownConnection) conn.start();
    conn.subscribe([stream]).catch((err: unknown) => {
      if (closed) return;
      if (err instanceof StreamRequestError) onRefused(err.message);
      else log({ level: 'warn', topic: 'stream', time: now(), message: `subscribing ${stream}: ${err instanceof Error ? err.message : String(err)}`, detail: err });
    });
  }

  function venueUnsubscribe(stream: string): void {
    if (closed) return;
    conn.unsubscribe([stream]).catch((err: unknown) => {
      if (!closed) log({ level: 'warn', topic: 'stream', time: now(), message: `unsubscribing ${stream}: ${err instanceof Error ? err.message : String(err)}`, detail: err });
    });
  }

  function closedBars(symbol: string, interval: Interval, opts: ClosedBarsOptions = {}): Observable<ClosedBar> {
    const sym = symbol.toUpperCase();
    const key = seriesKey(sym, interval);
    return new Observable<ClosedBar>((sub) => {
      if (closed) {
        sub.complete();
        return;
      }
      const t = now();
      const after = opts.after ?? periodOpen(interval, t) - 1;
      let entry = series.get(key);
      if (!entry) {
        // A first subscriber asking for bars long gone gets at most a page of them filled.
        let floor = periodOpen(interval, t);
        for (let i = 0; i < KLINE_PAGE; i++) floor = periodOpen(interval, floor - 1);
        const s = new BarSeries(sym, interval, seriesDeps, Math.max(after + 1, floor));
        const created: SeriesEntry = { series: s, stream: klineStream(sym, interval), count: 0 };
        entry = created;
        series.set(key, created);
        s.setLink(link.state, link.reason);
        s.start();
        venueSubscribe(created.stream, (reason) => s.refused(reason));
        publish();
      }
      const mine = entry;
      mine.count++;
      const inner = mine.series.bars(after).subscribe(sub);
      return () => {
        inner.unsubscribe();
        if (--mine.count > 0 || series.get(key) !== mine) return;
        series.delete(key);
        mine.series.stop();
        venueUnsubscribe(mine.stream);
        publish();
      };
    });
  }

  /** One venue subscription per stream name while anyone listens (share: refCount, reset at zero). */
  function sharedStream<T>(stream: string, sym: string, handlers: Map<string, Subject<T>>): Observable<T> {
    const cached = shared.get(stream) as Observable<T> | undefined;
    if (cached) return cached;
    const source = new Observable<T>((sub) => {
      if (closed) {
        sub.complete();
        return;
      }
      const subject = new Subject<T>();
      handlers.set(sym, subject);
      const inner = subject.subscribe(sub);
      venueSubscribe(stream, (reason) => {
        log({ level: 'warn', topic: 'stream', time: now(), message: `${stream} refused: ${reason}` });
        subject.complete();
      });
      publish();
      return () => {
        inner.unsubscribe();
        if (handlers.get(sym) === subject) handlers.delete(sym);
        venueUnsubscribe(stream);
        publish();
      };
    }).pipe(share());
    shared.set(stream, source);
    return source;
  }

  function snapshot(): MarketDataHealth {
    const at = now();
    const streams: MarketStreamHealth[] = [];
    for (const e of series.values()) {
      const h = e.series.status();
      streams.push({ stream: e.stream, symbol: e.series.symbol, interval: e.series.interval, ...h });
    }
    for (const sym of trades.keys()) streams.push({ stream: tradeStream(sym), symbol: sym, state: link.state, mode: 'stream', reason: link.reason, since: link.since });
    for (const sym of books.keys()) streams.push({ stream: bookTickerStream(sym), symbol: sym, state: link.state, mode: 'stream', reason: link.reason, since: link.since });
    return { at, streams };
  }

  return {
    closedBars,
    trades: (symbol) => sharedStream(tradeStream(symbol), symbol.toUpperCase(), trades),
    bookTops: (symbol) => sharedStream(bookTickerStream(symbol), symbol.toUpperCase(), books),
    warmup: (symbol, interval, count) => warmupBars({ ...rest, journal: options.journal }, symbol.toUpperCase(), interval, count),
    health$: health$.asObservable(),
    health: () => health$.value,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      abort.abort(new Error('market data closed'));
      for (const e of series.values()) e.series.stop();
      series.clear();
      for (const s of [...trades.values(), ...books.values()]) s.complete();
      for (const s of subs) s.unsubscribe();
      health$.complete();
      if (ownConnection) await conn.close('market data closed');
    },
  };
}
