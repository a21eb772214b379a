/**
 * Contract of every endpoint (issue acceptance): for each row of the table, the client sends the
 * documented request over real HTTP (method, path, where each parameter goes, headers, a valid
 * signature checked by an independent HMAC here) and decodes the documented response.
 */
import { createHmac } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { allEndpoints } from '../src/exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../src/exchange/endpoints/types.ts';
import { startCaptureServer, type CaptureServer, type CapturedRequest } from './support/capture-server.ts';

// The official test vector credentials (protocol notes 3).
const API_KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const MERCHANT_KEY = 'merchant-key-1';
const MERCHANT_SECRET = 'merchant-secret-1';

const hmac = (secret: string, message: string) => createHmac('sha256', secret).update(message).digest('hex');

let server: CaptureServer;
let handle: ClientHandle;
let current: AnyEndpoint | undefined;

beforeAll(async () => {
  server = await startCaptureServer((req) => {
    if (req.path === '/openapi/v1/time' && current?.id !== 'general.time') return { body: { serverTime: Date.now() } };
    return { body: current?.example.response ?? {} };
  });
  handle = createClient({
    baseUrl: server.baseUrl,
    exchange: parseConfig({}).exchange,
    secrets: { apiKey: API_KEY, apiSecret: SECRET, merchantKey: MERCHANT_KEY, merchantSecret: MERCHANT_SECRET },
  });
});

afterAll(async () => {
  await handle.close();
  await server.close();
});

/** Expected path: placeholders filled from the example, optional ones dropped when absent. */
function expectedPath(def: AnyEndpoint): string {
  const params = def.example.params as Record<string, unknown>;
  return def.path.replace(/\/\{(\w+)(\?)?\}/g, (_m, name: string) =>
    params[name] === undefined ? '' : `/${encodeURIComponent(String(params[name]))}`,
  );
}

function sameValue(def: AnyEndpoint, name: string, sent: unknown, expected: unknown): boolean {
  const kind = def.params[name]?.kind;
  if (kind === 'DECIMAL') return new Decimal(String(sent)).eq(new Decimal(String(expected)));
  if (kind === 'LIST') return JSON.stringify(typeof sent === 'string' ? JSON.parse(sent) : sent) === JSON.stringify(expected);
  if (kind === 'JSON') return JSON.stringify(typeof sent === 'string' ? JSON.parse(sent) : sent) === JSON.stringify(expected);
  return String(sent) === String(expected);
}

function checkSignature(def: AnyEndpoint, req: CapturedRequest): void {
  switch (def.security) {
    case 'TRADE':
    case 'USER_DATA': {
      expect(req.headers['x-service-apikey']).toBe(API_KEY);
      if (req.headers['signature']) {
        // JSON body scheme: signature over raw query + raw body, timestamp as a header.
        expect(req.headers['signature']).toBe(hmac(SECRET, req.rawQuery + req.body));
        expect(Number(req.headers['timestamp'])).toBeGreaterThan(0);
        return;
      }
      const signedPart = req.body || req.rawQuery;
      const match = /(?:^|&)signature=([0-9a-f]{64})$/.exec(signedPart);
      expect(match, `${def.id}: signature at the end of the signed part`).not.toBeNull();
      const unsigned = signedPart.slice(0, match!.index);
      const message = req.body ? req.rawQuery + unsigned : unsigned;
      expect(match![1]).toBe(hmac(SECRET, message));
      expect(new URLSearchParams(unsigned).get('timestamp')).toMatch(/^\d{13}$/);
      expect(new URLSearchParams(unsigned).get('recvWindow')).toBe('5000');
      return;
    }
    case 'USER_STREAM':
    case 'MARKET_DATA':
      expect(req.headers['x-service-apikey']).toBe(API_KEY);
      return;
    case 'NONE':
      expect(req.headers['x-service-apikey']).toBeUndefined();
      return;
    case 'MERCHANT': {
      expect(req.headers['x-merchant-key']).toBe(MERCHANT_KEY);
      const stamp = String(req.headers['x-timestamp']);
      const url = `${server.baseUrl}${req.path}${req.rawQuery ? `?${decodeURIComponent(req.rawQuery)}` : ''}`;
      expect(req.headers['x-merchant-sign']).toBe(hmac(MERCHANT_SECRET, stamp + url + req.body));
      return;
    }
    case 'LEGACY_V4': {
      expect(req.headers['access-key']).toBe(API_KEY);
      const nonce = String(req.headers['access-nonce']);
      expect(nonce).toMatch(/^\d{10}$/);
      const url = `${server.baseUrl}${req.path}${req.rawQuery ? `?${decodeURIComponent(req.rawQuery)}` : ''}`;
      expect(req.headers['access-signature']).toBe(hmac(SECRET, nonce + url + req.body));
      return;
    }
  }
}

function checkPlacement(def: AnyEndpoint, req: CapturedRequest): void {
  const params = def.example.params as Record<string, unknown>;
  const query = new URLSearchParams(req.rawQuery);
  const isJson = String(req.headers['content-type'] ?? '').includes('json');
  const form = !isJson && req.body ? new URLSearchParams(req.body) : undefined;
  const json = isJson && req.body ? (JSON.parse(req.body) as Record<string, unknown>) : undefined;
  const where = def.method === 'GET' || def.encoding === 'query' ? 'query' : def.encoding;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || def.params[name]?.options.inPath) continue;
    const sent = where === 'query' ? query.get(name) : where === 'form' ? form?.get(name) : json?.[name];
    expect(sent, `${def.id}: parameter ${name} sent in the ${where}`).not.toBeUndefined();
    expect(sent, `${def.id}: parameter ${name} sent in the ${where}`).not.toBeNull();
    expect(sameValue(def, name, sent, value), `${def.id}: ${name} = ${String(sent)}, expected ${JSON.stringify(value)}`).toBe(true);
    if (where !== 'query') expect(query.has(name), `${def.id}: ${name} not duplicated in the query`).toBe(false);
  }
  if (where === 'form' && req.body) expect(req.headers['content-type']).toContain('application/x-www-form-urlencoded');
  if (where === 'json' && req.body) expect(req.headers['content-type']).toContain('application/json');
}

describe('client contract, every endpoint over HTTP', () => {
  it.each(allEndpoints.map((e) => [e.id, e] as const))('%s', async (_id, def) => {
    current = def;
    const before = server.requests.length;
    const result = await handle.client.rest.call(def, def.example.params);
    const sent = server.requests.slice(before).filter((r) => r.path !== '/openapi/v1/time' || def.id === 'general.time');
    expect(sent).toHaveLength(1);
    const req = sent[0]!;
    expect(req.method).toBe(def.method);
    expect(req.path).toBe(expectedPath(def));
    checkSignature(def, req);
    checkPlacement(def, req);
    expect(result).toEqual(def.response.parse(def.example.response));
  });
});
