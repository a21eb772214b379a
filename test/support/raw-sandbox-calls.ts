/**
 * Raw calls to a running sandbox for the bad-input tests: bytes exactly as a careless or hostile
 * client would send them, signed where the endpoint needs it (HMAC form and JSON, protocol notes
 * 2.1-2.2; merchant, notes 2.3), and the answer read as text and JSON without judging it.
 */
import { hmacSha256Hex } from '../../src/exchange/signing/hmac.ts';
import type { SandboxHandle } from '../../src/sandbox/server.ts';

export interface RawAnswer {
  status: number;
  text: string;
  /** The JSON body, or undefined when the body is not JSON. */
  body: Record<string, unknown> | undefined;
}

export async function rawCall(url: string, init: RequestInit = {}): Promise<RawAnswer> {
  const r = await fetch(url, init);
  const text = await r.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  return { status: r.status, text, body };
}

/** A signed HMAC call with every parameter in a form body (`form`, sent as is: keys may repeat). */
export function signedForm(s: SandboxHandle, method: string, path: string, form: string, key = { apiKey: s.apiKey, secret: s.apiSecret }): Promise<RawAnswer> {
  const text = `${form}${form === '' ? '' : '&'}timestamp=${s.clock.now()}`;
  const body = `${text}&signature=${hmacSha256Hex(key.secret, text)}`;
  return rawCall(`${s.baseUrl}${path}`, { method, headers: { 'X-SERVICE-APIKEY': key.apiKey, 'content-type': 'application/x-www-form-urlencoded' }, body });
}

/** A signed HMAC call with every parameter in the query string. */
export function signedQuery(s: SandboxHandle, method: string, path: string, query: string): Promise<RawAnswer> {
  const text = `${query}${query === '' ? '' : '&'}timestamp=${s.clock.now()}`;
  return rawCall(`${s.baseUrl}${path}?${text}&signature=${hmacSha256Hex(s.apiSecret, text)}`, { method, headers: { 'X-SERVICE-APIKEY': s.apiKey } });
}

/** A signed JSON-body call (fiat, notes 2.2): signature and timestamp in headers. */
export function signedJson(s: SandboxHandle, method: string, path: string, json: string): Promise<RawAnswer> {
  return rawCall(`${s.baseUrl}${path}`, {
    method,
    headers: { 'X-SERVICE-APIKEY': s.apiKey, 'content-type': 'application/json', timestamp: String(s.clock.now()), signature: hmacSha256Hex(s.apiSecret, json) },
    body: json,
  });
}

/** A merchant call (notes 2.3) with a raw body (JSON or form text); a GET sends `body` as its query. */
export function merchantCall(s: SandboxHandle, key: { apiKey: string; secret: string }, path: string, body: string, contentType = 'application/json', method = 'POST'): Promise<RawAnswer> {
  const ts = String(s.clock.now());
  const get = method === 'GET';
  const tail = get ? (body === '' ? '' : `?${body}`) : body;
  const headers = { 'X-Merchant-Key': key.apiKey, 'X-Merchant-Sign': hmacSha256Hex(key.secret, ts + s.baseUrl + path + tail), 'X-Timestamp': ts };
  if (get) return rawCall(`${s.baseUrl}${path}${tail}`, { method, headers });
  return rawCall(`${s.baseUrl}${path}`, { method, headers: { ...headers, 'content-type': contentType }, body });
}
