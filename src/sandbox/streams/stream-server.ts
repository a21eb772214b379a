/**
 * The sandbox's WebSocket streams (issue "Sandbox exchange" deliverable 7; protocol notes 1, 4,
 * 4.1), served on the sandbox's own port: `attachStreams` handles the http.Server's 'upgrade'
 * with `ws` in noServer mode. The returned `StreamServer` is the engine's `SandboxEventSink`: it
 * feeds the market-data store, then pushes trades, book changes and user events to subscribers.
 * Fault hooks: `dropAll`, `kill(id)`, `setSilent`.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SandboxEventSink, UserEvent } from '../contracts.ts';
import { StreamConnection, SubscriptionIndex, type SilenceGate, type Subscription } from './connection.ts';
import { CLOSE, DEFAULT_TIMINGS, type StreamDeps, type StreamTimings } from './config.ts';
import { MAX_STREAMS, TOO_MANY_STREAMS } from './control.ts';
import { DepthFeed } from './depth-feed.ts';
import { every } from './every.ts';
import { parseUpgradePath, rejectUpgrade, type ConnectionKind } from './paths.ts';
import { PeriodicFeed } from './periodic-feed.ts';
import { RealtimeFeed } from './realtime-feed.ts';
import { handleMessage, resolveAll, subscribe, type SessionContext } from './session.ts';
import { UserFeed } from './user-feed.ts';

export interface ConnectionInfo {
  id: number;
  kind: ConnectionKind;
  streams: string[];
  openedAt: number;
  lastActivity: number;
}

export interface StreamServer extends SandboxEventSink {
  connections(): ConnectionInfo[];
  /** Fault: cut one connection without a close frame. */
  kill(id: number): boolean;
  /** Fault: cut every connection without a close frame. */
  dropAll(): void;
  /** Fault: send nothing (no events, replies or pongs) while on. */
  setSilent(silent: boolean): void;
  /** Close the connections of a deleted listen key now (else the next sweep does). */
  closeListenKey(listenKey: string): void;
  /** Stop all timers and close every connection; the http.Server is left open. */
  close(): Promise<void>;
}

type Trade = Parameters<SandboxEventSink['trade']>[1];
type BookChange = Parameters<SandboxEventSink['bookChanged']>[1];

export function attachStreams(httpServer: Server, deps: StreamDeps): StreamServer {
  return new Streams(httpServer, deps);
}

