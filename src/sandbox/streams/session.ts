/**
 * What a connection's control messages do (protocol notes 1): resolve stream names (market stream,
 * unknown symbol, or a live listen key as stream name), and apply SUBSCRIBE / UNSUBSCRIBE /
 * LIST_SUBSCRIPTIONS. A request is all or nothing: the first bad name answers its error and nothing
 * of that request is applied.
 */
import type { StreamConnection, Subscription, SubscriptionIndex } from './connection.ts';
import { INVALID_SYMBOLS, MAX_STREAMS, TOO_MANY_STREAMS, invalidStream, parseControl, type ErrorReply } from './control.ts';
import { parseStreamName, streamSymbol } from './names.ts';

export interface SessionContext {
  index: SubscriptionIndex;
  isSymbol(symbol: string): boolean;
  /** Account of a live listen key. */
  accountOf(listenKey: string): string | undefined;
  /** A subscription was added (start tracking what it needs). */
  added(sub: Subscription): void;
}

export type Resolved = { ok: true; sub: Subscription } | { ok: false; reply: ErrorReply };

export function resolveName(raw: string, ctx: SessionContext): Resolved {
  const parsed = parseStreamName(raw);
  if (parsed.ok) {
    const symbol = streamSymbol(parsed.stream);
    if (symbol !== undefined && !ctx.isSymbol(symbol)) return { ok: false, reply: INVALID_SYMBOLS };
    return { ok: true, sub: { name: parsed.name, stream: parsed.stream } };
  }
  const accountId = ctx.accountOf(raw);
  if (accountId !== undefined) return { ok: true, sub: { name: raw, stream: { kind: 'user', listenKey: raw, accountId } } };
  return { ok: false, reply: invalidStream(raw) };
}

/** Resolve every name, or the first error; also enforces the per-connection cap. */
export function resolveAll(names: readonly string[], already: ReadonlyMap<string, Subscription>, ctx: SessionContext): { ok: true; subs: Subscription[] } | { ok: false; reply: ErrorReply } {
  const subs: Subscription[] = [];
  for (const raw of names) {
    const r = resolveName(raw, ctx);
    if (!r.ok) return r;
    if (!subs.some((s) => s.name === r.sub.name)) subs.push(r.sub);
  }
  const fresh = subs.filter((s) => !already.has(s.name)).length;
  if (already.size + fresh > MAX_STREAMS) return { ok: false, reply: TOO_MANY_STREAMS };
  return { ok: true, subs };
}

export function subscribe(conn: StreamConnection, subs: readonly Subscription[], ctx: SessionContext): void {
  for (const sub of subs) {
    if (conn.subs.has(sub.name)) continue;
    ctx.index.add(conn, sub);
    ctx.added(sub);
  }
}

/** Handle one text frame; answers on the connection. */
export function handleMessage(conn: StreamConnection, text: string, ctx: SessionContext): void {
  const msg = parseControl(text);
  switch (msg.type) {
    case 'ping':
      conn.sendJson({ pong: msg.value });
      return;
    case 'pong':
      return;
    case 'error':
      conn.sendJson(msg.reply);
      return;
    case 'list':
      conn.sendJson({ result: [...conn.subs.keys()], id: msg.id });
      return;
    case 'subscribe': {
      const r = resolveAll(msg.params, conn.subs, ctx);
      if (!r.ok) return conn.sendJson(r.reply);
      subscribe(conn, r.subs, ctx);
      conn.sendJson({ result: null, id: msg.id });
      return;
    }
    case 'unsubscribe': {
      const names: string[] = [];
      for (const raw of msg.params) {
        const parsed = parseStreamName(raw);
        if (parsed.ok) names.push(parsed.name);
        else if (conn.subs.has(raw) || ctx.accountOf(raw) !== undefined) names.push(raw);
        else return conn.sendJson(invalidStream(raw));
      }
      for (const name of names) ctx.index.remove(conn, name);
      conn.sendJson({ result: null, id: msg.id });
      return;
    }
  }
}
