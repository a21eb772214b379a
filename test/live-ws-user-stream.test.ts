/**
 * The user data stream and its listen-key lifecycle end to end (issue 20 deliverable 3; spec 4.7;
 * protocol notes 4.1): the project's client makes, keeps alive and closes the key against the
 * sandbox over real HTTP, the stream runs over a real loopback socket, the client's timers on an
 * RxJS VirtualTimeScheduler and the sandbox on a VirtualClock, both moved by the test.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { Observable } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { RateLimitedError } from '../src/exchange/errors/errors.ts';
import { decodeUserEvent } from '../src/exchange/streams/user-payloads.ts';
import type { ExecutionReport, UserStreamEvent } from '../src/exchange/streams/user-payload-types.ts';
import { seededRandom } from '../src/exchange/ws/backoff.ts';
import type { ConnectionEvent } from '../src/exchange/ws/stream-events.ts';
import type { StreamHealth, StreamNotice } from '../src/exchange/ws/stream-health.ts';
import { settle, until, VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { UserDataStream, type ListenKeyApi, type UserDataStreamOptions } from '../src/exchange/ws/user-data-stream.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
/** Pings out of the way unless a test is about them: the timers under test run alone. */
const QUIET = { pingIntervalMs: 48 * 3_600_000, backoff: { baseMs: 1000, maxMs: 8000 } };

interface Call {
  method: 'POST' | 'PUT' | 'DELETE';
  listenKey?: string;
  at: number;
  outcome?: string;
}

/** The client's listen-key calls, recorded with the virtual time they were made at and how they ended. */
function spied(api: ListenKeyApi, vt: VirtualTime): { api: ListenKeyApi; calls: Call[] } {
  const calls: Call[] = [];
  const track = async <R,>(call: Call, run: () => Promise<R>): Promise<R> => {
    calls.push(call);
    try {
      const r = await run();
      call.outcome = 'ok';
      return r;
    } catch (err) {
      call.outcome = String((err as { venueCode?: unknown }).venueCode ?? err);
      throw err;
    }
  };
  return {
    calls,
    api: {
      startUserDataStream: (p, o) => track({ method: 'POST', at: vt.now() }, () => api.startUserDataStream(p, o)),
      keepaliveUserDataStream: (p, o) => track({ method: 'PUT', listenKey: p.listenKey, at: vt.now() }, () => api.keepaliveUserDataStream(p, o)),
      closeUserDataStream: (p, o) => track({ method: 'DELETE', listenKey: p.listenKey, at: vt.now() }, () => api.closeUserDataStream(p, o)),
    },
  };
}

async function setup(options: { sandbox?: Parameters<typeof startSandbox>[0]; stream?: Partial<UserDataStreamOptions<UserStreamEvent>>; wsUrl?: string } = {}) {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, ...options.sandbox });
  defer(() => s.close());
  const vt = new VirtualTime(T0);
  const client = sandboxClient(s, defer);
  const { api, calls } = spied(client.userStream, vt);
  const stream = new UserDataStream<UserStreamEvent>({
    listenKeys: api,
    wsUrl: options.wsUrl ?? s.wsUrl,
    decode: decodeUserEvent,
    scheduler: vt.scheduler,
    random: seededRandom(3),
    timings: QUIET,
    ...options.stream,
  });
  defer(() => stream.close());
  const health: StreamHealth[] = [];
  const notices: StreamNotice[] = [];
  stream.health$.subscribe((h) => health.push(h));
  stream.notices$.subscribe((n) => notices.push(n));
  return { s, clock, vt, client, stream, calls, health, notices };
}

const states = (health: StreamHealth[]) => health.map((h) => h.state).filter((st, i, all) => i === 0 || all[i - 1] !== st);

