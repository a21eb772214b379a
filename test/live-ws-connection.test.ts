/**
 * The venue's WebSocket connection end to end (issue 20 deliverable 1; protocol notes 1, 4, 5.1):
 * real loopback sockets to the sandbox (and to a bare `ws` server where the sandbox cannot misbehave
 * on purpose), every timer of the client (ping, stale bound, back-off, 24 h limit) on an RxJS
 * VirtualTimeScheduler moved by the test, the sandbox on a VirtualClock.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { fullJitterDelay, seededRandom } from '../src/exchange/ws/backoff.ts';
import { marketConnection } from '../src/exchange/ws/market-connection.ts';
import { StreamConnection } from '../src/exchange/ws/stream-connection.ts';
import { StreamUpgradeRejectedError } from '../src/exchange/ws/stream-errors.ts';
import type { ConnectionEvent, StreamMessage } from '../src/exchange/ws/stream-events.ts';
import { until, VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SEED = 7;
/** Ping every 3 minutes, a pong within 30 s, back-off from 1 s up to 8 s. */
const TIMINGS = { pingIntervalMs: 180_000, pongTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 } };

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({ clock: new VirtualClock(T0) });
  defer(() => s.close());
  return s;
}

function streamsOf(s: SandboxHandle) {
  const streams = s.services.streams;
  if (!streams) throw new Error('the sandbox has no stream server');
  return streams;
}

function market(wsUrl: string, vt: VirtualTime, options: { streams?: string[]; path?: 'raw' | 'combined'; timings?: Record<string, unknown> } = {}) {
  const conn = marketConnection({
    wsUrl,
    path: options.path ?? 'combined',
    streams: options.streams ?? [],
    scheduler: vt.scheduler,
    random: seededRandom(SEED),
    timings: { ...TIMINGS, ...options.timings },
  });
  defer(() => conn.close());
  return conn;
}

/** Every event of `conn`, from now on. */
function record(conn: StreamConnection): { events: ConnectionEvent[]; messages: StreamMessage[] } {
  const events: ConnectionEvent[] = [];
  const messages: StreamMessage[] = [];
  conn.events$.subscribe((e) => events.push(e));
  conn.messages$.subscribe((m) => messages.push(m));
  return { events, messages };
}

/** A bare ws server on 127.0.0.1 that hands each connection to `onConnection`. */
async function rawServer(onConnection: (ws: WebSocket) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', onConnection);
  defer(
    () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  );
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('stream connection: subscriptions (notes 1)', () => {
  it('subscribes, unsubscribes and lists, with ids; refusals are typed errors and leave the streams unwanted', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'] }).start();

    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade']);
    await conn.subscribe(['btcphp@depth', 'btcphp@bookTicker']);
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade', 'btcphp@depth', 'btcphp@bookTicker']);
    await conn.unsubscribe(['btcphp@trade']);
    expect(await conn.listSubscriptions()).toEqual(['btcphp@depth', 'btcphp@bookTicker']);

    await expect(conn.subscribe(['nosuchphp@trade'])).rejects.toMatchObject({
      name: 'StreamRequestError',
      code: 'STREAM_INVALID_SYMBOLS',
      venueCode: '-100010',
      venueMessage: 'Invalid Symbols!',
      request: { method: 'SUBSCRIBE', params: ['nosuchphp@trade'] },
    });
    await expect(conn.subscribe(['btcphp@nonsense'])).rejects.toMatchObject({ code: 'STREAM_INVALID_REQUEST', venueCode: 2, venueMessage: 'Invalid request: STREAM [btcphp@nonsense] was invalid.' });
    expect(conn.subscriptions).toEqual(['btcphp@depth', 'btcphp@bookTicker']);
    expect(await conn.listSubscriptions()).toEqual(['btcphp@depth', 'btcphp@bookTicker']);
  });

  it('streams asked for before the socket opens: a bad one is refused by name (its subscribe() rejects), the others are subscribed', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade', 'nosuchphp@trade', 'btcphp@depth'] });
    const { events } = record(conn);
    const good = conn.subscribe(['btcphp@bookTicker']);
    const bad = conn.subscribe(['btcphp@nonsense']);
    bad.catch(() => undefined);
    conn.start();
    await good;
    await expect(bad).rejects.toMatchObject({ code: 'STREAM_INVALID_REQUEST', request: { params: ['btcphp@nonsense'] } });
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade', 'btcphp@depth', 'btcphp@bookTicker']);
    expect(conn.subscriptions).toEqual(['btcphp@trade', 'btcphp@depth', 'btcphp@bookTicker']);
    expect(events.filter((e) => e.type === 'request-error').map((e) => e.type === 'request-error' && e.error.code)).toEqual(['STREAM_INVALID_SYMBOLS', 'STREAM_INVALID_REQUEST']);

    // After a drop the accepted streams ride in the URL: the reconnect needs no SUBSCRIBE.
    const back = until(conn.resync$, () => true);
    streamsOf(s).dropAll();
    await until(conn.events$, (e) => e.type === 'retrying');
    await vt.advance(TIMINGS.backoff.maxMs);
    await back;
    expect(events.filter((e) => e.type === 'open').map((e) => e.type === 'open' && e.target)).toEqual([
      `${s.wsUrl}/openapi/quote/stream`,
      `${s.wsUrl}/openapi/quote/stream?streams=btcphp@trade/btcphp@depth/btcphp@bookTicker`,
    ]);
  });

  it('a raw path whose one stream is refused at the upgrade drops it and opens without it', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { path: 'raw' });
    const refused = conn.subscribe(['nosuchphp@trade']);
    refused.catch(() => undefined);
    const retry = until(conn.events$, (e) => e.type === 'retrying');
    conn.start();
    await retry;
    await vt.advance(TIMINGS.backoff.maxMs);
    await expect(refused).rejects.toMatchObject({ code: 'STREAM_INVALID_SYMBOLS' });
    expect(conn.status.state).toBe('open');
    expect(await conn.listSubscriptions()).toEqual([]);
  });

  it('unwraps combined-path events and passes raw-path events bare', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const combined = market(s.wsUrl, vt, { streams: ['btcphp@bookTicker'] }).start();
    const raw = market(s.wsUrl, vt, { streams: ['btcphp@bookTicker'], path: 'raw' }).start();
    await combined.listSubscriptions();
    await raw.listSubscriptions();
    const fromCombined = until(combined.messages$, (m) => (m.data as { a?: string }).a === '3000000');
    const fromRaw = until(raw.messages$, (m) => (m.data as { a?: string }).a === '3000000');

    const client = sandboxClient(s, defer);
    await client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });

    expect(await fromCombined).toMatchObject({ stream: 'btcphp@bookTicker', data: { s: 'BTCPHP', a: '3000000', A: '0.001' } });
    expect(await fromRaw).toMatchObject({ stream: undefined, data: { s: 'BTCPHP', a: '3000000', A: '0.001' } });
  });
});

