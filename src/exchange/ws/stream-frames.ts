/**
 * What an inbound text frame is (protocol notes 1, 4, 5.1). Parsed losslessly: integers a double
 * cannot hold (executionReport `i`, trade ids) arrive as decimal strings, never rounded.
 *
 *   {"pong":<ms>}                         answer to our JSON ping
 *   {"ping":<ms>}                         a JSON ping from the server (answered with its pong)
 *   {"result":...,"id":n}                 reply to SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS
 *   {"code":2|3,"msg"} / {"code":"-100010","desc"}   error reply (no id: it answers the oldest request)
 *   {"stream":"<name>","data":<event>}    combined-path event (also user events subscribed by key)
 *   {"e":...} / bookTicker {u,s,b,a,...} / [..]      bare event (raw and user paths; `!…@arr` is an array)
 * Anything else is `invalid` with the reason; the connection reports it and keeps running.
 */
import type WebSocket from 'ws';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { StreamRequestError } from './stream-errors.ts';

export type InboundFrame =
  | { kind: 'pong'; value: unknown }
  | { kind: 'ping'; value: unknown }
  | { kind: 'reply'; id: number | string; result: unknown }
  | { kind: 'error'; error: StreamRequestError }
  | { kind: 'event'; stream: string | undefined; data: unknown }
  | { kind: 'invalid'; reason: string };

export function classifyFrame(text: string): InboundFrame {
  let value: unknown;
  try {
    value = parseJsonLossless(text);
  } catch (err) {
    return { kind: 'invalid', reason: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (Array.isArray(value)) return { kind: 'event', stream: undefined, data: value };
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', reason: `not a JSON object or array but ${value === null ? 'null' : typeof value}` };
  const o = value as Record<string, unknown>;
  if ('pong' in o) return { kind: 'pong', value: o['pong'] };
  if ('ping' in o) return { kind: 'ping', value: o['ping'] };
  if ('id' in o && 'result' in o) {
    const id = o['id'];
    if (typeof id === 'number' || typeof id === 'string') return { kind: 'reply', id, result: o['result'] };
    return { kind: 'invalid', reason: `a reply whose id is ${JSON.stringify(id)}, not an unsigned integer` };
  }
  if ('code' in o && ('msg' in o || 'desc' in o)) {
    const code = o['code'];
    const text = o['msg'] ?? o['desc'];
    if ((typeof code === 'number' || typeof code === 'string') && typeof text === 'string') return { kind: 'error', error: new StreamRequestError(code, text) };
    return { kind: 'invalid', reason: 'an error reply whose code or msg/desc has the wrong type' };
  }
  if (typeof o['stream'] === 'string' && 'data' in o) {
    const data = o['data'];
    if (typeof data === 'object' && data !== null) return { kind: 'event', stream: o['stream'], data };
    return { kind: 'invalid', reason: `stream ${o['stream']}: data is ${data === null ? 'null' : typeof data}, not an event` };
  }
  if (typeof o['e'] === 'string' || isBookTicker(o)) return { kind: 'event', stream: undefined, data: o };
  return { kind: 'invalid', reason: 'not a stream frame (no pong, result/id, code, stream/data or event type e)' };
}

/** bookTicker events carry no `e` (notes 4): `{u, s, b, B, a, A}`. */
function isBookTicker(o: Record<string, unknown>): boolean {
  return 'u' in o && typeof o['s'] === 'string' && 'b' in o && 'a' in o;
}

/** A frame's text for an error report: capped, so a huge bad frame does not flood the log. */
export function excerpt(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** Bytes in a frame as `ws` hands it over (a Buffer, an ArrayBuffer or fragments). */
export function rawLength(data: WebSocket.RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}