/** Start, wait for the first gap, mark it resynced: LIVE. */
async function startLive(stream: UserDataStream<UserStreamEvent>): Promise<void> {
  const gap = until(stream.gaps$, () => true);
  stream.start();
  expect(await gap).toMatchObject({ seq: 1, reason: 'first connection: events before it were not seen' });
  expect(stream.health).toMatchObject({ state: 'RESYNCING', gap: 1 });
  expect(stream.markResynced(1)).toBe(true);
  expect(stream.health.state).toBe('LIVE');
}

/** Polls `pred` between event-loop turns, for what real I/O brings (an HTTP answer), up to 3 s of wall time. */
async function waitFor(pred: () => boolean, wallMs = 3000): Promise<void> {
  const end = performance.now() + wallMs;
  while (!pred()) {
    if (performance.now() > end) throw new Error('waitFor: condition not met within the wall-time bound');
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function activeKeys(s: SandboxHandle): string[] {
  return s.listenKeys.active(s.clock.now()).map((k) => k.listenKey);
}

describe('user data stream (notes 4.1)', () => {
  it('makes a key, opens RESYNCING, LIVE after markResynced; an executionReport keeps its order id above 2^53 exactly', async () => {
    const { s, stream, client, calls, health } = await setup();
    await startLive(stream);
    expect(states(health)).toEqual(['DOWN', 'CONNECTING', 'RESYNCING', 'LIVE']);
    expect(calls.map((c) => [c.method, c.outcome])).toEqual([['POST', 'ok']]);
    expect(activeKeys(s)).toEqual([stream.listenKey]);

    const report = until(stream.events$, (e) => e.eventType === 'executionReport');
    const order = await client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000', newClientOrderId: 'big-id' });
    const er = (await report) as ExecutionReport;
    expect(BigInt(String(order.orderId))).toBeGreaterThan(2n ** 53n);
    expect(er).toMatchObject({ clientOrderId: 'big-id', executionType: 'NEW', orderId: String(order.orderId) });
  });

  it('hands the parsed JSON on when no decoder is given (i as a decimal string)', async () => {
    const { stream, client } = await setup({ stream: { decode: undefined } });
    await startLive(stream);
    const raw = until(stream.events$ as unknown as Observable<Record<string, unknown>>, (e) => e['e'] === 'executionReport');
    const order = await client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    const er = await raw;
    expect(typeof er['i']).toBe('string');
    expect(er['i']).toBe(String(order.orderId));
  });

  it('sends the keepalive PUT every 30 minutes of virtual time', async () => {
    const { s, vt, stream, calls } = await setup();
    await startLive(stream);
    const key = stream.listenKey;
    for (let i = 1; i <= 3; i++) {
      await vt.advance(30 * 60_000);
      await waitFor(() => calls.filter((c) => c.method === 'PUT' && c.outcome !== undefined).length === i);
    }
    expect(calls.map((c) => [c.method, c.at - T0, c.outcome])).toEqual([
      ['POST', 0, 'ok'],
      ['PUT', 30 * 60_000, 'ok'],
      ['PUT', 60 * 60_000, 'ok'],
      ['PUT', 90 * 60_000, 'ok'],
    ]);
    expect(calls.filter((c) => c.method === 'PUT').every((c) => c.listenKey === key)).toBe(true);
    expect(activeKeys(s)).toEqual([key]);
    expect(stream.health.state).toBe('LIVE');
  });

  it('listen-key expiry (admin): the socket closes, a new key is made, reconnect, RESYNCING until markResynced, then LIVE', async () => {
    const { s, clock, vt, stream, calls, health, notices } = await setup({ sandbox: { config: { admin: { enabled: true } } } });
    await startLive(stream);
    const oldKey = stream.listenKey as string;

    const down = until(stream.health$, (h) => h.state === 'DOWN');
    await adminCall(s, 'POST', '/listen-keys/expire', { listenKey: oldKey });
    // The stream server's sweep (every second of sandbox time) closes the dead key's sockets.
    await clock.advance(1000);
    expect(await down).toMatchObject({ reason: 'socket closed (code 4001, listenKey expired)' });

    const gap = until(stream.gaps$, () => true);
    await vt.advance(QUIET.backoff.maxMs);
    expect(await gap).toMatchObject({ seq: 2, reason: 'socket closed (code 4001, listenKey expired)' });
    expect(stream.listenKey).not.toBe(oldKey);
    expect(activeKeys(s)).toEqual([stream.listenKey]);
    expect(calls.map((c) => [c.method, c.outcome])).toEqual([
      ['POST', 'ok'],
      ['PUT', '-1125'],
      ['POST', 'ok'],
    ]);
    expect(notices.map((n) => n.message)).toContain('the listen key is unknown or expired (-1125): making a new one');

    expect(stream.markResynced(1)).toBe(false);
    expect(stream.health).toMatchObject({ state: 'RESYNCING', gap: 2 });
    expect(stream.markResynced(2)).toBe(true);
    expect(states(health)).toEqual(['DOWN', 'CONNECTING', 'RESYNCING', 'LIVE', 'DOWN', 'CONNECTING', 'RESYNCING', 'LIVE']);
  });

  it('a dropped socket (dropAll): the key is checked with a PUT and kept, reconnect, RESYNCING; events after it arrive', async () => {
    const { s, vt, stream, calls, client } = await setup();
    await startLive(stream);
    const key = stream.listenKey;
    const down = until(stream.health$, (h) => h.state === 'DOWN');
    s.services.streams?.dropAll();
    expect((await down).reason).toMatch(/^socket closed \(code 1006/);
    const gap = until(stream.gaps$, () => true);
    await vt.advance(QUIET.backoff.maxMs);
    expect(await gap).toMatchObject({ seq: 2, reason: expect.stringMatching(/^socket closed \(code 1006/) });
    expect(stream.listenKey).toBe(key);
    expect(calls.map((c) => [c.method, c.outcome])).toEqual([
      ['POST', 'ok'],
      ['PUT', 'ok'],
    ]);
    const report = until(stream.events$, (e) => e.eventType === 'executionReport');
    await client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000', newClientOrderId: 'after-gap' });
    expect(await report).toMatchObject({ clientOrderId: 'after-gap' });
    expect(stream.markResynced(2)).toBe(true);
  });

  it('a keepalive answered -1125 replaces the socket at once with a new key', async () => {
    const { s, vt, stream, calls } = await setup({ sandbox: { config: { admin: { enabled: true } } } });
    await startLive(stream);
    const oldKey = stream.listenKey as string;
    // Expired, and the sandbox clock not moved: only the keepalive can find out.
    await adminCall(s, 'POST', '/listen-keys/expire', { listenKey: oldKey });
    const gap = until(stream.gaps$, () => true);
    await vt.advance(30 * 60_000);
    expect(await gap).toMatchObject({ seq: 2, reason: 'listen key expired (-1125 on keepalive)' });
    expect(calls.map((c) => [c.method, c.outcome])).toEqual([
      ['POST', 'ok'],
      ['PUT', '-1125'],
      ['POST', 'ok'],
    ]);
    expect(stream.listenKey).not.toBe(oldKey);
  });

  it('-1026 (key creation limit): DOWN with the reason, waits the floor between tries, recovers when the hour has passed', async () => {
    const { s, clock, vt, stream, calls, health } = await setup({ sandbox: { config: { admin: { enabled: true }, listenKeys: { createsPerHour: 1 } } } });
    const retries: ConnectionEvent[] = [];
    stream.connectionEvents$.subscribe((e) => e.type === 'retrying' && retries.push(e));
    await startLive(stream);
    await adminCall(s, 'POST', '/listen-keys/expire', { listenKey: stream.listenKey as string });
    const closed = until(stream.health$, (h) => h.state === 'DOWN');
    await clock.advance(1000);
    await closed;
    const refused = until(stream.health$, (h) => h.state === 'DOWN' && /-1026|rate limited/.test(h.reason) && /retry/.test(h.reason));
    await vt.advance(QUIET.backoff.maxMs);
    const h = await refused;
    expect(h.reason).toMatch(/could not prepare the connection: .*listen key creation rate limited \(1 per hour\).*; retry \d+ in 300000 ms$/);
    const posts = () => calls.filter((c) => c.method === 'POST');
    expect(posts().map((c) => c.outcome)).toEqual(['ok', '-1026']);

    // Five minutes between tries, not the 8 s back-off ceiling.
    const last = () => retries.at(-1) as Extract<ConnectionEvent, { type: 'retrying' }>;
    expect(last().delayMs).toBe(300_000);
    await vt.advance(last().at + last().delayMs - vt.now() - 1);
    expect(posts()).toHaveLength(2);
    await vt.advance(1);
    await waitFor(() => posts().length === 3 && posts()[2]?.outcome !== undefined);
    await waitFor(() => retries.length === 3);
    expect(posts().map((c) => c.outcome)).toEqual(['ok', '-1026', '-1026']);
    expect(last().delayMs).toBe(300_000);

    // An hour of sandbox time later (a jump: nothing else needs to run meanwhile) a key may be made again.
    s.clock.advance(3_600_000);
    const gap = until(stream.gaps$, () => true);
    await vt.advance(last().at + last().delayMs - vt.now());
    expect(await gap).toMatchObject({ seq: 2 });
    expect(posts().map((c) => c.outcome)).toEqual(['ok', '-1026', '-1026', 'ok']);
    expect(stream.markResynced()).toBe(true);
    expect(states(health).slice(-2)).toEqual(['RESYNCING', 'LIVE']);
  });

  it('a 418 with Retry-After 30 on making the key (sandbox ban): the next POST 30 s later, not after the 2-minute floor', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
    defer(() => s.close());
    // The client's 418 pause runs on the sandbox's clock (createClient's clock): the test moves it with the stream's scheduler.
    const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret }, clock });
    defer(() => handle.close());
    const vt = new VirtualTime(T0);
    const { api, calls } = spied(handle.client.userStream, vt);
    const stream = new UserDataStream<UserStreamEvent>({ listenKeys: api, wsUrl: s.wsUrl, decode: decodeUserEvent, scheduler: vt.scheduler, random: seededRandom(3), timings: QUIET });
    defer(() => stream.close());
    await adminCall(s, 'POST', '/faults', { kind: 'ban', endpoint: 'userStream.startUserDataStream', count: 1, retryAfterSeconds: 30 });
    const retries: ConnectionEvent[] = [];
    stream.connectionEvents$.subscribe((e) => e.type === 'retrying' && retries.push(e));
    const down = until(stream.health$, (h) => h.state === 'DOWN' && /IP_BANNED/.test(h.reason));
    stream.start();
    expect((await down).reason).toMatch(/418.*; retry 1 in 30000 ms$/);
    const posts = () => calls.filter((c) => c.method === 'POST');
    expect(posts().map((c) => c.outcome)).toEqual(['-1003']);
    expect(retries.map((e) => (e as Extract<ConnectionEvent, { type: 'retrying' }>).delayMs)).toEqual([30_000]);

    await clock.advance(29_999);
    await vt.advance(29_999);
    expect(posts()).toHaveLength(1);
    const gap = until(stream.gaps$, () => true);
    await clock.advance(1);
    await vt.advance(1);
    expect(await gap).toMatchObject({ seq: 1 });
    expect(posts().map((c) => c.outcome)).toEqual(['-1003', 'ok']);
    expect(stream.health.state).toBe('RESYNCING');
  });

  it('close() closes the socket and DELETEs the key', async () => {
    const { s, stream, calls } = await setup();
    await startLive(stream);
    const key = stream.listenKey;
    await stream.close();
    expect(calls.map((c) => [c.method, c.listenKey, c.outcome])).toEqual([
      ['POST', undefined, 'ok'],
      ['DELETE', key, 'ok'],
    ]);
    expect(activeKeys(s)).toEqual([]);
    expect(stream.health).toMatchObject({ state: 'DOWN', reason: 'closed' });
    expect(s.services.streams?.connections()).toEqual([]);
  });

  it('STALE when the sandbox goes silent, then DOWN, reconnect and RESYNCING with the reason', async () => {
    const { s, vt, stream, health } = await setup({ stream: { timings: { pingIntervalMs: 180_000, pongTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 } } } });
    await startLive(stream);
    s.services.streams?.setSilent(true);
    const stale = until(stream.health$, (h) => h.state === 'STALE');
    await vt.advance(210_000);
    expect((await stale).reason).toMatch(/^no pong and no message within 30000 ms/);
    s.services.streams?.setSilent(false);
    const gap = until(stream.gaps$, () => true);
    await vt.advance(8000);
    expect(await gap).toMatchObject({ seq: 2, reason: expect.stringMatching(/^stale: no pong/) });
    expect(states(health).slice(3)).toEqual(['LIVE', 'STALE', 'DOWN', 'CONNECTING', 'RESYNCING']);
  });

  it('an unreachable wsUrl: DOWN with the reason, retries with back-off, no crash; close still DELETEs the key', async () => {
    const port = await closedPort();
    const { s, vt, stream, calls } = await setup({ wsUrl: `ws://127.0.0.1:${port}` });
    const down = until(stream.health$, (h) => h.state === 'DOWN' && h.reason.includes('ECONNREFUSED'));
    stream.start();
    expect((await down).reason).toMatch(/^could not connect to ws:\/\/127\.0\.0\.1:\d+\/openapi\/ws\/<listenKey>: .*ECONNREFUSED.*; retry 1 in \d+ ms$/);
    const again = until(stream.health$, (h) => h.state === 'DOWN' && /retry 2 in/.test(h.reason));
    await vt.advance(8000);
    await again;
    // The key was made once and then only checked (PUT) before each attempt.
    expect(calls.map((c) => c.method)).toEqual(['POST', 'PUT']);
    await stream.close();
    expect(activeKeys(s)).toEqual([]);
    expect(stream.health).toMatchObject({ state: 'DOWN', reason: 'closed' });
  });
});