describe('stream connection: keepalive and liveness (notes 1)', () => {
  it('sends {"ping":<ms>} every 3 minutes of virtual time; the pong keeps it open', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'] }).start();
    await conn.listSubscriptions();
    const { events } = record(conn);

    for (let i = 1; i <= 3; i++) {
      const pong = until(conn.events$, (e) => e.type === 'pong');
      // The next ping is due 3 minutes after the last one; the check of the last ran 30 s after it.
      await vt.advance(i === 1 ? 180_000 : 150_000);
      expect(await pong).toMatchObject({ type: 'pong', value: T0 + i * 180_000 });
      await vt.advance(30_000);
      expect(conn.status.state).toBe('open');
    }
    expect(events.filter((e) => e.type === 'stale' || e.type === 'gap')).toEqual([]);
  });

  it('answers a protocol PING frame with a PONG carrying the same data', async () => {
    const vt = new VirtualTime(T0);
    const ponged = new Promise<string>((resolve) => {
      void rawServer((ws) => {
        ws.on('pong', (data) => resolve(data.toString()));
        ws.ping('are-you-there');
      }).then((url) => market(url, vt).start());
    });
    expect(await ponged).toBe('are-you-there');
  });

  it('goes STALE when the sandbox answers nothing (setSilent), then reconnects with a gap once it talks again', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'] }).start();
    await conn.listSubscriptions();
    const { events } = record(conn);

    streamsOf(s).setSilent(true);
    await vt.advance(180_000);
    expect(conn.status.state).toBe('open');
    const stale = until(conn.events$, (e) => e.type === 'stale');
    await vt.advance(30_000);
    expect(await stale).toMatchObject({ type: 'stale', at: T0 + 210_000 });
    expect((await stale as { reason: string }).reason).toMatch(/no pong and no message within 30000 ms of the ping sent at/);

    streamsOf(s).setSilent(false);
    const back = until(conn.events$, (e) => e.type === 'reconnected');
    await vt.advance(TIMINGS.backoff.maxMs);
    expect(await back).toMatchObject({ type: 'reconnected', seq: 1 });
    expect(events.map((e) => e.type).filter((t) => t !== 'pong')).toEqual(['stale', 'gap', 'retrying', 'connecting', 'open', 'reconnected']);
    expect(events.find((e) => e.type === 'gap')).toMatchObject({ reason: expect.stringMatching(/^stale: no pong/) });
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade']);
  });
});