class Streams implements StreamServer {
  private readonly t: StreamTimings;
  private readonly wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: 1 << 20 });
  private readonly index = new SubscriptionIndex();
  private readonly conns = new Map<number, StreamConnection>();
  private readonly gate: SilenceGate = { silent: false };
  private readonly stop = new AbortController();
  private readonly realtime: RealtimeFeed;
  private readonly depth: DepthFeed;
  private readonly periodic: PeriodicFeed;
  private readonly users: UserFeed;
  private readonly ctx: SessionContext;
  private nextId = 1;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head);

  constructor(
    private readonly http: Server,
    private readonly deps: StreamDeps,
  ) {
    this.t = { ...DEFAULT_TIMINGS, ...deps.timings };
    const { clock, book, store } = deps;
    this.realtime = new RealtimeFeed(this.index, clock, book);
    this.depth = new DepthFeed(this.index, clock, book);
    this.periodic = new PeriodicFeed(this.index, clock, store, book, store.variants.priceChangeInPercent === true);
    this.users = new UserFeed(this.index, deps.listenKeys, clock);
    this.ctx = {
      index: this.index,
      isSymbol: (s) => deps.isSymbol(s),
      accountOf: (k) => this.users.accountOf(k),
      added: (sub) => this.added(sub),
    };
    http.on('upgrade', this.onUpgrade);
    const onError = (err: unknown) => deps.onError?.(err);
    const run = (ms: number, task: () => void) => every(clock, ms, this.stop.signal, task, onError);
    run(this.t.klineMs, () => this.periodic.pushKlines());
    run(this.t.tickerMs, () => this.periodic.pushTickers());
    for (const speed of ['fast', 'slow'] as const) {
      run(speed === 'fast' ? this.t.depthFastMs : this.t.depthSlowMs, () => {
        this.depth.flushDiffs(speed);
        this.depth.pushSnapshots(speed);
      });
    }
    run(this.t.sweepMs, () => this.sweep());
  }

  // ---- SandboxEventSink

  trade(symbol: string, trade: Trade): void {
    const s = symbol.toUpperCase();
    this.realtime.trade(s, this.deps.store.trade(s, trade));
  }

  bookChanged(symbol: string, change: BookChange): void {
    const s = symbol.toUpperCase();
    this.depth.bookChanged(s, change);
    this.realtime.bookChanged(s);
  }

  user(accountId: string, event: UserEvent): void {
    this.users.deliver(accountId, event);
  }

  // ---- connections

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = parseUpgradePath(req.url ?? '/');
    if (!target) return rejectUpgrade(socket, 404, { code: -1, msg: 'Not a stream path.' });
    if (this.stop.signal.aborted) return rejectUpgrade(socket, 503, { code: -1, msg: 'Streams are closed.' });
    let subs: Subscription[];
    if (target.kind === 'user') {
      const accountId = this.users.accountOf(target.listenKey);
      if (accountId === undefined) return rejectUpgrade(socket, 400, { code: -1125, msg: 'This listenKey does not exist.' });
      subs = [{ name: target.listenKey, stream: { kind: 'user', listenKey: target.listenKey, accountId } }];
    } else {
      if (target.streams.length > MAX_STREAMS) return rejectUpgrade(socket, 400, TOO_MANY_STREAMS);
      const r = resolveAll(target.streams, new Map(), this.ctx);
      if (!r.ok) return rejectUpgrade(socket, 400, r.reply);
      subs = r.subs;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.adopt(ws, target.kind, subs));
  }

  private adopt(ws: WebSocket, kind: ConnectionKind, subs: Subscription[]): void {
    const conn = new StreamConnection(this.nextId++, ws, kind, this.deps.clock.now(), this.gate);
    this.conns.set(conn.id, conn);
    try {
      subscribe(conn, subs, this.ctx);
    } catch (err) {
      this.deps.onError?.(err);
    }
    const touch = () => (conn.lastActivity = this.deps.clock.now());
    ws.on('message', (data, isBinary) => {
      touch();
      if (isBinary) return;
      try {
        handleMessage(conn, String(data), this.ctx);
      } catch (err) {
        this.deps.onError?.(err);
      }
    });
    ws.on('ping', (data) => {
      touch();
      if (!this.gate.silent) ws.pong(data);
    });
    ws.on('pong', touch);
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      this.index.removeAll(conn);
      this.conns.delete(conn.id);
    });
  }

  private added(sub: Subscription): void {
    if (sub.stream.kind === 'depthDiff') this.depth.watch(sub.stream.symbol);
    if (sub.stream.kind === 'user') this.users.bind(sub.stream.listenKey, sub.stream.accountId);
  }

  private sweep(): void {
    const now = this.deps.clock.now();
    for (const conn of this.conns.values()) {
      if (now - conn.openedAt >= this.t.maxLifetimeMs) conn.close(CLOSE.lifetime, 'connection lifetime exceeded');
      else if (now - conn.lastActivity >= this.t.idleMs) conn.close(CLOSE.idle, `no ping or message for ${this.t.idleMs} ms`);
    }
    this.users.sweep();
  }

  // ---- operations and faults

  /** Open connections (one being closed is no longer listed). */
  connections(): ConnectionInfo[] {
    return [...this.conns.values()].filter((c) => c.open).map((c) => ({ id: c.id, kind: c.kind, streams: [...c.subs.keys()], openedAt: c.openedAt, lastActivity: c.lastActivity }));
  }

  kill(id: number): boolean {
    const conn = this.conns.get(id);
    conn?.ws.terminate();
    return conn !== undefined;
  }

  dropAll(): void {
    for (const conn of this.conns.values()) conn.ws.terminate();
  }

  setSilent(silent: boolean): void {
    this.gate.silent = silent;
  }

  closeListenKey(listenKey: string): void {
    this.users.closeKey(listenKey);
  }

  async close(): Promise<void> {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    this.realtime.flush();
    this.http.off('upgrade', this.onUpgrade);
    const closed = [...this.conns.values()].map(
      (c) =>
        new Promise<void>((resolve) => {
          c.ws.once('close', () => resolve());
          c.close(CLOSE.shutdown, 'server closing');
        }),
    );
    // A client that never answers the close frame is cut after a short grace (timer unref'd).
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
    this.dropAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
