/**
 * Turns an endpoint row and checked parameters into the exact HTTP request (spec 1.5-1.6, 5.2-5.4,
 * protocol notes 2). The signature is computed over the very bytes that are sent: the query and
 * body are encoded once, signed, and never re-serialised.
 */
import type { AnyEndpoint } from '../endpoints/types.ts';
import { hmacSha256Hex } from '../signing/hmac.ts';
import { encodeParams } from '../signing/query-signing.ts';
import { merchantTimestamp, signMerchant, unencodedForm } from '../signing/merchant.ts';
import { signLegacyV4 } from '../signing/legacy-v4.ts';

export interface ApiCredentials {
  apiKey: string;
  apiSecret: string;
}

export interface MerchantCredentials {
  merchantKey: string;
  merchantSecret: string;
  /** Notes 2.3: documented in seconds, sent as ms in practice. */
  timestampUnit: 'ms' | 'seconds';
  /** Spec: JSON body; the official request collection sends form text. */
  bodyEncoding: 'json' | 'form';
}

export interface BuildContext {
  baseUrl: string;
  apiKeyHeader: string;
  credentials?: ApiCredentials | undefined;
  merchant?: MerchantCredentials | undefined;
  legacy?: ApiCredentials | undefined;
  recvWindow: number;
  /** Server-aligned ms, stamped as the request leaves. */
  timestamp: number;
  traceId?: string | undefined;
}