describe('stream connection: reconnects (notes 1)', () => {
  it('after dropAll: a gap, a jittered back-off, the streams subscribed again, then reconnected (the resync trigger)', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'] }).start();
    await conn.subscribe(['btcphp@depth']);
    const { events } = record(conn);
    const resync = until(conn.resync$, () => true);

    const gap = until(conn.events$, (e) => e.type === 'retrying');
    streamsOf(s).dropAll();
    const retrying = await gap;
    // The first retry after a socket that was heard: attempt 0's ceiling, the seeded jitter.
    const expected = fullJitterDelay(0, TIMINGS.backoff, seededRandom(SEED));
    expect(retrying).toMatchObject({ type: 'retrying', attempt: 1, delayMs: expected });
    expect(conn.status.state).toBe('backoff');

    await vt.advance(expected);
    expect(await resync).toMatchObject({ type: 'reconnected', seq: 1, reason: expect.stringMatching(/^socket closed \(code 1006/) });
    expect(events.map((e) => e.type)).toEqual(['gap', 'retrying', 'connecting', 'open', 'reconnected']);
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade', 'btcphp@depth']);
    expect(streamsOf(s).connections().map((c) => c.streams)).toEqual([['btcphp@trade', 'btcphp@depth']]);
  });

  it('reconnects on purpose before the 24 h limit (configurable), with a gap and reconnected', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'], timings: { pingIntervalMs: 48 * 3_600_000, maxLifetimeMs: 23 * 3_600_000 + 50 * 60_000 } }).start();
    await conn.listSubscriptions();
    const first = streamsOf(s).connections()[0]?.id;
    const back = until(conn.resync$, () => true);

    await vt.advance(23 * 3_600_000 + 50 * 60_000);
    expect(await back).toMatchObject({ reason: expect.stringMatching(/^planned reconnect after 85800000 ms/) });
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade']);
    const now = streamsOf(s).connections();
    expect(now).toHaveLength(1);
    expect(now[0]?.id).not.toBe(first);
  });

  it('an unreachable wsUrl: retries with growing, bounded, jittered waits; no crash, closes cleanly', async () => {
    const port = await closedPort();
    const vt = new VirtualTime(T0);
    const conn = market(`ws://127.0.0.1:${port}`, vt, { streams: ['btcphp@trade'] });
    const { events } = record(conn);
    const subscribed = conn.subscribe(['btcphp@depth']);
    subscribed.catch(() => undefined);
    const random = seededRandom(SEED);
    let retry = until(conn.events$, (e) => e.type === 'retrying' && e.attempt === 1);
    conn.start();
    for (let attempt = 0; attempt < 6; attempt++) {
      const delay = fullJitterDelay(attempt, TIMINGS.backoff, random);
      expect(await retry).toMatchObject({ delayMs: delay, reason: expect.stringMatching(/could not connect to ws:\/\/127\.0\.0\.1:\d+\/openapi\/quote\/stream: .*ECONNREFUSED/) });
      expect(delay).toBeLessThan(TIMINGS.backoff.maxMs);
      expect(conn.status).toMatchObject({ state: 'backoff' });
      retry = until(conn.events$, (e) => e.type === 'retrying' && e.attempt === attempt + 2);
      await vt.advance(delay);
    }
    await retry;
    expect(events.filter((e) => e.type === 'gap' || e.type === 'open')).toEqual([]);
    await conn.close();
    await expect(subscribed).rejects.toMatchObject({ code: 'STREAM_CLOSED' });
    expect(conn.status.state).toBe('closed');
  });

  it('a refused upgrade is a typed error with the status and the venue code', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = new StreamConnection({
      target: { resolve: () => ({ url: `${s.wsUrl}/openapi/ws/no-such-key`, carried: [], label: 'user stream' }) },
      scheduler: vt.scheduler,
      random: seededRandom(SEED),
      timings: TIMINGS,
    });
    defer(() => conn.close());
    const retry = until(conn.events$, (e) => e.type === 'retrying');
    conn.start();
    const e = await retry;
    expect(e.type === 'retrying' && e.error).toBeInstanceOf(StreamUpgradeRejectedError);
    expect(e.type === 'retrying' && e.error).toMatchObject({ httpStatus: 400, venueCode: -1125 });
  });
});

