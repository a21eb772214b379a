/**
 * Stream and order latency on loopback (issue 20, "Live trading core"): the sandbox in process,
 * every figure next to a bare-library baseline measured in the same run.
 *
 * - Baseline: a bare `ws` client on the user data path sends `{"ping":n}` and waits for the
 *   sandbox's `{"pong":n}` (a full round trip through the sandbox's stream server).
 * - A maker fill's executionReport from the moment the sandbox writes it (a wrapper around the
 *   sandbox's `StreamConnection.prototype.sendEvent`, installed by this file: `performance.now()`
 *   in the same process, so one clock and sub-millisecond resolution; the frame's `E` field has
 *   only milliseconds) to (1) the decoded event at a subscriber of `UserDataStream` with
 *   `decodeUserEvent`, and (2) the strategy's `onFill` through `LiveVenue`, the `OrderManager`
 *   and the `Kernel`: the path a live process runs. The fill is the resting order of the demo
 *   account taken by a second account's order (hand-signed undici POST), so its executionReport
 *   reaches the strategy only by the stream. Target (issue 20): p99 at most 2x the bare round trip.
 * - Place-order round trip: `LiveVenue.send` of a resting LIMIT (a wrapper records the command's
 *   time) to the strategy's `onOrderUpdate` NEW, whichever of the REST answer and the stream came
 *   first; next to a bare undici POST of a signed newOrder (the same FULL answer the venue asks
 *   for) to the same sandbox. Target: at most 1.5x.
 * The client, the stream, the strategy and the sandbox share one event loop, as the sandbox's own
 * end-to-end tests do: each figure includes the other side's turn on the loop.
 */
import { WebSocket } from 'ws';
import { Pool } from 'undici';
import { z } from 'zod';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { parseInstruments } from '../src/core/market/instrument.ts';
import { OrderManager } from '../src/core/orders/order-manager.ts';
import { Kernel } from '../src/engine/kernel.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { decodeUserEvent } from '../src/exchange/streams/user-payloads.ts';
import type { UserStreamEvent } from '../src/exchange/streams/user-payload-types.ts';
import { userDataUrl } from '../src/exchange/ws/stream-paths.ts';
import { UserDataStream } from '../src/exchange/ws/user-data-stream.ts';
import { LiveVenue } from '../src/live/venue/live-venue.ts';
import type { VenueCommand } from '../src/ports/venue.ts';
import { marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox } from '../src/sandbox/server.ts';
import { StreamConnection } from '../src/sandbox/streams/connection.ts';
import { defineStrategy } from '../src/strategy/define.ts';
import { cancel, place } from '../src/strategy/intents.ts';

const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

const PINGS = 3000;
const FILLS = 2000;
const PLACES = 1500;
const WARM = 200;
/**
 * Fills of 0.001 each maker order takes before the strategy places the next: an order with a
 * few fills, as a live strategy's are. (With one order taking all 2,000 fills the live venue's
 * part grows with the order's fill count: the seen ledger's `order()` copies and sorts the
 * order's trades for every stream event.)
 */
const FILLS_PER_MAKER = 20;
const HUGE = { limit: 1e12, windowMs: 60_000 };
const SYMBOL = 'BTCPHP';
const MAKER_PRICE = '3000000';
const REST_PRICE = '2900000';

interface Stats {
  p50: number;
  p99: number;
  n: number;
}

function stats(us: number[]): Stats {
  const a = us.slice(WARM).sort((x, y) => x - y);
  const at = (q: number) => a[Math.floor(q * (a.length - 1))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), n: a.length };
}

const fmt = (label: string, s: Stats, base?: Stats, target?: number, on: 'p50' | 'p99' = 'p99'): string => {
  const head = `  ${label.padEnd(78)} p50 ${s.p50.toFixed(0).padStart(6)} us  p99 ${s.p99.toFixed(0).padStart(6)} us  (n ${s.n})`;
  if (!base) return `${head}  (baseline)`;
  const r50 = s.p50 / base.p50;
  const r99 = s.p99 / base.p99;
  const verdict = target === undefined ? '' : `: ${on} ${(on === 'p99' ? r99 : r50).toFixed(2)}x, target <= ${target}x ${(on === 'p99' ? r99 : r50) <= target ? 'met' : 'NOT met'}`;
  return `${head}  ${r50.toFixed(2)}x / ${r99.toFixed(2)}x baseline${verdict}`;
};

/** Resolves at the next call of `next()`; one waiter at a time. */
function signal(): { wait: () => Promise<void>; next: () => void } {
  let resolve: (() => void) | undefined;
  return {
    wait: () => new Promise<void>((r) => (resolve = r)),
    next: () => {
      const r = resolve;
      resolve = undefined;
      r?.();
    },
  };
}

