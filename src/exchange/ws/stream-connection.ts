/**
 * One logical WebSocket connection to the venue that stays up (issue 20 deliverable 1; protocol
 * notes 1, 4, 5.1): it opens a socket over `ws`, keeps it alive with JSON pings (protocol PING
 * frames are answered by `ws` itself: autoPong), replaces it when it goes STALE, reconnects with
 * exponential back-off and full jitter after any loss, subscribes again what was subscribed, and
 * reconnects on purpose before the venue's 24 h connection limit.
 *
 * Every loss emits `gap` and the next open emits `reconnected` (also on `resync$`): whoever keeps
 * state built from the stream resyncs it over REST then (design rule 9). The planned 24 h reconnect
 * is break-then-make and emits the same pair: two sockets open side by side would deliver some
 * events twice or out of order, and a resync is what makes the switch exact anyway.
 *
 * Frames are parsed losslessly (ids above 2^53 stay decimal strings). A frame that is not JSON or
 * not understood becomes a `frame-error` event and the connection carries on. All timers run on the
 * injected RxJS scheduler (design rule 8), so tests move them on virtual time.
 */
import { BehaviorSubject, Subject, Subscription, asyncScheduler, filter, timer, type Observable, type SchedulerLike } from 'rxjs';
import WebSocket from 'ws';
import { fullJitterDelay } from './backoff.ts';
import { Liveness } from './liveness.ts';
import { PendingRequests } from './pending-requests.ts';
import { StreamClosedError, StreamConnectionLostError, StreamRequestError, StreamUpgradeRejectedError, describeError, type StreamRequest } from './stream-errors.ts';
import type { ConnectionEvent, ConnectionState, ConnectionStatus, ReconnectedEvent, StreamMessage } from './stream-events.ts';
import { classifyFrame, excerpt, rawLength } from './stream-frames.ts';
import { MAX_STREAMS_PER_CONNECTION } from './stream-paths.ts';
import { streamTimings, type StreamTimings, type StreamTimingsInput } from './stream-timings.ts';
import { openSocket } from './open-socket.ts';
import { WantedStreams } from './wanted-streams.ts';

/** Where the next attempt goes. */
export interface ResolvedTarget {
  readonly url: string;
  /** Streams the URL itself subscribes (the rest are sent as SUBSCRIBE after open). */
  readonly carried: readonly string[];
  /** The endpoint for logs, without secrets. */
  readonly label: string;
}

/** The streams an attempt may put in its URL. */
export interface TargetStreams {
  /** Every stream wanted, in the order asked for. */
  readonly wanted: readonly string[];
  /**
   * Those the venue has accepted before (a SUBSCRIBE reply, or a URL that opened). Only these are
   * safe in a combined URL: one bad name there refuses the whole upgrade without saying which,
   * while a SUBSCRIBE refusal names its request.
   */
  readonly confirmed: readonly string[];
}

export interface ConnectionTarget {
  /**
   * Called before every attempt. May do work first (the user stream makes or checks its listen
   * key here); a throw fails the attempt, which is retried with back-off.
   */
  resolve(streams: TargetStreams): Promise<ResolvedTarget> | ResolvedTarget;
  /** Shortest wait after `error` failed an attempt (a 429's Retry-After, a key-creation limit). */
  minRetryDelay?(error: unknown): number | undefined;
}

export interface StreamConnectionOptions {
  target: ConnectionTarget;
  /** Streams wanted from the start. */
  streams?: readonly string[];
  /** Timers (ping, stale, back-off, lifetime, request bounds). Default: asyncScheduler. */
  scheduler?: SchedulerLike;
  /** Uniform in [0, 1) for the back-off jitter. Default: Math.random. */
  random?: () => number;
  timings?: StreamTimingsInput;
  /** Opens a socket (tests, proxies). Default: `new WebSocket(url, { handshakeTimeout })`. */
  createSocket?: (url: string) => WebSocket;
}

type RequestMethod = StreamRequest['method'];

/** Error codes that refuse a stream name (notes 1): 2 "STREAM [..] was invalid", -100010 "Invalid Symbols!". */
const STREAM_NAME_CODES: ReadonlySet<string> = new Set(['2', '-100010']);

