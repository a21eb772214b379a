/**
 * One stream socket and its subscriptions. Events are written bare on raw and user paths and
 * wrapped `{"stream":..,"data":..}` on the combined path (protocol notes 1). The payload is
 * serialised once per event by the caller and only wrapped here.
 */
import { WebSocket } from 'ws';
import { stringifyWire } from '../wire-json.ts';
import type { MarketStream } from './names.ts';
import type { ConnectionKind } from './paths.ts';

export type UserStream = { kind: 'user'; listenKey: string; accountId: string };

export interface Subscription {
  name: string;
  stream: MarketStream | UserStream;
  /** Push state of periodic streams for this subscriber (klines: the period of the last push tick). */
  lastSig?: string | undefined;
  lastOpen?: number | undefined;
}

/** Shared switch of the `setSilent` fault: nothing at all is written while it is on. */
export interface SilenceGate {
  silent: boolean;
}

export class StreamConnection {
  /** Subscriptions in the order they were made (LIST_SUBSCRIPTIONS answers in that order). */
  readonly subs = new Map<string, Subscription>();
  lastActivity: number;

  constructor(
    readonly id: number,
    readonly ws: WebSocket,
    readonly kind: ConnectionKind,
    readonly openedAt: number,
    private readonly gate: SilenceGate,
  ) {
    this.lastActivity = openedAt;
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Write one event of `stream`, whose payload is already serialised. */
  sendEvent(stream: string, payloadText: string): void {
    if (this.kind === 'combined') this.sendText(`{"stream":${JSON.stringify(stream)},"data":${payloadText}}`);
    else this.sendText(payloadText);
  }

  sendJson(value: unknown): void {
    this.sendText(stringifyWire(value));
  }

  private sendText(text: string): void {
    if (this.gate.silent || !this.open) return;
    this.ws.send(text);
  }

  /** Close with a code and a reason the client can log (reasons are capped at 123 bytes). */
  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.CLOSED || this.ws.readyState === WebSocket.CLOSING) return;
    this.ws.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }
}

/** Which connections subscribe to which stream name. */
export class SubscriptionIndex {
  private readonly byName = new Map<string, Map<StreamConnection, Subscription>>();

  add(conn: StreamConnection, sub: Subscription): void {
    conn.subs.set(sub.name, sub);
    let m = this.byName.get(sub.name);
    if (!m) this.byName.set(sub.name, (m = new Map()));
    m.set(conn, sub);
  }

  remove(conn: StreamConnection, name: string): Subscription | undefined {
    const sub = conn.subs.get(name);
    conn.subs.delete(name);
    const m = this.byName.get(name);
    m?.delete(conn);
    if (m?.size === 0) this.byName.delete(name);
    return sub;
  }

  removeAll(conn: StreamConnection): Subscription[] {
    return [...conn.subs.keys()].map((name) => this.remove(conn, name)).filter((s): s is Subscription => s !== undefined);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  subscribers(name: string): ReadonlyMap<StreamConnection, Subscription> | undefined {
    return this.byName.get(name);
  }

  /** Stream names with at least one subscriber, with their subscribers. */
  entries(): IterableIterator<[string, Map<StreamConnection, Subscription>]> {
    return this.byName.entries();
  }

  /** Send one payload to every subscriber of `name`. */
  broadcast(name: string, payload: unknown): void {
    const m = this.byName.get(name);
    if (!m) return;
    const text = stringifyWire(payload);
    for (const conn of m.keys()) conn.sendEvent(name, text);
  }
}