describe('stream connection: frames (notes 1, 5.1)', () => {
  it('reports frames that are not JSON or not understood and keeps running; ids above 2^53 stay exact', async () => {
    const vt = new VirtualTime(T0);
    const url = await rawServer((ws) => {
      ws.send('not json');
      ws.send('42');
      ws.send('{"foo":1}');
      ws.send(Buffer.from([1, 2, 3]), { binary: true });
      ws.send('{"e":"trade","E":1,"s":"BTCPHP","t":1375445991893797391,"p":"1.5","q":"2"}');
      ws.send('{"stream":"btcphp@trade","data":{"e":"trade","t":5}}');
      ws.send('[{"e":"24hrMiniTicker","s":"BTCPHP"}]');
    });
    const conn = market(url, vt);
    const { events, messages } = record(conn);
    const third = until(conn.messages$, (m) => Array.isArray(m.data));
    conn.start();
    await third;

    const errors = events.filter((e) => e.type === 'frame-error');
    expect(errors.map((e) => e.type === 'frame-error' && [e.reason.replace(/ \(.*\)$/, ''), e.frame])).toEqual([
      ['not JSON', 'not json'],
      ['not a JSON object or array but number', '42'],
      ['not a stream frame', '{"foo":1}'],
      ['a binary frame', '<3 bytes>'],
    ]);
    expect(messages.map((m) => [m.stream, m.data])).toEqual([
      [undefined, { e: 'trade', E: 1, s: 'BTCPHP', t: '1375445991893797391', p: '1.5', q: '2' }],
      ['btcphp@trade', { e: 'trade', t: 5 }],
      [undefined, [{ e: '24hrMiniTicker', s: 'BTCPHP' }]],
    ]);
    expect(conn.status.state).toBe('open');
  });
});

describe('stream connection: requests against a scripted server (notes 1)', () => {
  it('an error reply answers the oldest request; a reply that never comes times out on virtual time; a stray reply is reported', async () => {
    const vt = new VirtualTime(T0);
    const url = await rawServer((ws) => {
      ws.on('message', (data) => {
        const req = JSON.parse(String(data)) as { method?: string; params?: string[]; id?: number };
        if (req.method === 'SUBSCRIBE' && req.params?.[0] === 'bad@trade') ws.send('{"code":2,"msg":"Invalid request: STREAM [bad@trade] was invalid."}');
        if (req.method === 'SUBSCRIBE' && req.params?.[0] === 'ok@trade') ws.send(`{"result":null,"id":${req.id}}`);
        // LIST_SUBSCRIPTIONS: no answer at all; a reply to an id nobody asked for instead.
        if (req.method === 'LIST_SUBSCRIPTIONS') ws.send('{"result":[],"id":999}');
      });
    });
    const conn = market(url, vt, { timings: { requestTimeoutMs: 5000 } }).start();
    const { events } = record(conn);

    await until(conn.status$, (st) => st.state === 'open');
    await expect(conn.subscribe(['bad@trade'])).rejects.toMatchObject({ code: 'STREAM_INVALID_REQUEST', request: { method: 'SUBSCRIBE', params: ['bad@trade'], id: 1 } });
    await conn.subscribe(['ok@trade']);
    const listed = conn.listSubscriptions();
    listed.catch(() => undefined);
    await until(conn.events$, (e) => e.type === 'frame-error');
    await vt.advance(4999);
    expect(await Promise.race([listed.then(() => 'answered', () => 'failed'), Promise.resolve('waiting')])).toBe('waiting');
    await vt.advance(1);
    await expect(listed).rejects.toMatchObject({ code: 'STREAM_REQUEST_TIMEOUT', message: 'LIST_SUBSCRIPTIONS (id 3): no reply within 5000 ms' });
    expect(events.filter((e) => e.type === 'frame-error').map((e) => e.type === 'frame-error' && e.reason)).toEqual(['a reply to id 999, which no request waits for']);
    expect(conn.subscriptions).toEqual(['ok@trade']);
    expect(conn.status.state).toBe('open');
  });

  it('a subscribe made while the socket is down settles once the reconnect has subscribed it', async () => {
    const s = await sandbox();
    const vt = new VirtualTime(T0);
    const conn = market(s.wsUrl, vt, { streams: ['btcphp@trade'] }).start();
    await conn.listSubscriptions();
    const retrying = until(conn.events$, (e) => e.type === 'retrying');
    streamsOf(s).dropAll();
    const r = await retrying;
    let settled = false;
    const subscribed = conn.subscribe(['btcphp@bookTicker']).then(() => (settled = true));
    await vt.advance((r.type === 'retrying' && r.delayMs) || 0);
    await subscribed;
    expect(settled).toBe(true);
    expect(await conn.listSubscriptions()).toEqual(['btcphp@trade', 'btcphp@bookTicker']);
  });
});