export class StreamConnection {
  private readonly messagesSubject = new Subject<StreamMessage>();
  private readonly eventsSubject = new Subject<ConnectionEvent>();
  private readonly statusSubject: BehaviorSubject<ConnectionStatus>;
  /** Data events, in arrival order (a subscriber added later does not see earlier ones). */
  readonly messages$: Observable<StreamMessage> = this.messagesSubject.asObservable();
  /** Lifecycle, errors and pongs. */
  readonly events$: Observable<ConnectionEvent> = this.eventsSubject.asObservable();
  /** The state now (replayed to each new subscriber). */
  readonly status$: Observable<ConnectionStatus>;
  /** Open again after a gap: resync what was built from this stream. */
  readonly resync$: Observable<ReconnectedEvent> = this.events$.pipe(filter((e): e is ReconnectedEvent => e.type === 'reconnected'));

  private readonly scheduler: SchedulerLike;
  private readonly random: () => number;
  private readonly t: StreamTimings;
  private readonly target: ConnectionTarget;
  private readonly createSocket: (url: string) => WebSocket;
  private readonly pending: PendingRequests;
  /** What the owner subscribed: sent again after every reconnect. */
  private readonly wanted: WantedStreams;

  private socket: WebSocket | undefined;
  /** Bumped per attempt: callbacks of an older socket or attempt are ignored. */
  private generation = 0;
  /** Failed attempts since a socket last heard anything (the back-off exponent). */
  private failures = 0;
  private gapSeq = 0;
  /** The reason of the gap not yet closed by a `reconnected`. */
  private openGap: string | undefined;
  /** Why we cut the current socket ourselves (stale, planned), for its close handler. */
  private cutReason: string | undefined;
  private cutImmediate = false;
  private heard = false;
  /** True once open and resubscribed: requests may go out. */
  private ready = false;
  private readyWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  private socketTimers = new Subscription();
  private liveness: Liveness | undefined;
  private retry: Subscription | undefined;
  private nextId = 1;
  private closing: Promise<void> | undefined;

