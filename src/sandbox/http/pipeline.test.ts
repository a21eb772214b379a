/** The pipeline over real HTTP on 127.0.0.1: faults, internal errors, 501s, admin availability. */
import { afterEach, describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import { createLogger } from '../../log/logger.ts';
import { FakeBalances } from '../accounts/fake-balances.ts';
import { startSandbox, type SandboxHandle, type StartSandboxOptions } from '../server.ts';

const open: SandboxHandle[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function start(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const s = await startSandbox({ balances: new FakeBalances(), ...options });
  open.push(s);
  return s;
}

const get = async (s: SandboxHandle, path: string, init: RequestInit = {}) => {
  const r = await fetch(s.baseUrl + path, init);
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as Record<string, unknown> };
};
const keyHeader = (s: SandboxHandle) => ({ 'X-SERVICE-APIKEY': s.apiKey });

describe('pipeline faults', () => {
  it('error-before answers 5xx and commits nothing; error-after commits and still answers 5xx', async () => {
    const s = await start();
    const accountId = s.accounts.getKey(s.apiKey)!.accountId;
    s.faults.add({ kind: 'error-before', endpoint: 'userStream.startUserDataStream', count: 1 });
    const before = await get(s, '/openapi/v1/userDataStream', { method: 'POST', headers: keyHeader(s) });
    expect(before).toMatchObject({ status: 503, body: { code: -1001 } });
    expect(s.listenKeys.active(s.clock.now())).toEqual([]);
    s.faults.add({ kind: 'error-after', endpoint: 'userStream.startUserDataStream', count: 1, status: 502 });
    const after = await get(s, '/openapi/v1/userDataStream', { method: 'POST', headers: keyHeader(s) });
    expect(after.status).toBe(502);
    expect(s.listenKeys.active(s.clock.now())).toEqual([expect.objectContaining({ accountId })]);
    expect((await get(s, '/openapi/v1/userDataStream', { method: 'POST', headers: keyHeader(s) })).status).toBe(200);
  });

  it('delays, forces 429/418, and hangs until the socket is destroyed', async () => {
    const slept: number[] = [];
    const s = await start({ sleep: async (ms) => void slept.push(ms) });
    s.faults.add({ kind: 'delay', delayMs: 250, count: 1 });
    expect((await get(s, '/openapi/v1/ping')).status).toBe(200);
    expect(slept).toEqual([250]);
    s.faults.add({ kind: 'rate-limit', retryAfterSeconds: 7, count: 1 });
    expect(await get(s, '/openapi/v1/ping')).toMatchObject({ status: 429, retryAfter: '7', body: { code: -1003 } });
    s.faults.add({ kind: 'ban', endpoint: 'general.time', count: 1 });
    expect(await get(s, '/openapi/v1/time')).toMatchObject({ status: 418, retryAfter: '120' });
    s.faults.add({ kind: 'hang', delayMs: 50, count: 1 });
    await expect(fetch(`${s.baseUrl}/openapi/v1/ping`)).rejects.toThrow();
    expect((await get(s, '/openapi/v1/ping')).status).toBe(200);
  });

  it('clock-skew moves only the timestamp check (-1021), not the reported time', async () => {
    const s = await start();
    s.faults.add({ kind: 'clock-skew', skewMs: 30_000, count: 1 });
    const q = `timestamp=${s.clock.now()}`;
    const url = `/openapi/v1/api-keys?${q}&signature=${hmacSha256Hex(s.apiSecret, q)}`;
    expect((await get(s, url, { headers: keyHeader(s) })).body).toMatchObject({ code: -1021 });
    expect((await get(s, url, { headers: keyHeader(s) })).status).toBe(200);
  });

  it('close() completes with a request left hanging', async () => {
    const s = await startSandbox();
    s.faults.add({ kind: 'hang' });
    const arrived = new Promise((r) => s.httpServer.once('request', r));
    const pending = fetch(`${s.baseUrl}/openapi/v1/ping`).catch((e: unknown) => e);
    // Close once the request is in (a fixed wait lost the race on a loaded machine: 503 from fastify's closing).
    await arrived;
    await new Promise((r) => setTimeout(r, 30));
    await s.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('pipeline answers', () => {
  it('answers 501 for endpoints without a handler, 500 -1000 for a handler that throws', async () => {
    const logged: string[] = [];
    const logger = createLogger({ level: 'error' }, { write: (line: string) => void logged.push(line) });
    // An empty plugin named 'market' replaces the built-in one, leaving market.* without handlers.
    const s = await start({ logger, plugins: [{ name: 'market' }], handlers: { 'market.pairs': () => { throw new Error('boom at secret place'); } } });
    expect(await get(s, '/openapi/quote/v1/depth?symbol=BTCPHP')).toEqual({
      status: 501,
      retryAfter: null,
      body: { code: -1000, msg: 'market.depth is not implemented by the sandbox' },
    });
    const r = await get(s, '/openapi/v1/pairs');
    expect(r).toMatchObject({ status: 500, body: { code: -1000, msg: 'An unknown error occurred while processing the request.' } });
    expect(JSON.stringify(r.body)).not.toContain('boom');
    expect(logged.join('')).toContain('boom at secret place');
  });

  it('writes bigint ids as bare JSON numbers', async () => {
    const s = await start({ plugins: [{ name: 'market' }], handlers: { 'market.pairs': () => [{ id: 1375445991893797391n }] } });
    const text = await (await fetch(`${s.baseUrl}/openapi/v1/pairs`)).text();
    expect(text).toBe('[{"id":1375445991893797391}]');
  });

  it('serves the admin API only when enabled', async () => {
    const off = await start();
    expect((await get(off, '/sandbox-admin/v1/clock')).status).toBe(404);
    const on = await start({ config: { admin: { enabled: true, prefix: '/adm' } } });
    expect((await get(on, '/adm/clock')).body).toMatchObject({ speed: 1 });
    expect((await get(on, '/adm/nope')).status).toBe(404);
  });

  it('refuses a second handler for one endpoint and unknown endpoint ids', async () => {
    const s = await start();
    expect(() => s.registerHandlers({ 'general.ping': () => ({}) })).toThrow(/already has a handler/);
    expect(() => s.registerHandlers({ 'general.nope': () => ({}) })).toThrow(/not an endpoint id/);
  });
});
