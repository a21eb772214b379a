/**
 * The user data stream with its listen-key lifecycle (issue 20 deliverable 3; spec 4.7; protocol
 * notes 4.1): POST makes the key, PUT keeps it alive every 30 minutes (a keepalive is a timer with
 * `exhaustMap`, design rule 9: a slow PUT is never overlapped by the next), DELETE closes it on
 * shutdown. The venue sends no expiry event, so every (re)connect first checks the key with a PUT
 * and makes a new one on -1125; a keepalive answered -1125 replaces the socket at once. Creation
 * failures (-1126, -1026, 429/418) wait with back-off and a floor (listen-key-policy.ts).
 *
 * The stream is lossy (design, "facts of the wire"): after every gap (and at first open) `gaps$`
 * emits and `health$` is RESYNCING until the consumer has resynced orders, trades and balances over
 * REST and calls `markResynced(gap.seq)`; then LIVE. `events$` are the parsed user events (lossless:
 * executionReport `i` above 2^53 is a decimal string), through the injected `decode` when given.
 */
import { BehaviorSubject, EMPTY, Subject, asyncScheduler, exhaustMap, from, interval, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { ExchangeClient } from '../client/exchange-client.ts';
import { DEFAULT_LISTEN_KEY_POLICY, isListenKeyGone, listenKeyRetryFloor, type ListenKeyPolicy } from './listen-key-policy.ts';
import { StreamConnection, type StreamConnectionOptions } from './stream-connection.ts';
import { StreamClosedError } from './stream-errors.ts';
import type { ConnectionEvent } from './stream-events.ts';
import type { HealthState, StreamGap, StreamHealth, StreamNotice } from './stream-health.ts';
import { USER_PATH, userDataUrl, wsBase } from './stream-paths.ts';
import type { StreamTimingsInput } from './stream-timings.ts';

/** The three listen-key calls of the typed client (`client.userStream`). */
export type ListenKeyApi = Pick<ExchangeClient['userStream'], 'startUserDataStream' | 'keepaliveUserDataStream' | 'closeUserDataStream'>;

export interface UserDataStreamOptions<T> {
  listenKeys: ListenKeyApi;
  /** The WebSocket base URL (configured apart from the REST base URL, notes 1). */
  wsUrl: string;
  /** Turns a parsed event into T; a throw (DecodeError) is a notice and the event is dropped. */
  decode?: (event: unknown) => T;
  /** PUT period. Notes 4.1: a key lives 60 minutes; keep it alive about every 30. */
  keepaliveMs?: number;
  policy?: Partial<ListenKeyPolicy>;
  /** The first open is RESYNCING too (events before it were never seen). Default true. */
  requireInitialSync?: boolean;
  scheduler?: SchedulerLike;
  random?: () => number;
  timings?: StreamTimingsInput;
  createSocket?: StreamConnectionOptions['createSocket'];
}

export const DEFAULT_KEEPALIVE_MS = 30 * 60_000;

export class UserDataStream<T = unknown> {
  private readonly healthSubject: BehaviorSubject<StreamHealth>;
  private readonly eventsSubject = new Subject<T>();
  private readonly gapsSubject = new Subject<StreamGap>();
  private readonly noticesSubject = new Subject<StreamNotice>();
  /** The health now, replayed to each new subscriber. */
  readonly health$: Observable<StreamHealth>;
  /** User events (parsed losslessly, then decoded when a decoder was given). */
  readonly events$: Observable<T> = this.eventsSubject.asObservable();
  /** Resync now, then `markResynced(gap.seq)`. */
  readonly gaps$: Observable<StreamGap> = this.gapsSubject.asObservable();
  /** Key changes, keepalive failures, bad frames, decode errors: for the log. */
  readonly notices$: Observable<StreamNotice> = this.noticesSubject.asObservable();
  /** The socket's own lifecycle events (connecting, open, gap, retrying, ...), for the log. */
  readonly connectionEvents$: Observable<ConnectionEvent>;

  private readonly api: ListenKeyApi;
  private readonly scheduler: SchedulerLike;
  private readonly policy: ListenKeyPolicy;
  private readonly keepaliveMs: number;
  private readonly decode: ((event: unknown) => T) | undefined;
  private readonly requireInitialSync: boolean;
  private readonly connection: StreamConnection;
  private readonly subs: Subscription[] = [];
  private key: string | undefined;
  private opens = 0;
  private gapSeq = 0;
  private started = false;
  private closing: Promise<void> | undefined;

  constructor(options: UserDataStreamOptions<T>) {
    this.api = options.listenKeys;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.policy = { ...DEFAULT_LISTEN_KEY_POLICY, ...options.policy };
    this.keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
    if (!Number.isFinite(this.keepaliveMs) || this.keepaliveMs <= 0) throw new RangeError(`keepaliveMs must be a positive number of ms, got ${String(options.keepaliveMs)}`);
    this.decode = options.decode;
    this.requireInitialSync = options.requireInitialSync ?? true;
    const base = wsBase(options.wsUrl);
    this.healthSubject = new BehaviorSubject<StreamHealth>({ state: 'DOWN', reason: 'not started', since: this.scheduler.now() });
    this.health$ = this.healthSubject.asObservable();
    this.connection = new StreamConnection({
      scheduler: this.scheduler,
      ...(options.random ? { random: options.random } : {}),
      ...(options.timings ? { timings: options.timings } : {}),
      ...(options.createSocket ? { createSocket: options.createSocket } : {}),
      target: {
        resolve: async () => ({ url: userDataUrl(base, await this.ensureKey()), carried: [], label: `${base}${USER_PATH}/<listenKey>` }),
        minRetryDelay: (err) => listenKeyRetryFloor(err, this.policy),
      },
    });
    this.connectionEvents$ = this.connection.events$;
  }

  get health(): StreamHealth {
    return this.healthSubject.value;
  }

  /** The listen key in use (undefined before the first POST or after it was found dead). */
  get listenKey(): string | undefined {
    return this.key;
  }

  start(): this {
    if (this.started || this.closing) return this;
    this.started = true;
    this.subs.push(this.connection.events$.subscribe((e) => this.onConnectionEvent(e)));
    this.subs.push(this.connection.messages$.subscribe((m) => this.onMessage(m.data)));
    this.subs.push(
      interval(this.keepaliveMs, this.scheduler)
        .pipe(exhaustMap(() => (this.key === undefined ? EMPTY : from(this.keepalive(this.key)))))
        .subscribe(),
    );
    this.connection.start();
    return this;
  }

  /**
   * The consumer has resynced after gap `seq` (default: the latest). LIVE again, unless a newer gap
   * came meanwhile or the socket is not open: then false, and the state stays as it is.
   */
  markResynced(seq?: number): boolean {
    const h = this.health;
    if (h.state !== 'RESYNCING' || (seq !== undefined && seq !== h.gap)) return false;
    this.setHealth('LIVE', `resynced after gap ${String(h.gap)}`);
    return true;
  }

  /** Close the socket, then the listen key (DELETE); observables complete. */
  close(): Promise<void> {
    return (this.closing ??= this.shutdown());
  }

  // ---- listen key

  /** A live key: the current one if a PUT accepts it, else a new one (POST). */
  private async ensureKey(): Promise<string> {
    const current = this.key;
    if (current !== undefined) {
      try {
        await this.api.keepaliveUserDataStream({ listenKey: current });
        return current;
      } catch (err) {
        if (!isListenKeyGone(err)) throw err;
        if (this.key === current) this.key = undefined;
        this.notice('info', 'listen-key', 'the listen key is unknown or expired (-1125): making a new one', err);
      }
    }
    const { listenKey } = await this.api.startUserDataStream();
    if (this.closing) {
      // Closed while the POST was out: close this key too rather than leave it open on the venue.
      await this.api.closeUserDataStream({ listenKey }).catch(() => undefined);
      throw new StreamClosedError('the user stream was closed');
    }
    this.key = listenKey;
    this.notice('info', 'listen-key', current === undefined ? 'listen key created' : 'new listen key created');
    return listenKey;
  }

  /** One PUT of the keepalive timer; never rejects (the timer must keep running). */
  private async keepalive(listenKey: string): Promise<void> {
    try {
      await this.api.keepaliveUserDataStream({ listenKey });
    } catch (err) {
      if (this.closing) return;
      if (isListenKeyGone(err)) {
        if (this.key === listenKey) this.key = undefined;
        this.notice('warn', 'keepalive', 'keepalive: the listen key is unknown or expired (-1125); reconnecting with a new one', err);
        this.connection.reconnect('listen key expired (-1125 on keepalive)');
      } else {
        this.notice('warn', 'keepalive', `keepalive failed (${err instanceof Error ? err.message : String(err)}); next try in ${this.keepaliveMs} ms`, err);
      }
    }
  }

  // ---- socket

  private onConnectionEvent(e: ConnectionEvent): void {
    switch (e.type) {
      case 'connecting':
        return this.setHealth('CONNECTING', e.reason);
      case 'retrying':
        return this.setHealth('DOWN', `${e.reason}; retry ${e.attempt} in ${e.delayMs} ms`);
      case 'gap':
        return this.setHealth('DOWN', e.reason);
      case 'stale':
        return this.setHealth('STALE', e.reason);
      case 'open':
        this.opens += 1;
        // Later opens follow a gap: `reconnected` comes next and starts the resync.
        if (this.opens === 1) {
          if (this.requireInitialSync) this.gap('first connection: events before it were not seen');
          else this.setHealth('LIVE', 'connected');
        }
        return;
      case 'reconnected':
        return this.gap(e.reason);
      case 'frame-error':
        return this.notice('warn', 'frame', `${e.reason}: ${e.frame}`);
      case 'request-error':
        return this.notice('warn', 'request', e.error.message, e.error);
      case 'pong':
      case 'closed':
        return;
    }
  }

  private gap(reason: string): void {
    this.gapSeq += 1;
    const gap: StreamGap = { seq: this.gapSeq, reason, at: this.scheduler.now() };
    this.setHealth('RESYNCING', reason, gap.seq);
    this.gapsSubject.next(gap);
  }

  private onMessage(data: unknown): void {
    if (!this.decode) return this.eventsSubject.next(data as T);
    let event: T;
    try {
      event = this.decode(data);
    } catch (err) {
      return this.notice('warn', 'decode', err instanceof Error ? err.message : String(err), err);
    }
    this.eventsSubject.next(event);
  }

  private async shutdown(): Promise<void> {
    for (const s of this.subs.splice(0)) s.unsubscribe();
    await this.connection.close('user stream closed');
    const key = this.key;
    this.key = undefined;
    if (key !== undefined) {
      try {
        await this.api.closeUserDataStream({ listenKey: key });
      } catch (err) {
        // Already gone is fine: nothing is left open on the venue.
        if (!isListenKeyGone(err)) this.notice('warn', 'close', `closing the listen key failed: ${err instanceof Error ? err.message : String(err)}`, err);
      }
    }
    this.setHealth('DOWN', 'closed');
    this.healthSubject.complete();
    this.eventsSubject.complete();
    this.gapsSubject.complete();
    this.noticesSubject.complete();
  }

  private setHealth(state: HealthState, reason: string, gap?: number): void {
    if (this.healthSubject.closed) return;
    const h = this.health;
    if (h.state === state && h.reason === reason && h.gap === gap) return;
    this.healthSubject.next({ state, reason, since: this.scheduler.now(), ...(gap === undefined ? {} : { gap }) });
  }

  private notice(level: StreamNotice['level'], kind: StreamNotice['kind'], message: string, error?: unknown): void {
    if (this.noticesSubject.closed) return;
    this.noticesSubject.next({ at: this.scheduler.now(), level, kind, message, ...(error === undefined ? {} : { error }) });
  }
}
