/**
 * The sandbox's WebSocket streams end to end (issue "Sandbox exchange" deliverable 7; protocol notes
 * 1, 4, 4.1): a real http.Server on 127.0.0.1, real `ws` clients, the engine replaced by a fake
 * book and direct sink calls. Time is a VirtualClock, so periodic pushes and the 5-minute idle drop
 * are driven by `clock.advance`; only the delivery latency is measured on the wall clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ExecutionReportEvent } from '../src/sandbox/contracts.ts';
import { MarketDataStore } from '../src/sandbox/market-data/store.ts';
import type { StreamTimings } from '../src/sandbox/streams/config.ts';
import { attachStreams, type StreamServer } from '../src/sandbox/streams/stream-server.ts';
import { FakeBook, FakeListenKeys } from '../src/sandbox/streams/testing/fakes.ts';
import { TestClient, type Frame } from '../src/sandbox/streams/testing/ws-client.ts';
import { systemClock } from '../src/time/system-clock.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const BIG = '1375445991893797391';

interface Rig {
  clock: VirtualClock;
  book: FakeBook;
  keys: FakeListenKeys;
  store: MarketDataStore;
  streams: StreamServer;
  url: (path: string) => string;
  open: (path: string) => Promise<TestClient>;
}

const defer = closeAfterEach();

async function rig(timings: Partial<StreamTimings> = {}): Promise<Rig> {
  const clock = new VirtualClock(T0);
  const book = new FakeBook();
  const keys = new FakeListenKeys();
  const store = new MarketDataStore(clock, book);
  const http: Server = createServer((_req, res) => res.end());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const streams = attachStreams(http, { clock, store, book, listenKeys: keys, isSymbol: (s) => /^BTCPHP\d*$|^ETHPHP$/.test(s), timings });
  defer(() => new Promise<void>((resolve) => http.close(() => resolve())));
  defer(() => streams.close());
  const port = (http.address() as AddressInfo).port;
  const url = (path: string) => `ws://127.0.0.1:${port}${path}`;
  const open = async (path: string) => {
    const c = await TestClient.open(url(path));
    defer(() => c.close());
    return c;
  };
  return { clock, book, keys, store, streams, url, open };
}

let tradeSeq = BigInt(BIG);
function fill(r: Rig, price: string, qty: string, aggregateId: string, buyerIsMaker = false, symbol = 'BTCPHP') {
  const id = String(tradeSeq++);
  r.streams.trade(symbol, { id, price, qty, buyerOrderId: '1202289462787244800', sellerOrderId: '7', time: r.clock.now(), buyerIsMaker, aggregateId });
  return id;
}

const isEvent = (e: string) => (f: Frame) => (f.json.data ?? f.json)['e'] === e;

describe('paths and payload wrapping (notes 1)', () => {
  it('raw path: bare trade events with ids as bare JSON numbers', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    expect(await c.request({ method: 'LIST_SUBSCRIPTIONS', id: 3 })).toEqual({ result: ['btcphp@trade'], id: 3 });
    const id = fill(r, '100.5', '0.25', 'a1', true);
    const f = await c.next();
    expect(f.json).toMatchObject({ e: 'trade', E: T0, s: 'BTCPHP', p: '100.5', q: '0.25', T: T0, m: true, M: true });
    expect(f.raw).toContain(`"t":${id},`);
    expect(f.raw).toContain('"b":1202289462787244800,"a":7,');
  });

  it('combined path wraps events; aggTrade groups one taker order per price', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/stream?streams=btcphp@trade/btcphp@aggTrade');
    const first = fill(r, '100', '1', 'taker-1');
    const second = fill(r, '100', '2', 'taker-1');
    const third = fill(r, '101', '0.5', 'taker-1');
    fill(r, '101', '1', 'taker-2', true);
    const trades = [await c.next(isEvent('trade')), await c.next(isEvent('trade'))];
    expect(trades.map((t) => t.json.stream)).toEqual(['btcphp@trade', 'btcphp@trade']);
    const aggs = [1, 2, 3].map(() => c.next(isEvent('aggTrade')));
    const [a1, a2, a3] = await Promise.all(aggs);
    // The aggregate id is its first trade id: increasing, and unique across a restart (trade ids persist).
    expect(a1?.json).toMatchObject({ stream: 'btcphp@aggTrade', data: { e: 'aggTrade', s: 'BTCPHP', p: '100', q: '3', m: false } });
    expect(a1?.raw).toContain(`"a":${first},`);
    expect(a1?.raw).toContain(`"f":${first},"l":${second},`);
    expect(a2?.json.data).toMatchObject({ p: '101', q: '0.5' });
    expect(a2?.raw).toContain(`"a":${third},`);
    expect(a2?.raw).toContain(`"f":${third},"l":${third},`);
    expect(a3?.json.data).toMatchObject({ p: '101', q: '1', m: true });
    expect(BigInt(/"a":(\d+)/.exec(a3!.raw)![1]!)).toBeGreaterThan(BigInt(third));
  });

  it('rejects bad upgrades with a JSON body', async () => {
    const r = await rig();
    await expect(TestClient.open(r.url('/openapi/quote/ws/v3/btcphp@bogus'))).rejects.toMatchObject({ status: 400, body: '{"code":2,"msg":"Invalid request: STREAM [btcphp@bogus] was invalid."}' });
    await expect(TestClient.open(r.url('/openapi/quote/stream?streams=dogphp@trade'))).rejects.toMatchObject({ status: 400, body: '{"code":"-100010","desc":"Invalid Symbols!"}' });
    await expect(TestClient.open(r.url('/openapi/ws/nosuchkey'))).rejects.toMatchObject({ status: 400, body: '{"code":-1125,"msg":"This listenKey does not exist."}' });
    await expect(TestClient.open(r.url('/elsewhere'))).rejects.toMatchObject({ status: 404 });
  });
});

describe('malformed upgrade paths', () => {
  it('a bad percent escape is refused like any unknown name, and the server keeps serving', async () => {
    const r = await rig();
    await expect(TestClient.open(r.url('/openapi/ws/%zz'))).rejects.toMatchObject({ status: 400, body: '{"code":-1125,"msg":"This listenKey does not exist."}' });
    await expect(TestClient.open(r.url('/openapi/quote/ws/v3/%E0%A4%A'))).rejects.toMatchObject({ status: 400, body: '{"code":2,"msg":"Invalid request: STREAM [%E0%A4%A] was invalid."}' });
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    expect(await c.request({ ping: 1 })).toEqual({ pong: 1 });
  });
});

describe('control messages (notes 1)', () => {
  it('subscribes, lists and unsubscribes with the id echoed', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/stream');
    expect(await c.request({ method: 'SUBSCRIBE', params: ['BTCPHP@trade', 'btcphp@depth', '!ticker@arr'], id: 1 })).toEqual({ result: null, id: 1 });
    expect(await c.request({ method: 'LIST_SUBSCRIPTIONS', id: 2 })).toEqual({ result: ['btcphp@trade', 'btcphp@depth', '!ticker@arr'], id: 2 });
    expect(await c.request({ method: 'UNSUBSCRIBE', params: ['btcphp@depth'], id: 3 })).toEqual({ result: null, id: 3 });
    expect(await c.request({ method: 'LIST_SUBSCRIPTIONS', id: 4 })).toEqual({ result: ['btcphp@trade', '!ticker@arr'], id: 4 });
    fill(r, '1', '1', 'x');
    expect((await c.next()).json.stream).toBe('btcphp@trade');
  });

  it('answers every error with the exact text', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/stream');
    const cases: [unknown, unknown][] = [
      ['{not json', { code: 3, msg: 'Invalid JSON' }],
      [{ params: [], id: 1 }, { code: 2, msg: 'Invalid request: missing field method' }],
      [{ method: 'SUBSCRIB', params: [], id: 1 }, { code: 2, msg: 'Invalid request: unknown variant SUBSCRIB, expected one of SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS' }],
      [{ method: 'SUBSCRIBE', params: ['btcphp@trade'], id: -1 }, { code: 2, msg: 'Invalid request: request ID must be an unsigned integer' }],
      [{ method: 'SUBSCRIBE', params: ['btcphp@trade'], id: 'a' }, { code: 2, msg: 'Invalid request: request ID must be an unsigned integer' }],
      [{ method: 'SUBSCRIBE', params: [1], id: 1 }, { code: 2, msg: 'Invalid request: property name must be a string' }],
      [{ method: 'LIST_SUBSCRIPTIONS', params: ['x'], id: 1 }, { code: 2, msg: 'Invalid request: too many parameters' }],
      [{ method: 'SUBSCRIBE', params: ['btcphp@nope'], id: 1 }, { code: 2, msg: 'Invalid request: STREAM [btcphp@nope] was invalid.' }],
      [{ method: 'SUBSCRIBE', params: ['btcphp@kline_2m'], id: 1 }, { code: 2, msg: 'Invalid request: STREAM [btcphp@kline_2m] was invalid.' }],
      [{ method: 'SUBSCRIBE', params: ['dogphp@trade'], id: 1 }, { code: '-100010', desc: 'Invalid Symbols!' }],
      [{ method: 'SUBSCRIBE', params: Array.from({ length: 1025 }, (_, i) => `btcphp${i}@trade`), id: 1 }, { code: 2, msg: 'Invalid request: params must less than or equals 1024' }],
    ];
    for (const [msg, reply] of cases) expect(await c.request(msg)).toEqual(reply);
    // The cap is per connection, across requests.
    expect(await c.request({ method: 'SUBSCRIBE', params: Array.from({ length: 1024 }, (_, i) => `btcphp${i}@trade`), id: 7 })).toEqual({ result: null, id: 7 });
    expect(await c.request({ method: 'SUBSCRIBE', params: ['btcphp@trade'], id: 8 })).toEqual({ code: 2, msg: 'Invalid request: params must less than or equals 1024' });
  });

  it('echoes a request id above 2^53 exactly (an unsigned integer, notes 1)', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/stream');
    c.send('{"method":"SUBSCRIBE","params":["btcphp@trade"],"id":18446744073709551615}');
    expect((await c.next()).raw).toBe('{"result":null,"id":18446744073709551615}');
    c.send('{"method":"LIST_SUBSCRIPTIONS","id":9007199254740993}');
    expect((await c.next()).raw).toBe('{"result":["btcphp@trade"],"id":9007199254740993}');
    for (const id of ['18446744073709551616', '"9007199254740993"', '1.5', '-9007199254740993']) {
      expect(await c.request(`{"method":"LIST_SUBSCRIPTIONS","id":${id}}`)).toEqual({ code: 2, msg: 'Invalid request: request ID must be an unsigned integer' });
    }
  });

  it('answers JSON pings and protocol ping frames', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    c.send('{"ping":1660900682429}');
    expect((await c.next((f) => 'pong' in f.json)).raw).toBe('{"pong":1660900682429}');
    const pong = new Promise<string>((resolve) => c.ws.once('pong', (d) => resolve(String(d))));
    c.ws.ping('hello');
    expect(await pong).toBe('hello');
  });
});

describe('book streams (notes 4)', () => {
  it('diff depth lets a client following the local-book rules rebuild the snapshot', async () => {
    const r = await rig();
    r.book.change(r.streams, 'BTCPHP', { bids: [['99', '1'], ['98', '2']], asks: [['101', '1'], ['102', '5']] });
    const c = await r.open('/openapi/quote/stream?streams=btcphp@depth@100ms');
    r.book.change(r.streams, 'BTCPHP', { bids: [['99', '3']] });
    await r.clock.advance(100);
    r.book.change(r.streams, 'BTCPHP', { asks: [['101', '0'], ['100.5', '2']] });
    const snapshot = r.book.depth('BTCPHP', 200); // the REST call, taken mid-batch
    r.book.change(r.streams, 'BTCPHP', { bids: [['98', '0'], ['97', '4']] });
    await r.clock.advance(100);
    r.book.change(r.streams, 'BTCPHP', { bids: [['99.5', '1']], asks: [['102', '6']] });
    r.book.change(r.streams, 'BTCPHP', { asks: [['103', '0']] }); // unknown level: ignored
    await r.clock.advance(100);
    const events = [await c.next(), await c.next(), await c.next()].map((f) => f.json.data as { U: number; u: number; b: [string, string][]; a: [string, string][] });
    expect(events[0]).toMatchObject({ e: 'depthUpdate', s: 'BTCPHP', U: 102, u: 102 });
    // Notes 4 local-book algorithm.
    const bids = new Map(snapshot.bids);
    const asks = new Map(snapshot.asks);
    let last = Number(snapshot.lastUpdateId);
    let started = false;
    for (const ev of events) {
      if (ev.u <= last) continue;
      if (!started) expect(ev.U <= last + 1 && last + 1 <= ev.u).toBe(true);
      else expect(ev.U).toBe(last + 1);
      started = true;
      for (const [side, levels] of [[bids, ev.b], [asks, ev.a]] as const) {
        for (const [p, q] of levels) {
          if (Number(q) === 0) side.delete(p);
          else side.set(p, q);
        }
      }
      last = ev.u;
    }
    const final = r.book.depth('BTCPHP', 200);
    expect(last).toBe(final.lastUpdateId);
    expect([...bids].sort((x, y) => Number(y[0]) - Number(x[0]))).toEqual(final.bids);
    expect([...asks].sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual(final.asks);
  });

  it('diff depth without @100ms pushes every 1000 ms; partial depth on change; bookTicker real time', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/stream?streams=btcphp@depth/btcphp@depth5/btcphp@bookTicker');
    r.book.change(r.streams, 'BTCPHP', { bids: [['99', '1']], asks: [['101', '2']] });
    const bt = await c.next((f) => f.json.stream === 'btcphp@bookTicker');
    expect(bt.json.data).toEqual({ u: 101, s: 'BTCPHP', b: '99', B: '1', a: '101', A: '2' });
    await r.clock.advance(100);
    const snap = await c.next((f) => f.json.stream === 'btcphp@depth5');
    expect(snap.json.data).toEqual({ s: 'BTCPHP', e: 'depth', E: T0 + 100, lastUpdateId: 101, bids: [['99', '1']], asks: [['101', '2']] });
    await r.clock.advance(100);
    expect(await c.quiet(50)).toBe(true); // no change: no snapshot, and the slow diff is not due
    await r.clock.advance(800);
    expect((await c.next((f) => f.json.stream === 'btcphp@depth')).json.data).toMatchObject({ e: 'depthUpdate', U: 101, u: 101, b: [['99', '1']], a: [['101', '2']] });
  });
});

describe('periodic market streams (notes 4)', () => {
  it('pushes the current kline every 2000 ms and the closed kline with x true', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@kline_1m');
    fill(r, '100', '1', 'a');
    await r.clock.advance(10_000);
    fill(r, '105', '2', 'b', true);
    await r.clock.advance(2000);
    c.frames.splice(0); // earlier updates
    await r.clock.advance(2000);
    const open = await c.next();
    expect(open.json).toMatchObject({ e: 'kline', s: 'BTCPHP', k: { t: T0, T: T0 + 59_999, i: '1m', o: '100', h: '105', l: '100', c: '105', v: '3', q: '310', V: '1', Q: '100', n: 2, x: false } });
    await r.clock.advance(48_000); // T0 + 62 s: the minute is over
    const frames = [...c.frames.splice(0)];
    const closed = frames.find((f) => (f.json['k'] as { x: boolean }).x);
    expect(closed?.json['k']).toMatchObject({ t: T0, x: true, n: 2, c: '105' });
  });

  it('sends the closed kline of a period whose only trades came after its last push', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@kline_1m');
    await r.clock.advance(58_000); // pushes so far found no kline
    await r.clock.advance(1000);
    fill(r, '100', '1', 'a'); // T0 + 59 s; the next push is at T0 + 60 s, in the next minute
    await r.clock.advance(1000);
    const closed = await c.next();
    expect(closed.json['k']).toMatchObject({ t: T0, x: true, n: 1, o: '100', c: '100', v: '1' });
  });

  it('pushes tickers every 1000 ms, arrays with changed tickers only', async () => {
    const r = await rig();
    r.book.change(r.streams, 'BTCPHP', { bids: [['99', '1']], asks: [['101', '2']] });
    const c = await r.open('/openapi/quote/stream?streams=btcphp@ticker/!miniTicker@arr');
    fill(r, '100', '1', 'a');
    fill(r, '110', '1', 'b');
    fill(r, '200', '1', 'c', false, 'ETHPHP');
    await r.clock.advance(1000);
    const t = await c.next((f) => f.json.stream === 'btcphp@ticker');
    expect(t.json.data).toMatchObject({ e: '24hrTicker', s: 'BTCPHP', p: '10', P: '0.1', c: '110', o: '100', b: '99', A: '2', n: 2, O: T0 - 86_400_000, C: T0 + 1000 });
    const arr = await c.next((f) => f.json.stream === '!miniTicker@arr');
    expect((arr.json.data as unknown as { s: string }[]).map((x) => x.s)).toEqual(['BTCPHP', 'ETHPHP']);
    fill(r, '201', '1', 'd', false, 'ETHPHP');
    await r.clock.advance(1000);
    const changed = await c.next((f) => f.json.stream === '!miniTicker@arr');
    expect(changed.json.data).toEqual([{ e: '24hrMiniTicker', E: T0 + 2000, s: 'ETHPHP', c: '201', o: '200', h: '201', l: '200', v: '2', q: '401' }]);
  });
});

const report = (i: string): ExecutionReportEvent => ({
  e: 'executionReport', E: T0, s: 'BTCPHP', c: 'c1', S: 'BUY', o: 'LIMIT', f: 'GTC', q: '1', p: '100', P: '0', x: 'NEW', X: 'NEW', r: 'NONE',
  i, l: '0', z: '0', L: '0', n: '0', N: null, T: -1, t: '-1', w: true, m: false, O: T0, Z: '0', Y: '0', Q: '0',
});

describe('user data stream (notes 4.1)', () => {
  it('delivers an account event within 100 ms on the user path and, wrapped, on a listenKey subscription', async () => {
    const r = await rig();
    const key = r.keys.create('acc-1', T0);
    const bare = await r.open(`/openapi/ws/${key}`);
    const wrapped = await r.open('/openapi/quote/stream');
    expect(await wrapped.request({ method: 'SUBSCRIBE', params: [key], id: 9 })).toEqual({ result: null, id: 9 });
    const sent = performance.now();
    r.streams.user('acc-2', report('1')); // another account: not delivered
    r.streams.user('acc-1', report('1241518645726809840'));
    const f = await bare.next();
    expect(performance.now() - sent).toBeLessThan(100);
    expect(f.json).toMatchObject({ e: 'executionReport', s: 'BTCPHP', T: -1, t: -1 });
    expect(f.raw).toContain('"i":1241518645726809840,');
    const w = await wrapped.next();
    expect(w.json.stream).toBe(key);
    expect(w.raw).toContain('"i":1241518645726809840,');
    expect(await bare.quiet(30)).toBe(true);
  });

  it('closes the connections of an expired listen key', async () => {
    const r = await rig();
    const key = r.keys.create('acc-1', T0);
    const c = await r.open(`/openapi/ws/${key}`);
    r.keys.expire(key);
    await r.clock.advance(1000);
    expect(await c.waitClose()).toEqual({ code: 4001, reason: 'listenKey expired' });
    expect(r.streams.connections()).toHaveLength(0);
  });
});

describe('keepalive, lifetime and faults', () => {
  it('drops a connection idle for 5 minutes and keeps one that pings', async () => {
    const r = await rig();
    const idle = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    const pinging = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    for (let i = 0; i < 5; i++) {
      await r.clock.advance(60_000);
      expect(await pinging.request({ ping: i })).toEqual({ pong: i });
    }
    await r.clock.advance(1000);
    expect(await idle.waitClose()).toEqual({ code: 4000, reason: 'no ping or message for 300000 ms' });
    expect(pinging.closed).toBeUndefined();
  });

  it('closes a connection after its maximum lifetime', async () => {
    const r = await rig({ maxLifetimeMs: 10_000 });
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    await r.clock.advance(10_000);
    expect((await c.waitClose()).code).toBe(4002);
  });

  it('dropAll and kill cut sockets without a close frame', async () => {
    const r = await rig();
    const a = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    const b = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    const [first] = r.streams.connections();
    expect(r.streams.kill(first?.id ?? -1)).toBe(true);
    expect((await a.waitClose()).code).toBe(1006);
    r.streams.dropAll();
    expect((await b.waitClose()).code).toBe(1006);
  });

  it('silent mode sends nothing and answers no pings until switched off', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    r.streams.setSilent(true);
    c.send({ ping: 1 });
    fill(r, '1', '1', 'x');
    let ponged = false;
    c.ws.once('pong', () => (ponged = true));
    c.ws.ping();
    expect(await c.quiet(150)).toBe(true);
    expect(ponged).toBe(false);
    r.streams.setSilent(false);
    expect(await c.request({ ping: 2 })).toEqual({ pong: 2 });
  });

  it('close() ends every connection and leaves no timer behind', async () => {
    const r = await rig();
    const c = await r.open('/openapi/quote/ws/v3/btcphp@trade');
    expect(r.clock.pending).toBeGreaterThan(0);
    await r.streams.close();
    expect((await c.waitClose()).code).toBe(1001);
    expect(r.clock.pending).toBe(0);
  });

  it('on the system clock, short configured periods push for real and close() clears every timer', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((t) => t === 'Timeout').length;
    const before = timers();
    const book = new FakeBook();
    const store = new MarketDataStore(systemClock, book);
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const timings = { klineMs: 20, tickerMs: 20, depthFastMs: 10, depthSlowMs: 20, sweepMs: 20 };
    const streams = attachStreams(http, { clock: systemClock, store, book, listenKeys: new FakeListenKeys(), isSymbol: () => true, timings });
    const c = await TestClient.open(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/openapi/quote/ws/v3/btcphp@depth5`);
    book.change(streams, 'BTCPHP', { bids: [['1', '1']] });
    // A push of the book as it was when the stream opened (empty) may come first under load.
    const pushed = await c.next((f) => f.json['e'] === 'depth' && JSON.stringify(f.json['bids']) === '[["1","1"]]');
    expect(pushed.json).toMatchObject({ e: 'depth', bids: [['1', '1']] });
    expect(timers()).toBeGreaterThan(before);
    await streams.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    expect(timers()).toBe(before);
  });
});
