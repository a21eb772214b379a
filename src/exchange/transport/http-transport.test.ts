import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { createUndiciTransport, type HttpTransport } from './http-transport.ts';
import { TransportFailure } from './transport-failure.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startServer(handler: Handler): Promise<{ server: Server; base: string; sockets: () => number }> {
  let sockets = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => (sockets += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}`, sockets: () => sockets };
}

function transport(opts: Parameters<typeof createUndiciTransport>[0] = {}): HttpTransport {
  const t = createUndiciTransport({ connections: 1, ...opts });
  cleanups.push(() => t.close());
  return t;
}

async function failure(p: Promise<unknown>): Promise<TransportFailure> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TransportFailure);
  return err as TransportFailure;
}

describe('createUndiciTransport', () => {
  it('sends method, path, query, headers and body; returns status, lower-case headers, body', async () => {
    const { base } = await startServer((req, res, body) => {
      res.setHeader('X-Echo-Method', req.method ?? '');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ url: req.url, key: req.headers['x-service-apikey'], ct: req.headers['content-type'], body }));
    });
    const t = transport();
    const res = await t.send({
      method: 'POST',
      url: `${base}/openapi/v1/order?symbol=BTCPHP&email=a%40b.c`,
      headers: { 'X-SERVICE-APIKEY': 'key', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'quantity=1&signature=ab',
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-echo-method']).toBe('POST');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    expect(JSON.parse(res.body)).toEqual({
      url: '/openapi/v1/order?symbol=BTCPHP&email=a%40b.c',
      key: 'key',
      ct: 'application/x-www-form-urlencoded',
      body: 'quantity=1&signature=ab',
    });
  });

  it('reuses one keep-alive connection and resolves paths against baseUrl', async () => {
    const { base, sockets } = await startServer((_req, res) => res.end('{}'));
    const t = transport({ baseUrl: base });
    for (let i = 0; i < 5; i++) {
      const res = await t.send({ method: 'GET', url: '/openapi/v1/ping', headers: {} });
      expect(res.body).toBe('{}');
    }
    expect(sockets()).toBe(1);
  });

  it('passes non-2xx answers through as responses', async () => {
    const { base } = await startServer((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html>busy</html>');
    });
    const res = await transport().send({ method: 'GET', url: `${base}/x`, headers: {} });
    expect(res).toMatchObject({ status: 503, body: '<html>busy</html>' });
  });

  it('a request without an answer in time fails with kind timeout', async () => {
    const { base } = await startServer(() => undefined);
    const f = await failure(transport().send({ method: 'POST', url: `${base}/slow`, headers: {}, body: 'a=1', timeoutMs: 100 }));
    expect(f.kind).toBe('timeout');
    expect(f.mayHaveReachedServer).toBe(true);
  });

  it('a body that stalls after the headers also times out', async () => {
    const { base } = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"a":');
    });
    const f = await failure(transport({ requestTimeoutMs: 100 }).send({ method: 'GET', url: `${base}/stall`, headers: {} }));
    expect(f.kind).toBe('timeout');
  });

  it('a closed port fails with kind connect, nothing sent', async () => {
    const { server, base } = await startServer(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const f = await failure(transport().send({ method: 'POST', url: `${base}/order`, headers: {}, body: 'a=1' }));
    expect(f.kind).toBe('connect');
    expect(f.mayHaveReachedServer).toBe(false);
    expect(f.errorCode).toBe('ECONNREFUSED');
  });

  it('a server destroying the socket mid-request fails with kind reset', async () => {
    const { base } = await startServer((req) => req.socket.destroy());
    const f = await failure(transport().send({ method: 'POST', url: `${base}/order`, headers: {}, body: 'a=1' }));
    expect(f.kind).toBe('reset');
    expect(f.mayHaveReachedServer).toBe(true);
  });

  it('a caller abort fails with kind aborted; an already aborted signal sends nothing', async () => {
    const { base } = await startServer(() => undefined);
    const t = transport();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const f = await failure(t.send({ method: 'GET', url: `${base}/x`, headers: {}, signal: ac.signal }));
    expect(f.kind).toBe('aborted');
    const g = await failure(t.send({ method: 'GET', url: `${base}/x`, headers: {}, signal: AbortSignal.abort() }));
    expect(g).toMatchObject({ kind: 'aborted', mayHaveReachedServer: false });
  });

  it('accepts an injected dispatcher (MockAgent)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://venue.test').intercept({ path: '/openapi/v1/time', method: 'GET' }).reply(200, '{"serverTime":1}', {
      headers: { 'content-type': 'application/json' },
    });
    const t = createUndiciTransport({ dispatcher: agent });
    const res = await t.send({ method: 'GET', url: 'https://venue.test/openapi/v1/time', headers: {} });
    expect(res).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"serverTime":1}' });
    await t.close();
    await agent.close();
  });
});