/** The notes' sample executionReport (notes 4.1), its `i` above 2^53. */
const SAMPLE_REPORT =
  '{"e":"executionReport","E":1499405658658,"s":"ETHBTC","c":"1000087761","S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"0.10264410","P":"0.00000000","x":"NEW","X":"NEW","r":"NONE","i":1241518645726809840,"l":"0.00000000","z":"0.00000000","L":"0.00000000","n":"0","N":null,"T":-1,"t":-1,"w":true,"m":false,"O":1499405658657,"Z":"0.00000000","Y":"0.00000000","Q":"0.00000000"}';

/** Listen-key calls answered in memory; `holdKeepalive` leaves PUTs unanswered until released. */
function memoryKeys() {
  const calls: string[] = [];
  let held: (() => void)[] | undefined;
  const api = {
    startUserDataStream: async () => {
      calls.push('POST');
      return { listenKey: 'k1' };
    },
    keepaliveUserDataStream: async ({ listenKey }: { listenKey: string }) => {
      calls.push(`PUT ${listenKey}`);
      if (held) await new Promise<void>((resolve) => held?.push(resolve));
      return {};
    },
    closeUserDataStream: async ({ listenKey }: { listenKey: string }) => {
      calls.push(`DELETE ${listenKey}`);
      return {};
    },
  } as unknown as ListenKeyApi;
  return {
    api,
    calls,
    holdKeepalive: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const r of waiting) r();
    },
  };
}