export async function run(): Promise<string[]> {
  // The sandbox's user-feed write, timed: the last executionReport frame written.
  let emittedAt = 0;
  // The client socket's 'message' event for that frame: where the project's code starts.
  let arrivedAt = 0;
  const wsEmit = WebSocket.prototype.emit;
  WebSocket.prototype.emit = function (this: WebSocket & { _isServer?: boolean }, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && this._isServer === false && isExecutionReport(args[0])) arrivedAt = performance.now();
    return wsEmit.call(this, event, ...args);
  };
  const original = StreamConnection.prototype.sendEvent;
  StreamConnection.prototype.sendEvent = function (this: StreamConnection, stream: string, text: string): void {
    if (text.startsWith('{"e":"executionReport"')) emittedAt = performance.now();
    original.call(this, stream, text);
  };

  const s = await startSandbox({ plugins: tradingPlugins(), config: { rateLimits: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE } } } });
  const now = () => s.clock.now();
  const maker = s.accounts.getKey(s.apiKey)!.accountId;
  s.services.balances?.credit(maker, 'BTC', '100');
  s.services.balances?.credit(maker, 'PHP', '100000000');
  const takerAccount = s.accounts.createAccount({ email: 'bench-taker@example.com', createdAt: now() });
  const takerKey = s.accounts.createKey({ accountId: takerAccount.id, createdAt: now() });
  s.services.balances?.credit(takerAccount.id, 'PHP', '100000000000');
  const pool = new Pool(s.baseUrl, { connections: 1 });
  const exchange = parseConfig({ exchange: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE }, retry: { maxAttempts: 1 } } }).exchange;
  const handle = createClient({ baseUrl: s.baseUrl, exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
  const client = handle.client;
  const takerPost = async (query: string): Promise<string> => {
    const q = `${query}&timestamp=${Date.now()}`;
    const r = await pool.request({ method: 'POST', path: `/openapi/v1/order?${q}&signature=${hmacSha256Hex(takerKey.secret, q)}`, headers: { 'X-SERVICE-APIKEY': takerKey.apiKey } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}: ${text}`);
    return text;
  };
  const takerBuy = (i: number) => takerPost(`symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=IOC&quantity=0.001&price=${MAKER_PRICE}&newClientOrderId=t${i}`);
  const closers: (() => unknown)[] = [];
  try {
    // 1. Bare ws round trip on the user data path.
    const { listenKey } = await client.userStream.startUserDataStream();
    const bare = new WebSocket(userDataUrl(s.wsUrl, listenKey));
    await new Promise((resolve, reject) => bare.once('open', resolve).once('error', reject));
    const pong = signal();
    bare.on('message', () => pong.next());
    const rtt: number[] = [];
    for (let i = 0; i < PINGS; i++) {
      const t = performance.now();
      const got = pong.wait();
      bare.send(`{"ping":${i}}`);
      await got;
      rtt.push((performance.now() - t) * 1000);
    }
    bare.close();
    const baseline = stats(rtt);

    // The demo account's resting SELL that every taker order below fills by 0.001.
    const cid = 'bench-maker';
    await client.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '5', price: MAKER_PRICE, newClientOrderId: cid });

    // 2. Sandbox write -> decoded event at a UserDataStream subscriber.
    const plain = new UserDataStream<UserStreamEvent>({ listenKeys: client.userStream, wsUrl: s.wsUrl, decode: decodeUserEvent, requireInitialSync: false });
    const decoded = signal();
    const toDecoded: number[] = [];
    const ownDecoded: number[] = [];
    plain.events$.subscribe((e) => {
      if (e.eventType === 'executionReport') {
        const t = performance.now();
        toDecoded.push((t - emittedAt) * 1000);
        ownDecoded.push((t - arrivedAt) * 1000);
        decoded.next();
      }
    });
    plain.start();
    await waitUntil(() => plain.health.state === 'LIVE');
    for (let i = 0; i < FILLS; i++) {
      const got = decoded.wait();
      await takerBuy(i);
      await got;
    }
    await plain.close();
    await client.spot.cancelOrder({ origClientOrderId: cid });

    // 3. The live path: UserDataStream -> LiveVenue -> OrderManager -> Kernel -> strategy.
    const instruments = parseInstruments(await client.general.exchangeInfo());
    const om = new OrderManager({ runId: 'bench', now, instruments: [...instruments.values()], balances: { BTC: '100', PHP: '100000000' } });
    const stream = new UserDataStream<UserStreamEvent>({ listenKeys: client.userStream, wsUrl: s.wsUrl, decode: decodeUserEvent });
    const venue = new LiveVenue({ client, stream, runId: 'bench', symbols: [SYMBOL], now });
    closers.push(() => venue.close());
    const sentAt = new Map<string, number>();
    const send = venue.send.bind(venue);
    venue.send = (c: VenueCommand) => {
      if (c.kind === 'place') sentAt.set(c.clientOrderId, performance.now());
      send(c);
    };
    const filled = signal();
    const placed = signal();
    const toStrategy: number[] = [];
    const ownStrategy: number[] = [];
    const toSink: number[] = [];
    const inKernel: number[] = [];
    const roundTrip: number[] = [];
    let mode: 'fills' | 'orders' = 'fills';
    let left = PLACES;
    let makerFills = 0;
    const makerOrder = () => place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: (FILLS_PER_MAKER / 1000).toFixed(3), price: MAKER_PRICE, tag: 'maker' });
    const resting = () => place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: REST_PRICE, tag: 'rest' });
    const strategy = defineStrategy({
      name: 'latency',
      params: z.object({}),
      symbols: [SYMBOL],
      onStart: () => [makerOrder()],
      onFill: () => {
        const t = performance.now();
        toStrategy.push((t - emittedAt) * 1000);
        ownStrategy.push((t - arrivedAt) * 1000);
        toSink.push((sinkAt - arrivedAt) * 1000);
        inKernel.push((t - sinkAt) * 1000);
        // The order's last fill: the next taker waits for the new maker order's NEW.
        if (++makerFills % FILLS_PER_MAKER !== 0) filled.next();
        return mode === 'orders' ? [resting()] : undefined;
      },
      onOrderUpdate: (_ctx, u) => {
        if (u.tag === 'maker' && u.status === 'NEW') filled.next();
        if (u.tag === 'maker' && u.status === 'FILLED' && mode === 'fills') return [makerOrder()];
        if (u.tag !== 'rest') return undefined;
        if (u.status === 'NEW') {
          roundTrip.push((performance.now() - (sentAt.get(u.clientOrderId) ?? NaN)) * 1000);
          return [cancel({ symbol: SYMBOL, clientOrderId: u.clientOrderId })];
        }
        if (u.status === 'CANCELED') {
          if (--left > 0) return [resting()];
          placed.next();
        }
        return undefined;
      },
    });
    // The venue's batch handed to the kernel: splits the project's part into venue and kernel.
    let sinkAt = 0;
    const connect = venue.connect.bind(venue);
    venue.connect = (sink) =>
      connect((events) => {
        sinkAt = performance.now();
        sink(events);
      });
    const kernel = new Kernel({ orders: om, venue, clock: { now } });
    kernel.addStrategy(strategy);
    venue.start();
    await waitUntil(() => venue.streamHealth.state === 'LIVE');
    const makerNew = filled.wait();
    kernel.start();
    await makerNew;
    for (let i = 0; i < FILLS; i++) {
      const got = filled.wait();
      await takerBuy(FILLS + i);
      await got;
    }
    // The last fill starts the strategy's place / acknowledge / cancel loop.
    mode = 'orders';
    const ordersDone = placed.wait();
    await takerBuy(2 * FILLS);
    await ordersDone;
    kernel.stop();

    // 4. Bare undici POST of the same signed newOrder (FULL answer), each cancelled untimed.
    const post: number[] = [];
    for (let i = 0; i < PLACES; i++) {
      const t = performance.now();
      await takerPost(`symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=${REST_PRICE}&newOrderRespType=FULL&newClientOrderId=p${i}`);
      post.push((performance.now() - t) * 1000);
      const q = `symbol=${SYMBOL}&origClientOrderId=p${i}&timestamp=${Date.now()}`;
      await (await pool.request({ method: 'DELETE', path: `/openapi/v1/order?${q}&signature=${hmacSha256Hex(takerKey.secret, q)}`, headers: { 'X-SERVICE-APIKEY': takerKey.apiKey } })).body.text();
    }
    const postStats = stats(post);
    return [
      `Stream and order latency on loopback, sandbox in process (first ${WARM} of each left out as warm-up)`,
      fmt(`bare ws {"ping"} -> {"pong"} round trip, user data path`, baseline),
      fmt('executionReport: sandbox write -> UserDataStream + decodeUserEvent subscriber', stats(toDecoded), baseline),
      fmt('executionReport: sandbox write -> strategy onFill (LiveVenue, OrderManager, Kernel)', stats(toStrategy), baseline, 2),
      fmt('  of which the project: client socket message event -> decoded subscriber', stats(ownDecoded), baseline),
      fmt('  of which the project: client socket message event -> strategy onFill', stats(ownStrategy), baseline),
      fmt('    message event -> LiveVenue hands the batch to the kernel', stats(toSink), baseline),
      fmt('    kernel: OrderManager applies the batch -> strategy onFill', stats(inKernel), baseline),
      fmt('bare undici POST signed newOrder (FULL) -> answer', postStats),
      fmt('LiveVenue.send place -> strategy onOrderUpdate NEW', stats(roundTrip), postStats, 1.5, 'p50'),
    ];
  } finally {
    StreamConnection.prototype.sendEvent = original;
    WebSocket.prototype.emit = wsEmit;
    for (const c of closers) await c();
    await handle.close();
    await pool.close();
    await s.close();
  }
}

const ER = Buffer.from('{"e":"executionReport"');
const isExecutionReport = (data: unknown): boolean => Buffer.isBuffer(data) && data.subarray(0, ER.length).equals(ER);

async function waitUntil(pred: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!pred()) {
    if (performance.now() > end) throw new Error('stream-latency bench: the stream did not come up');
    await new Promise((r) => setTimeout(r, 5));
  }
}
