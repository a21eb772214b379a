/**
 * Control messages of a stream connection and their replies (protocol notes 1): JSON ping/pong,
 * SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS with an echoed unsigned `id`, and the exact error
 * texts. Stream-name checks (invalid name, unknown symbol, the 1024 cap) need the server's state
 * and happen there, with the reply builders below.
 */

export const MAX_STREAMS = 1024;

export type ControlMessage =
  | { type: 'ping'; value: unknown }
  | { type: 'pong' }
  | { type: 'subscribe' | 'unsubscribe'; id: number; params: string[] }
  | { type: 'list'; id: number }
  | { type: 'error'; reply: ErrorReply };

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
    msg = JSON.parse(text);
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
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
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