/** A bare ws server on 127.0.0.1 playing the venue's user path. */
async function fakeVenue(onConnection: (ws: WebSocket, path: string) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws, req) => onConnection(ws, req.url ?? ''));
  defer(
    () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  );
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

describe('user data stream against a scripted venue', () => {
  it('an event the decoder refuses (unknown type) is a notice with the reason; the stream goes on', async () => {
    const paths: string[] = [];
    const wsUrl = await fakeVenue((ws, path) => {
      paths.push(path);
      ws.send('{"e":"somethingNew","E":1}');
      ws.send('not json at all');
      ws.send(SAMPLE_REPORT);
    });
    const keys = memoryKeys();
    const vt = new VirtualTime(T0);
    const stream = new UserDataStream<UserStreamEvent>({ listenKeys: keys.api, wsUrl, decode: decodeUserEvent, scheduler: vt.scheduler, timings: QUIET });
    defer(() => stream.close());
    const notices: StreamNotice[] = [];
    stream.notices$.subscribe((n) => notices.push(n));
    const report = until(stream.events$, () => true);
    stream.start();
    expect(await report).toMatchObject({ eventType: 'executionReport', orderId: '1241518645726809840', clientOrderId: '1000087761', tradeId: undefined });
    expect(paths).toEqual(['/openapi/ws/k1']);
    expect(notices.map((n) => [n.kind, n.level])).toEqual([
      ['listen-key', 'info'],
      ['decode', 'warn'],
      ['frame', 'warn'],
    ]);
    expect(notices[1]?.message).toMatch(/somethingNew/);
    expect(notices[2]?.message).toMatch(/^not JSON .*: not json at all$/);
    expect(stream.health.state).toBe('RESYNCING');
  });

  it('never overlaps keepalives: a PUT still out when the next is due is not joined by another (exhaustMap)', async () => {
    const wsUrl = await fakeVenue(() => undefined);
    const keys = memoryKeys();
    const vt = new VirtualTime(T0);
    const stream = new UserDataStream<unknown>({ listenKeys: keys.api, wsUrl, scheduler: vt.scheduler, timings: QUIET, keepaliveMs: 60_000 });
    defer(() => stream.close());
    const opened = until(stream.gaps$, () => true);
    stream.start();
    await opened;
    keys.holdKeepalive();
    await vt.advance(60_000);
    await vt.advance(60_000);
    await vt.advance(60_000);
    expect(keys.calls).toEqual(['POST', 'PUT k1']);
    keys.release();
    // The held PUT's answer travels through a few promise hops before exhaustMap is free again.
    await settle();
    await vt.advance(60_000);
    await waitFor(() => keys.calls.length === 3);
    expect(keys.calls).toEqual(['POST', 'PUT k1', 'PUT k1']);
  });

  it('a 429 on making the key: DOWN with the reason, no new POST before its Retry-After (never hammers)', async () => {
    const wsUrl = await fakeVenue(() => undefined);
    const keys = memoryKeys();
    let posts = 0;
    const api = {
      ...keys.api,
      startUserDataStream: async () => {
        posts += 1;
        if (posts === 1) {
          throw new RateLimitedError('429 Too Many Requests', {
            endpoint: 'userStream.startUserDataStream',
            httpStatus: 429,
            outcome: 'rate-limited',
            category: 'rate',
            banned: false,
            retryAfterMs: 45_000,
          });
        }
        return keys.api.startUserDataStream();
      },
    } as ListenKeyApi;
    const vt = new VirtualTime(T0);
    const stream = new UserDataStream<unknown>({ listenKeys: api, wsUrl, scheduler: vt.scheduler, timings: QUIET });
    defer(() => stream.close());
    const down = until(stream.health$, (h) => h.state === 'DOWN' && h.reason.includes('429'));
    stream.start();
    expect((await down).reason).toBe('could not prepare the connection: 429 Too Many Requests (RATE_LIMITED); retry 1 in 45000 ms');
    await vt.advance(44_999);
    expect(posts).toBe(1);
    const gap = until(stream.gaps$, () => true);
    await vt.advance(1);
    await gap;
    expect(posts).toBe(2);
    expect(stream.health.state).toBe('RESYNCING');
  });
});