export interface BuiltRequest {
  method: AnyEndpoint['method'];
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export class MissingCredentialsError extends Error {
  constructor(endpoint: string, what: string, variables = 'HALYARD_API_KEY and HALYARD_API_SECRET') {
    // Secrets come only from the environment (src/config/load.ts), or createClient's `secrets` in code.
    super(`${endpoint} needs ${what}; set ${variables} in the environment (in code: createClient's secrets)`);
    this.name = 'MissingCredentialsError';
  }
}

/** The configured window, capped where the endpoint accepts less (spec 4.9 asset history: under 60000). */
export function recvWindowFor(def: AnyEndpoint, configured: number): number {
  const max = def.recvWindow?.max;
  return max !== undefined && configured > max ? max : configured;
}

/** Substitute `{name}` and `{name?}` placeholders; path parameters leave the parameter list. */
export function resolvePath(path: string, wire: [string, string][]): { path: string; rest: [string, string][] } {
  const used = new Set<string>();
  const resolved = path.replace(/\/\{(\w+)(\?)?\}/g, (_m, name: string, optional?: string) => {
    const entry = wire.find(([k]) => k === name);
    if (!entry) {
      if (optional) return '';
      throw new Error(`path parameter '${name}' is required`);
    }
    used.add(name);
    return `/${encodeURIComponent(entry[1])}`;
  });
  return { path: resolved, rest: wire.filter(([k]) => !used.has(k)) };
}

/** Values for a JSON body: wire text for scalars, structured values for JSON and LIST kinds. */
function jsonBody(def: AnyEndpoint, rest: [string, string][], values: Record<string, unknown>): string {
  const body: Record<string, unknown> = {};
  for (const [name, text] of rest) {
    const kind = def.params[name]?.kind;
    body[name] = kind === 'JSON' ? values[name] : text;
  }
  return JSON.stringify(body);
}

export function buildRequest(
  def: AnyEndpoint,
  wire: [string, string][],
  values: Record<string, unknown>,
  ctx: BuildContext,
): BuiltRequest {
  const { path, rest } = resolvePath(def.path, wire);
  const base = ctx.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = {};
  const inQuery = def.method === 'GET' || def.encoding === 'query';

  switch (def.security) {
    case 'NONE':
    case 'USER_STREAM':
    case 'MARKET_DATA': {
      if (def.security !== 'NONE') {
        if (!ctx.credentials) throw new MissingCredentialsError(def.id, 'an API key', 'HALYARD_API_KEY');
        headers[ctx.apiKeyHeader] = ctx.credentials.apiKey;
      }
      return plain(def, base + path, rest, headers, inQuery);
    }
    case 'TRADE':
    case 'USER_DATA': {
      const creds = ctx.credentials;
      if (!creds) throw new MissingCredentialsError(def.id, 'an API key and secret');
      headers[ctx.apiKeyHeader] = creds.apiKey;
      const timing: [string, string][] = [
        ['recvWindow', String(recvWindowFor(def, ctx.recvWindow))],
        ['timestamp', String(ctx.timestamp)],
      ];
      if (def.encoding === 'json' && def.method !== 'GET') {
        // Spec 5.2.4 / notes 2.2: raw query + raw JSON bytes; key, signature and timestamp as headers.
        const query = encodeParams([timing[0]!]);
        const body = jsonBody(def, rest, values);
        headers['signature'] = hmacSha256Hex(creds.apiSecret, query + body);
        headers['timestamp'] = String(ctx.timestamp);
        headers['content-type'] = 'application/json';
        return { method: def.method, url: `${base}${path}?${query}`, headers, body };
      }
      const text = encodeParams([...rest, ...timing]);
      const signature = hmacSha256Hex(creds.apiSecret, text);
      const signed = `${text}&signature=${signature}`;
      if (inQuery) return { method: def.method, url: `${base}${path}?${signed}`, headers };
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return { method: def.method, url: base + path, headers, body: signed };
    }
    case 'MERCHANT': {
      const m = ctx.merchant;
      if (!m) throw new MissingCredentialsError(def.id, 'a merchant key and secret', 'HALYARD_MERCHANT_KEY and HALYARD_MERCHANT_SECRET');
      const url = base + path;
      let body: string | undefined;
      let signedBody: string | undefined;
      if (!inQuery) {
        body = m.bodyEncoding === 'json' ? jsonBody(def, rest, values) : encodeParams(rest);
        // Notes 2.3: the form body is signed as unencoded text; a JSON body as the raw bytes sent.
        signedBody = m.bodyEncoding === 'json' ? body : unencodedForm(rest);
        headers['content-type'] = m.bodyEncoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
      }
      Object.assign(
        headers,
        signMerchant({
          merchantKey: m.merchantKey,
          secret: m.merchantSecret,
          timestamp: merchantTimestamp(ctx.timestamp, m.timestampUnit),
          url,
          query: inQuery ? unencodedForm(rest) : undefined,
          body: signedBody,
          traceId: ctx.traceId,
        }),
      );
      const sentUrl = inQuery && rest.length ? `${url}?${encodeParams(rest)}` : url;
      return body === undefined ? { method: def.method, url: sentUrl, headers } : { method: def.method, url: sentUrl, headers, body };
    }
    case 'LEGACY_V4': {
      const creds = ctx.legacy ?? ctx.credentials;
      if (!creds) throw new MissingCredentialsError(def.id, 'an API key and secret');
      const url = base + path;
      const body = inQuery ? undefined : jsonBody(def, rest, values);
      if (body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(
        headers,
        signLegacyV4({
          apiKey: creds.apiKey,
          secret: creds.apiSecret,
          nowMs: ctx.timestamp,
          url,
          method: def.method,
          query: inQuery ? unencodedForm(rest) : undefined,
          body,
        }),
      );
      const sentUrl = inQuery && rest.length ? `${url}?${encodeParams(rest)}` : url;
      return body === undefined ? { method: def.method, url: sentUrl, headers } : { method: def.method, url: sentUrl, headers, body };
    }
  }
}

function plain(def: AnyEndpoint, url: string, rest: [string, string][], headers: Record<string, string>, inQuery: boolean): BuiltRequest {
  if (rest.length === 0) return { method: def.method, url, headers };
  if (inQuery) return { method: def.method, url: `${url}?${encodeParams(rest)}`, headers };
  if (def.encoding === 'json') {
    headers['content-type'] = 'application/json';
    return { method: def.method, url, headers, body: JSON.stringify(Object.fromEntries(rest)) };
  }
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: def.method, url, headers, body: encodeParams(rest) };
}