  constructor(options: StreamConnectionOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.random = options.random ?? Math.random;
    this.t = streamTimings(options.timings);
    this.target = options.target;
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url, { handshakeTimeout: this.t.handshakeTimeoutMs }));
    this.pending = new PendingRequests(this.scheduler, this.t.requestTimeoutMs);
    this.wanted = new WantedStreams(options.streams);
    this.statusSubject = new BehaviorSubject<ConnectionStatus>({ state: 'idle', reason: 'not started', at: this.scheduler.now() });
    this.status$ = this.statusSubject.asObservable();
  }

  get status(): ConnectionStatus {
    return this.statusSubject.value;
  }

  /** The streams wanted (subscribed, or to be subscribed on the next open). */
  get subscriptions(): string[] {
    return this.wanted.list;
  }

  /** Open the first socket (later ones open by themselves). */
  start(): this {
    if (this.status.state === 'idle') void this.connect('starting');
    return this;
  }

  /**
   * Subscribe `streams`. While no socket is open they are only noted, and the promise settles once
   * the next open has subscribed them. A refusal (`StreamRequestError`) leaves them unwanted.
   */
  async subscribe(streams: readonly string[]): Promise<void> {
    this.assertUsable();
    const fresh = this.wanted.add(streams);
    if (!this.ready) {
      await this.whenReady();
      // The open subscribed them one request at a time when need be: report the first refusal.
      const refused = this.wanted.takeRefusal(fresh);
      if (refused) throw refused;
      return;
    }
    if (fresh.length === 0) return;
    try {
      await this.request('SUBSCRIBE', fresh);
      this.wanted.confirm(fresh);
    } catch (err) {
      if (err instanceof StreamRequestError) this.wanted.remove(fresh);
      throw err;
    }
  }

  /** Unsubscribe `streams`; they are not subscribed again after a reconnect. */
  async unsubscribe(streams: readonly string[]): Promise<void> {
    this.assertUsable();
    const names = this.wanted.remove(streams);
    // Also while a reconnect's resubscription is out: its SUBSCRIBE went first on this socket.
    if (names.length > 0 && this.socket?.readyState === WebSocket.OPEN) await this.request('UNSUBSCRIBE', names);
  }

  /** The venue's own list of this socket's subscriptions (waits for an open socket). */
  async listSubscriptions(): Promise<string[]> {
    this.assertUsable();
    if (!this.ready) await this.whenReady();
    const result = await this.request('LIST_SUBSCRIPTIONS');
    if (!Array.isArray(result) || result.some((s) => typeof s !== 'string')) throw new TypeError(`LIST_SUBSCRIPTIONS: result is not a list of names: ${JSON.stringify(result)}`);
    return result as string[];
  }

  /**
   * Replace the socket now (or cut a back-off wait short): the owner knows it is useless, e.g. its
   * listen key expired. Emits gap / reconnected like any loss.
   */
  reconnect(reason: string): void {
    if (this.status.state === 'closed' || this.status.state === 'idle') return;
    if (this.socket) return this.cut(reason, true, 'close');
    if (this.retry) {
      this.retry.unsubscribe();
      this.retry = undefined;
      void this.connect(reason);
    }
  }

  /** Close for good: pending requests fail with StreamClosedError, observables complete. */
  close(reason = 'closed by its owner'): Promise<void> {
    return (this.closing ??= this.shutdown(reason));
  }

  // ---- attempts

  private async connect(reason: string): Promise<void> {
    const gen = ++this.generation;
    this.setStatus('connecting', reason);
    this.emit({ type: 'connecting', at: this.now(), attempt: this.failures, reason });
    let target: ResolvedTarget;
    try {
      target = await this.target.resolve({ wanted: this.wanted.list, confirmed: this.wanted.confirmedList });
    } catch (err) {
      if (gen === this.generation && !this.closing) this.attemptFailed(`could not prepare the connection: ${describeError(err)}`, err);
      return;
    }
    if (gen !== this.generation || this.closing) return;
    try {
      const ws: WebSocket = openSocket(this.createSocket, target.url, {
        open: () => void this.opened(ws, target, gen),
        frame: (data, isBinary) => this.received(ws, data, isBinary),
        lifeSign: () => this.seen(ws),
        closed: (end) => this.socketClosed(ws, end, target),
      });
      this.socket = ws;
    } catch (err) {
      this.attemptFailed(`could not open ${target.label}: ${describeError(err)}`, err);
    }
  }

  private async opened(ws: WebSocket, target: ResolvedTarget, gen: number): Promise<void> {
    if (ws !== this.socket || this.closing) return;
    this.heard = false;
    this.setStatus('open', `connected to ${target.label}`);
    this.emit({ type: 'open', at: this.now(), attempt: this.failures, target: target.label });
    this.liveness = new Liveness(this.scheduler, this.t, (now) => this.send(ws, { ping: now }), (why) => this.stale(ws, why));
    this.socketTimers.add(() => this.liveness?.stop());
    this.socketTimers.add(
      timer(this.t.maxLifetimeMs, this.scheduler).subscribe(() => this.cut(`planned reconnect after ${this.t.maxLifetimeMs} ms, before the venue's 24 h connection limit`, true, 'close')),
    );
    this.wanted.confirm(target.carried);
    // Subscribe again what the URL did not carry (after a reconnect, or subscribed before open),
    // including streams asked for while these requests were out.
    const sent = new Set(target.carried);
    for (;;) {
      const chunk = this.wanted.list.filter((s) => !sent.has(s)).slice(0, MAX_STREAMS_PER_CONNECTION);
      if (chunk.length === 0) break;
      for (const s of chunk) sent.add(s);
      try {
        await this.subscribeOrSplit(chunk, ws);
      } catch (err) {
        if (gen !== this.generation || ws !== this.socket) return;
        return this.cut(`resubscribing failed: ${describeError(err)}`, false, 'terminate');
      }
      if (gen !== this.generation || ws !== this.socket) return;
    }
    if (gen !== this.generation || ws !== this.socket) return;
    this.ready = true;
    for (const w of this.readyWaiters.splice(0)) w.resolve();
    if (this.openGap !== undefined) {
      const reason = this.openGap;
      this.openGap = undefined;
      this.emit({ type: 'reconnected', at: this.now(), seq: this.gapSeq, reason });
    }
  }

  /**
   * SUBSCRIBE `chunk`; the venue refuses a request whole when one name is bad, so a refused chunk is
   * split in halves until the bad names stand alone. Those are dropped (a delisted symbol would be
   * refused forever) and reported; the others are subscribed. Other failures (lost, timeout) throw.
   */
  private async subscribeOrSplit(chunk: readonly string[], ws: WebSocket): Promise<void> {
    try {
      await this.request('SUBSCRIBE', chunk, ws);
      this.wanted.confirm(chunk);
    } catch (err) {
      if (!(err instanceof StreamRequestError)) throw err;
      if (chunk.length > 1) {
        const half = Math.ceil(chunk.length / 2);
        await this.subscribeOrSplit(chunk.slice(0, half), ws);
        await this.subscribeOrSplit(chunk.slice(half), ws);
        return;
      }
      this.refuse(chunk, err);
    }
  }

  /** The venue will not take these streams: no longer wanted; a waiting subscribe() hears why. */
  private refuse(streams: readonly string[], error: StreamRequestError): void {
    this.wanted.refuse(streams, error);
    this.emit({ type: 'request-error', at: this.now(), error });
  }

  private received(ws: WebSocket, data: WebSocket.RawData, isBinary: boolean): void {
    if (!this.seen(ws)) return;
    const at = this.now();
    if (isBinary) return this.emit({ type: 'frame-error', at, reason: 'a binary frame (the venue sends text)', frame: `<${rawLength(data)} bytes>` });
    const text = data.toString();
    const frame = classifyFrame(text);
    switch (frame.kind) {
      case 'event':
        return this.messagesSubject.next({ stream: frame.stream, data: frame.data, receivedAt: at });
      case 'pong':
        return this.emit({ type: 'pong', at, value: frame.value });
      case 'ping':
        return this.send(ws, { pong: frame.value });
      case 'reply':
        if (!this.pending.resolve(frame.id, frame.result)) this.emit({ type: 'frame-error', at, reason: `a reply to id ${String(frame.id)}, which no request waits for`, frame: excerpt(text) });
        return;
      case 'error':
        if (!this.pending.rejectOldest(frame.error)) this.emit({ type: 'request-error', at, error: frame.error });
        return;
      case 'invalid':
        return this.emit({ type: 'frame-error', at, reason: frame.reason, frame: excerpt(text) });
    }
  }

  /** Any frame from the current socket: it lives. False for an old socket's frame. */
  private seen(ws: WebSocket): boolean {
    if (ws !== this.socket) return false;
    this.liveness?.seen();
    if (!this.heard) {
      // Heard after open: the venue is back, so the next loss starts the back-off from the bottom.
      this.heard = true;
      this.failures = 0;
    }
    return true;
  }

  private stale(ws: WebSocket, reason: string): void {
    if (ws !== this.socket) return;
    this.setStatus('stale', reason);
    this.emit({ type: 'stale', at: this.now(), reason });
    // Unresponsive: no close handshake to wait for.
    this.cut(`stale: ${reason}`, false, 'terminate');
  }

  /** End the current socket ourselves; its close handler reconnects (at once when `immediate`). */
  private cut(reason: string, immediate: boolean, how: 'close' | 'terminate'): void {
    const ws = this.socket;
    if (!ws) return;
    this.cutReason = reason;
    this.cutImmediate = immediate;
    if (how === 'close' && ws.readyState === WebSocket.OPEN) ws.close(1000, 'reconnecting');
    else ws.terminate();
  }

  private socketClosed(ws: WebSocket, { opened, code, why, failure }: { opened: boolean; code: number; why: string; failure: unknown }, target: ResolvedTarget): void {
    if (ws !== this.socket) return;
    this.socket = undefined;
    this.ready = false;
    this.stopSocketTimers();
    if (this.closing) return;
    const cutReason = this.cutReason;
    const immediate = this.cutImmediate;
    this.cutReason = undefined;
    this.cutImmediate = false;
    if (!opened) {
      if (failure instanceof StreamUpgradeRejectedError) this.upgradeRefused(failure, target);
      const reason = failure instanceof StreamUpgradeRejectedError ? failure.message : `could not connect to ${target.label}: ${failure === undefined ? `closed (${code})` : describeError(failure)}`;
      return this.attemptFailed(cutReason ?? reason, failure);
    }
    const reason = cutReason ?? `socket closed (code ${code}${why ? `, ${why}` : ''}${failure === undefined ? '' : `, ${describeError(failure)}`})`;
    this.pending.rejectAll((request) => new StreamConnectionLostError(reason, request));
    this.gapSeq += 1;
    // Gaps that follow one another before a reconnect are one gap for the resync.
    this.openGap ??= reason;
    this.emit({ type: 'gap', at: this.now(), seq: this.gapSeq, reason });
    if (immediate) void this.connect(reason);
    else this.attemptFailed(reason, failure);
  }

  /**
   * An upgrade refused for a stream name (`-100010`, or code 2 "STREAM [..] was invalid"): a URL
   * with one stream names the culprit, which is dropped; with several, none of them is trusted in
   * the URL again and the next attempt subscribes them by SUBSCRIBE, which says which is bad.
   */
  private upgradeRefused(failure: StreamUpgradeRejectedError, target: ResolvedTarget): void {
    const frame = classifyFrame(failure.body);
    if (frame.kind !== 'error' || target.carried.length === 0 || !STREAM_NAME_CODES.has(String(frame.error.venueCode))) return;
    if (target.carried.length === 1) return this.refuse(target.carried, frame.error);
    this.wanted.distrust(target.carried);
  }

  /** Wait with back-off, then try again. */
  private attemptFailed(reason: string, error: unknown): void {
    const jitter = fullJitterDelay(this.failures, this.t.backoff, this.random);
    const floor = this.target.minRetryDelay?.(error) ?? 0;
    const delayMs = Math.max(jitter, floor);
    this.failures += 1;
    this.setStatus('backoff', `${reason}; retry ${this.failures} in ${delayMs} ms`);
    this.emit({ type: 'retrying', at: this.now(), attempt: this.failures, delayMs, reason, ...(error === undefined ? {} : { error }) });
    this.retry = timer(delayMs, this.scheduler).subscribe(() => {
      this.retry = undefined;
      void this.connect(this.openGap ?? reason);
    });
  }

  // ---- requests

  private async request(method: RequestMethod, params?: readonly string[], ws = this.socket): Promise<unknown> {
    if (!ws || ws.readyState !== WebSocket.OPEN) throw new StreamConnectionLostError('no open socket');
    const request: StreamRequest = { method, ...(params ? { params } : {}), id: this.nextId++ };
    const reply = this.pending.add(request);
    this.send(ws, params ? { method, params, id: request.id } : { method, id: request.id });
    return reply;
  }

  private send(ws: WebSocket, value: unknown): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    // A send error also closes the socket; the close handler reconnects.
    ws.send(JSON.stringify(value), (err) => {
      if (err && ws === this.socket) this.emit({ type: 'frame-error', at: this.now(), reason: `send failed: ${err.message}`, frame: excerpt(JSON.stringify(value)) });
    });
  }

  private whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    if (this.closing) return Promise.reject(new StreamClosedError());
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  private assertUsable(): void {
    if (this.closing) throw new StreamClosedError();
  }

  // ---- shutdown and plumbing

  private async shutdown(reason: string): Promise<void> {
    this.generation += 1;
    this.retry?.unsubscribe();
    this.retry = undefined;
    this.stopSocketTimers();
    this.pending.rejectAll((request) => new StreamClosedError(`${request.method} (id ${request.id}): the connection was closed`));
    for (const w of this.readyWaiters.splice(0)) w.reject(new StreamClosedError());
    const ws = this.socket;
    this.socket = undefined;
    this.ready = false;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'closing');
        else ws.terminate();
        // A server that never answers the close frame is cut after a short grace (wall time, unref'd).
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1000).unref();
      });
    }
    this.setStatus('closed', reason);
    this.emit({ type: 'closed', at: this.now(), reason });
    this.eventsSubject.complete();
    this.messagesSubject.complete();
    this.statusSubject.complete();
  }

  private stopSocketTimers(): void {
    this.socketTimers.unsubscribe();
    this.socketTimers = new Subscription();
    this.liveness = undefined;
  }

  private setStatus(state: ConnectionState, reason: string): void {
    if (this.statusSubject.closed) return;
    this.statusSubject.next({ state, reason, at: this.now() });
  }

  private emit(event: ConnectionEvent): void {
    if (!this.eventsSubject.closed) this.eventsSubject.next(event);
  }

  private now(): number {
    return this.scheduler.now();
  }
}
