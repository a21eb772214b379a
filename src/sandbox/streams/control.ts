/**
 * Control messages of a stream connection and their replies (protocol notes 1): JSON ping/pong,
 * SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS with an echoed unsigned `id`, and the exact error
 * texts. Stream-name checks (invalid name, unknown symbol, the 1024 cap) need the server's state
 * and happen there, with the reply builders below.
 */

import { isSafeNumber, parse } from 'lossless-json';

export const MAX_STREAMS = 1024;

/** Largest request id: the venue's ids are unsigned 64-bit integers (inferred from the error text). */
const MAX_ID = 2n ** 64n - 1n;

export type ControlMessage =
  | { type: 'ping'; value: unknown }
  | { type: 'pong' }
  | { type: 'subscribe' | 'unsubscribe'; id: RequestId; params: string[] }
  | { type: 'list'; id: RequestId }
  | { type: 'error'; reply: ErrorReply };

/** A request id; above 2^53 a bigint, so the echo (stringifyWire) is exact. */
export type RequestId = number | bigint;

export type ErrorReply = { code: number; msg: string } | { code: string; desc: string };

const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS'] as const;
const KNOWN_KEYS = new Set(['method', 'params', 'id']);

export const invalidRequest = (reason: string): ErrorReply => ({ code: 2, msg: `Invalid request: ${reason}` });
export const INVALID_JSON: ErrorReply = { code: 3, msg: 'Invalid JSON' };
export const INVALID_SYMBOLS: ErrorReply = { code: '-100010', desc: 'Invalid Symbols!' };
export const invalidStream = (name: string): ErrorReply => invalidRequest(`STREAM [${name}] was invalid.`);
export const TOO_MANY_STREAMS: ErrorReply = invalidRequest(`params must less than or equals ${MAX_STREAMS}`);

export function parseControl(text: string): ControlMessage {
  let msg: unknown;
  try {
    msg = parseJson(text);
  } catch {
    return { type: 'error', reply: INVALID_JSON };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return { type: 'error', reply: INVALID_JSON };
  const o = msg as Record<string, unknown>;
  if ('ping' in o) return { type: 'ping', value: o['ping'] };
  if ('pong' in o && !('method' in o)) return { type: 'pong' };
  if (!('method' in o)) return { type: 'error', reply: invalidRequest('missing field method') };
  const method = o['method'];
  if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method)) {
    const shown = typeof method === 'string' ? method : JSON.stringify(method);
    return { type: 'error', reply: invalidRequest(`unknown variant ${shown}, expected one of ${METHODS.join(', ')}`) };
  }
  if (Object.keys(o).some((k) => !KNOWN_KEYS.has(k))) return { type: 'error', reply: invalidRequest('too many parameters') };
  const id = o['id'];
  if (!isRequestId(id)) {
    return { type: 'error', reply: invalidRequest('request ID must be an unsigned integer') };
  }
  const params = o['params'];
  if (method === 'LIST_SUBSCRIPTIONS') {
    if (params !== undefined && !(Array.isArray(params) && params.length === 0)) {
      return { type: 'error', reply: invalidRequest('too many parameters') };
    }
    return { type: 'list', id };
  }
  if (!Array.isArray(params) || params.some((p) => typeof p !== 'string')) {
    return { type: 'error', reply: invalidRequest('property name must be a string') };
  }
  if (params.length > MAX_STREAMS) return { type: 'error', reply: TOO_MANY_STREAMS };
  return { type: method === 'SUBSCRIBE' ? 'subscribe' : 'unsubscribe', id, params: params as string[] };
}

/**
 * JSON.parse, except that integer literals a double cannot hold become bigints (a request id
 * such as 18446744073709551615 must be echoed as sent). Texts without a 16-digit run take the fast path.
 */
function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as unknown;
  return parse(text, null, (literal) => (/^\d+$/.test(literal) && !isSafeNumber(literal) ? BigInt(literal) : Number(literal)));
}

function isRequestId(id: unknown): id is RequestId {
  if (typeof id === 'bigint') return id >= 0n && id <= MAX_ID;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}
