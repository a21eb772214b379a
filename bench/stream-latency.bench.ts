/**
 * Stream and order latency on loopback (issue 20, "Live trading core", Acceptance `npm run bench`),
 * every figure next to a bare-library baseline measured in the same run.
 *
 * The sandbox runs in its own process (bench/live-sandbox-child.ts, forked), as a venue would: its
 * matching, HTTP answers and stream writes use the other core instead of the event loop of the
 * client measured against it. (In one process the client read a frame only after the sandbox had
 * finished the whole request that caused it.)
 *
 * - Baseline 1: a bare `ws` client on a user data path sends `{"ping":n}` and waits for the
 *   sandbox's `{"pong":n}`: a round trip through the sandbox's stream server.
 * - A maker fill's executionReport, from the sandbox's write (timed in the child with
 *   `process.hrtime.bigint()`, CLOCK_MONOTONIC, the same clock in both processes, keyed by client
 *   order id and trade id) to the strategy's `onFill` through `UserDataStream`, `LiveVenue`, the
 *   `OrderManager` and the `Kernel`, with a journal: the path a live process runs. The fill is the
 *   demo account's resting SELL taken by a second account's hand-signed undici order, so its
 *   executionReport reaches the strategy only by the stream. Target: p99 at most 2x baseline 1.
 * - Baseline 2: a bare undici POST of a signed newOrder (FULL) by a third account that has its own
 *   user stream open (the sandbox writes the NEW and account frames to that stream before it
 *   answers, as it does for the live venue's account), each followed by a DELETE.
 * - Place-order round trip: `LiveVenue.send` of a resting LIMIT to the strategy's
 *   `onOrderUpdate` NEW, each followed by a cancel (the next place leaves from the CANCELED
 *   callback, as the baseline's next POST leaves after the DELETE's answer). Target: p50 at most
 *   1.5x baseline 2. Its stages are timed: the order manager's submit (intent returned ->
 *   `venue.send`), the venue and client before the request (journal, signing, checks; the
 *   request's start is undici's `undici:request:create` diagnostics channel), HTTP (-> response
 *   headers), the answer's body, parse and mapping (-> `venue.deliver`), the seen ledger and the
 *   journal (-> the kernel's sink), the kernel and order manager (-> the callback).
 *
 * Robustness on a shared machine: a warm-up round first (left out), then REPS rounds; each round
 * measures every series once, interleaved, and the ratios are taken within a round. Reported:
 * the median over the rounds of each p50, p99 and ratio, with the range. Latency on a loaded
 * host is mostly waiting for a core, so each phase's CPU time in this process (`process.cpuUsage`)
 * and the journal's commits per cycle are printed too: what the code costs, whatever the load.
 *
 * Environment: `BENCH_REPS` (default 5) rounds; `BENCH_JOURNAL=0` runs the live venue without a
 * journal (the journal's share); `BENCH_CPU=user|system` counts that part of the CPU time only;
 * `BENCH_PRAGMA="wal_autocheckpoint=0;..."` sets pragmas on the bench's journal connection.
 */
import { fork } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { openJournal } from '../src/journal/journal.ts';
import { LiveVenue } from '../src/live/venue/live-venue.ts';
import type { VenueCommand } from '../src/ports/venue.ts';
import { defineStrategy } from '../src/strategy/define.ts';
import { cancel, place } from '../src/strategy/intents/intents.ts';
import type { ChildReady } from './live-sandbox-child.ts';

const REPS = Math.max(1, Number(process.env['BENCH_REPS'] ?? 5));
/** `BENCH_JOURNAL=0`: the live venue without a journal (to show the journal's share). */
const JOURNAL = process.env['BENCH_JOURNAL'] !== '0';
/** `BENCH_CPU=user|system`: the CPU lines count that part only (default both). */
const CPU_PART = process.env['BENCH_CPU'] ?? 'both';
const PINGS = 1000;
const FILLS = 1000;
const PLACES = 500;
/** The warm-up round's counts (left out of every figure). */
const WARM = { pings: 500, fills: 400, places: 200 };
/** Fills of 0.001 each maker order takes before the strategy places the next (a live strategy's orders take a few). */
const FILLS_PER_MAKER = 20;
const HUGE = { limit: 1e12, windowMs: 60_000 };
const SYMBOL = 'BTCPHP';
const MAKER_PRICE = '3000000';
const REST_PRICE = '2900000';

/** Microseconds on CLOCK_MONOTONIC: comparable with the child's `process.hrtime.bigint()`. */
const us = (): number => Number(process.hrtime.bigint()) / 1000;

interface Stats {
  p50: number;
  p99: number;
  n: number;
}

function stats(xs: readonly number[]): Stats {
  const a = [...xs].sort((x, y) => x - y);
  const at = (q: number) => a[Math.floor(q * (a.length - 1))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), n: a.length };
}

const median = (xs: readonly number[]): number => {
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 === 1 ? (a[m] as number) : ((a[m - 1] as number) + (a[m] as number)) / 2;
};

/** One series over the rounds: `rounds[r]` the samples of round r. */
type Series = number[][];

const range = (xs: readonly number[], digits: number): string => (xs.length > 1 ? ` [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]` : '');

function line(label: string, s: Series, base?: Series, target?: { ratio: number; on: 'p50' | 'p99' }): string {
  const per = s.map(stats);
  const p50 = per.map((x) => x.p50);
  const p99 = per.map((x) => x.p99);
  const n = per.reduce((t, x) => t + x.n, 0);
  if (n === 0) return `  ${label.padEnd(74)} (no sample this run)`;
  const head = `  ${label.padEnd(74)} p50 ${median(p50).toFixed(0).padStart(5)} us${range(p50, 0).padEnd(14)} p99 ${median(p99).toFixed(0).padStart(6)} us${range(p99, 0).padEnd(16)} (n ${n})`;
  if (!base) return `${head}  (baseline)`;
  const b = base.map(stats);
  const r50 = per.map((x, i) => x.p50 / (b[i] as Stats).p50);
  const r99 = per.map((x, i) => x.p99 / (b[i] as Stats).p99);
  let verdict = '';
  if (target) {
    const r = median(target.on === 'p50' ? r50 : r99);
    verdict = `: ${target.on} ${r.toFixed(2)}x, target <= ${target.ratio}x ${r <= target.ratio ? 'met' : 'NOT met'}`;
  }
  return `${head}  ${median(r50).toFixed(2)}x${range(r50, 2)} / ${median(r99).toFixed(2)}x${range(r99, 2)}${verdict}`;
}

function cpuLine(label: string, s: Series): string {
  const per = s.map((r) => r[0] ?? NaN);
  return `    ${label.padEnd(72)} ${median(per).toFixed(0).padStart(5)} us${range(per, 0)}`;
}

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

/** Sums the time spent in `obj[name]` (not counting calls nested in another timed call). */
function timeCalls(obj: object, name: string, acc: { us: number; depth: number; calls: number }, write = true): void {
  const o = obj as Record<string, (...a: unknown[]) => unknown>;
  const f = (o[name] as (...a: unknown[]) => unknown).bind(obj);
  o[name] = (...args: unknown[]) => {
    if (acc.depth++ > 0) {
      try {
        return f(...args);
      } finally {
        acc.depth--;
      }
    }
    const t = us();
    if (write) acc.calls++;
    try {
      return f(...args);
    } finally {
      acc.us += us() - t;
      acc.depth--;
    }
  };
}

export async function run(): Promise<string[]> {
  const child = fork(fileURLToPath(new URL('./live-sandbox-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`stream-latency bench: the sandbox process exited (${code})`)));
    child.on('message', (m: { kind: string }) => {
      if (m.kind === 'ready') resolve(m as ChildReady);
    });
  });
  const written = (): Promise<Map<string, number>> =>
    new Promise((resolve) => {
      const on = (m: { kind: string; times?: [string, string][] }) => {
        if (m.kind !== 'written') return;
        child.off('message', on);
        resolve(new Map((m.times ?? []).map(([k, t]) => [k, Number(BigInt(t)) / 1000])));
      };
      child.on('message', on);
      child.send({ kind: 'written' });
    });

  // The client socket's 'message' event for an executionReport: where the project's code starts.
  let arrivedAt = 0;
  const wsEmit = WebSocket.prototype.emit;
  WebSocket.prototype.emit = function (this: WebSocket & { _isServer?: boolean }, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && this._isServer === false && isExecutionReport(args[0])) arrivedAt = us();
    return wsEmit.call(this, event, ...args);
  };
  // undici's request start (after the client's checks and signing) and response headers, by the new order's client id.
  const requestAt = new Map<string, number>();
  const headersAt = new Map<string, number>();
  const newOrderCid = (m: unknown): string | undefined => {
    const r = (m as { request: { method: string; path: string } }).request;
    return r.method === 'POST' && r.path.startsWith('/openapi/v1/order?') ? /[?&]newClientOrderId=([^&]+)/.exec(r.path)?.[1] : undefined;
  };
  const onCreate = (m: unknown) => {
    const cid = newOrderCid(m);
    if (cid !== undefined) requestAt.set(cid, us());
  };
  const onHeaders = (m: unknown) => {
    const cid = newOrderCid(m);
    if (cid !== undefined) headersAt.set(cid, us());
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:headers', onHeaders);

  const dir = mkdtempSync(join(tmpdir(), 'halyard-bench-'));
  const journal = openJournal(join(dir, 'journal.db'));
  // `BENCH_PRAGMA="a=1;b=2"`: pragmas set on the bench's journal connection (to try a setting).
  for (const p of (process.env['BENCH_PRAGMA'] ?? '').split(';').filter(Boolean)) journal.db.pragma(p);
  journal.liveRuns.begin({ id: 'bench', kind: 'sandbox', strategies: [{ name: 'latency' }], config: {}, startedAt: Date.now() });
  // Time in the journal, and its top-level calls: each is one commit (a transaction, or an autocommitted write).
  const journalTime = { us: 0, depth: 0, calls: 0 };
  timeCalls(journal, 'transaction', journalTime);
  for (const m of ['record', 'answer', 'resolve']) timeCalls(journal.requests, m, journalTime);
  for (const m of ['insert', 'update', 'addEvent']) timeCalls(journal.orders, m, journalTime);
  timeCalls(journal.orders, 'get', journalTime, false);
  timeCalls(journal.fills, 'insert', journalTime);
  timeCalls(journal.balances, 'record', journalTime);

  const exchange = parseConfig({ exchange: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE }, retry: { maxAttempts: 1 } } }).exchange;
  const handle = createClient({ baseUrl: ready.baseUrl, exchange, secrets: { apiKey: ready.apiKey, apiSecret: ready.apiSecret } });
  const posterHandle = createClient({ baseUrl: ready.baseUrl, exchange, secrets: { apiKey: ready.poster.apiKey, apiSecret: ready.poster.secret } });
  const client = handle.client;
  const pool = new Pool(ready.baseUrl, { connections: 1 });
  const signed = (key: { apiKey: string; secret: string }, method: 'POST' | 'DELETE', query: string) => {
    const q = `${query}&timestamp=${Date.now()}`;
    return pool.request({ method, path: `/openapi/v1/order?${q}&signature=${hmacSha256Hex(key.secret, q)}`, headers: { 'X-SERVICE-APIKEY': key.apiKey } });
  };
  const demoKey = { apiKey: ready.apiKey, secret: ready.apiSecret };
  const takerBuy = async (i: number): Promise<void> => {
    const r = await signed(ready.taker, 'POST', `symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=IOC&quantity=0.001&price=${MAKER_PRICE}&newClientOrderId=t${i}`);
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}: ${text}`);
  };
  const closers: (() => unknown)[] = [];
  try {
    // The baselines' sockets: user data paths of the third account (nothing else writes to them).
    const { listenKey: pingKey } = await posterHandle.client.userStream.startUserDataStream();
    const bare = new WebSocket(userDataUrl(ready.wsUrl, pingKey));
    await new Promise((resolve, reject) => bare.once('open', resolve).once('error', reject));
    closers.push(() => bare.close());
    const pong = signal();
    bare.on('message', (d: Buffer) => {
      if (d[2] === 0x70 && d[3] === 0x6f) pong.next(); // {"pong":
    });

    // The live path: UserDataStream -> LiveVenue -> OrderManager -> Kernel -> strategy.
    const now = Date.now;
    const instruments = parseInstruments(await client.general.exchangeInfo());
    const om = new OrderManager({ runId: 'bench', now, instruments: [...instruments.values()], balances: { BTC: '100', PHP: '100000000' } });
    const stream = new UserDataStream<UserStreamEvent>({ listenKeys: client.userStream, wsUrl: ready.wsUrl, decode: decodeUserEvent });
    const venue = new LiveVenue({ client, stream, journal: JOURNAL ? journal : undefined, runId: 'bench', symbols: [SYMBOL], now });
    closers.push(() => venue.close());

    // Per-round samples.
    const rounds = {
      ping: [] as Series,
      fillFromWrite: [] as Series,
      fillOwn: [] as Series,
      fillToSink: [] as Series,
      fillKernel: [] as Series,
      writeToArrival: [] as Series,
      post: [] as Series,
      postHttp: [] as Series,
      place: [] as Series,
      submit: [] as Series,
      preHttp: [] as Series,
      journalInPlace: [] as Series,
      cpuPlace: [] as Series,
      cpuPost: [] as Series,
      commitsPlace: [] as Series,
      commitsFill: [] as Series,
      postSame: [] as Series,
      cpuFill: [] as Series,
      cpuPing: [] as Series,
      viaStream: [] as Series,
      http: [] as Series,
      answer: [] as Series,
      deliver: [] as Series,
      kernel: [] as Series,
    };
    let cur: Record<keyof typeof rounds, number[]> = fresh();
    function fresh(): Record<keyof typeof rounds, number[]> {
      return Object.fromEntries(Object.keys(rounds).map((k) => [k, []])) as unknown as Record<keyof typeof rounds, number[]>;
    }
    /** Fill keys (c|TRADE|t) of this round -> the strategy's receipt time, for the join with the child's write times. */
    let fillSeen = new Map<string, { at: number; arrived: number }>();
    const fillKeys: Map<string, { at: number; arrived: number }>[] = [];

    // Place-cycle stamps, by client order id.
    let intentAt = 0;
    const sentAt = new Map<string, { at: number; journal: number }>();
    const deliverAt = new Map<string, number>();
    let lastPath = '';
    const send = venue.send.bind(venue);
    venue.send = (c: VenueCommand) => {
      if (c.kind === 'place' && c.side === 'BUY') sentAt.set(c.clientOrderId, { at: us(), journal: journalTime.us });
      send(c);
    };
    const deliver = venue.deliver.bind(venue);
    venue.deliver = (events, path) => {
      lastPath = path;
      const e = events[0];
      if (path === 'newOrder' && e !== undefined && 'clientOrderId' in e && !deliverAt.has(e.clientOrderId)) deliverAt.set(e.clientOrderId, us());
      return deliver(events, path);
    };

    let sinkAt = 0;
    const connect = venue.connect.bind(venue);
    venue.connect = (sink) =>
      connect((events) => {
        sinkAt = us();
        sink(events);
      });

    const filled = signal();
    const placed = signal();
    let mode: 'fills' | 'orders' = 'fills';
    let left = 0;
    let makerFills = 0;
    const makerOrder = () => place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: (FILLS_PER_MAKER / 1000).toFixed(3), price: MAKER_PRICE, tag: 'maker' });
    const resting = () => {
      intentAt = us();
      return place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: REST_PRICE, tag: 'rest' });
    };
    const strategy = defineStrategy({
      name: 'latency',
      params: z.object({}),
      symbols: [SYMBOL],
      onStart: () => [makerOrder()],
      onTrade: () => (mode === 'orders' ? [resting()] : undefined),
      onFill: (_ctx, f) => {
        const t = us();
        fillSeen.set(`${f.clientOrderId}|TRADE|${f.tradeId}`, { at: t, arrived: arrivedAt });
        cur.fillOwn.push(t - arrivedAt);
        cur.fillToSink.push(sinkAt - arrivedAt);
        cur.fillKernel.push(t - sinkAt);
        // The order's last fill: the next taker waits for the new maker order's NEW.
        if (++makerFills % FILLS_PER_MAKER !== 0) filled.next();
        return undefined;
      },
      onOrderUpdate: (_ctx, u) => {
        if (u.tag === 'maker' && u.status === 'NEW') filled.next();
        if (u.tag === 'maker' && u.status === 'FILLED') return [makerOrder()];
        if (u.tag !== 'rest') return undefined;
        if (u.status === 'NEW') {
          const t = us();
          const cid = u.clientOrderId;
          const sent = sentAt.get(cid);
          const req = requestAt.get(cid);
          const head = headersAt.get(cid);
          const dlv = deliverAt.get(cid);
          if (sent !== undefined && req !== undefined) {
            cur.place.push(t - sent.at);
            cur.kernel.push(t - sinkAt);
            cur.preHttp.push(req - sent.at);
            cur.journalInPlace.push(journalTime.us - sent.journal);
            if (lastPath === 'newOrder' && head !== undefined && dlv !== undefined) {
              cur.http.push(head - req);
              cur.answer.push(dlv - head);
              cur.deliver.push(sinkAt - dlv);
            } else {
              cur.viaStream.push(t - sent.at);
            }
          }
          sentAt.delete(cid);
          requestAt.delete(cid);
          headersAt.delete(cid);
          deliverAt.delete(cid);
          return [cancel({ symbol: SYMBOL, clientOrderId: u.clientOrderId })];
        }
        if (u.status === 'CANCELED') {
          if (--left > 0) return [resting()];
          placed.next();
        }
        return undefined;
      },
    });
    // The order manager's submit: the intent's return to venue.send, measured where send starts.
    const submitSend = venue.send;
    venue.send = (c: VenueCommand) => {
      if (c.kind === 'place' && c.side === 'BUY') cur.submit.push(us() - intentAt);
      submitSend(c);
    };
    const kernel = new Kernel({ orders: om, venue, clock: { now } });
    kernel.addStrategy(strategy);
    venue.start();
    await waitUntil(() => venue.streamHealth.state === 'LIVE');
    const makerNew = filled.wait();
    kernel.start();
    await makerNew;

    let taker = 0;
    let posted = 0;
    const round = async (n: { pings: number; fills: number; places: number }): Promise<void> => {
      cur = fresh();
      fillSeen = new Map();
      // This process's CPU time (user + system) per round trip of each phase: what the code costs, whatever the host's load.
      const cpu = () => {
        const c = process.cpuUsage();
        return CPU_PART === 'user' ? c.user : CPU_PART === 'system' ? c.system : c.user + c.system;
      };
      let c0 = cpu();
      let k0 = journalTime.calls;
      // 1. Bare ws round trip.
      for (let i = 0; i < n.pings; i++) {
        const t = us();
        const got = pong.wait();
        bare.send(`{"ping":${i}}`);
        await got;
        cur.ping.push(us() - t);
      }
      cur.cpuPing.push((cpu() - c0) / n.pings);
      c0 = cpu();
      // 2. Maker fills to the strategy.
      mode = 'fills';
      for (let i = 0; i < n.fills; i++) {
        const got = filled.wait();
        await takerBuy(taker++);
        await got;
      }
      cur.cpuFill.push((cpu() - c0) / n.fills);
      cur.commitsFill.push((journalTime.calls - k0) / n.fills);
      c0 = cpu();
      k0 = journalTime.calls;
      // 3. Place round trips through the live venue, started by a market trade the strategy answers.
      mode = 'orders';
      left = n.places;
      const ordersDone = placed.wait();
      kernel.trade({ symbol: SYMBOL, id: String(taker), price: MAKER_PRICE, qty: '0.001', time: Date.now(), buyerIsMaker: false });
      await ordersDone;
      mode = 'fills';
      await venue.idle();
      cur.cpuPlace.push((cpu() - c0) / n.places);
      cur.commitsPlace.push((journalTime.calls - k0) / n.places);
      c0 = cpu();
      // 4. Bare undici POST + DELETE by the third account, its user stream open.
      for (let i = 0; i < n.places; i++) {
        const cid = `p${posted++}`;
        const t = us();
        const r = await signed(ready.poster, 'POST', `symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=${REST_PRICE}&newOrderRespType=FULL&newClientOrderId=${cid}`);
        await r.body.text();
        const done = us();
        cur.post.push(done - t);
        cur.postHttp.push((headersAt.get(cid) ?? NaN) - (requestAt.get(cid) ?? NaN));
        requestAt.delete(cid);
        headersAt.delete(cid);
        await (await signed(ready.poster, 'DELETE', `symbol=${SYMBOL}&origClientOrderId=${cid}`)).body.text();
      }
      cur.cpuPost.push((cpu() - c0) / n.places);
      // 5. The same bare POST + DELETE by the live venue's own account (its history, its stream: the venue reads the frames and leaves them, not its orders).
      for (let i = 0; i < n.places; i++) {
        const cid = `q${posted++}`;
        const t = us();
        const r = await signed(demoKey, 'POST', `symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=${REST_PRICE}&newOrderRespType=FULL&newClientOrderId=${cid}`);
        await r.body.text();
        cur.postSame.push(us() - t);
        requestAt.delete(cid);
        headersAt.delete(cid);
        await (await signed(demoKey, 'DELETE', `symbol=${SYMBOL}&origClientOrderId=${cid}`)).body.text();
      }
      fillKeys.push(fillSeen);
    };
    // The poster's own user stream, read as a client would, for the whole run.
    const { listenKey: postKey } = await posterHandle.client.userStream.startUserDataStream();
    const posterWs = new WebSocket(userDataUrl(ready.wsUrl, postKey));
    await new Promise((resolve, reject) => posterWs.once('open', resolve).once('error', reject));
    posterWs.on('message', (d: Buffer) => void JSON.parse(d.toString()));
    closers.push(() => posterWs.close());

    await round(WARM);
    fillKeys.length = 0;
    for (let r = 0; r < REPS; r++) {
      await round({ pings: PINGS, fills: FILLS, places: PLACES });
      for (const k of Object.keys(rounds) as (keyof typeof rounds)[]) rounds[k].push(cur[k]);
    }
    kernel.stop();
    // The sandbox's write times, joined by fill.
    const writes = await written();
    for (const [r, seen] of fillKeys.entries()) {
      const a: number[] = [];
      const w: number[] = [];
      for (const [k, v] of seen) {
        const at = writes.get(k);
        if (at === undefined) continue;
        a.push(v.at - at);
        w.push(v.arrived - at);
      }
      rounds.fillFromWrite[r] = a;
      rounds.writeToArrival[r] = w;
    }
    const R = rounds;
    return [
      `Stream and order latency on loopback, sandbox in its own process, journal ${JOURNAL ? 'on' : 'OFF'} (${REPS} rounds after a warm-up round; median over rounds [range])`,
      line('bare ws {"ping"} -> {"pong"} round trip, user data path', R.ping),
      line('executionReport: sandbox write -> strategy onFill (LiveVenue, OrderManager, Kernel)', R.fillFromWrite, R.ping, { ratio: 2, on: 'p99' }),
      line('  sandbox write -> client socket message event (loopback, ws)', R.writeToArrival, R.ping),
      line('  client socket message event -> strategy onFill (the project)', R.fillOwn, R.ping),
      line('    message event -> LiveVenue hands the batch to the kernel', R.fillToSink, R.ping),
      line('    kernel: OrderManager applies the batch -> strategy onFill', R.fillKernel, R.ping),
      line('bare undici POST signed newOrder (FULL) -> answer, user stream open', R.post),
      line('  of which undici request start -> response headers', R.postHttp, R.post),
      line('  the same by the live venue\'s own account (its history; the venue reads its frames)', R.postSame, R.post),
      line('LiveVenue.send place -> strategy onOrderUpdate NEW', R.place, R.post, { ratio: 1.5, on: 'p50' }),
      line('  venue.send -> undici request start (ledger, journal, client checks, signing)', R.preHttp, R.post),
      line('  journal time between venue.send and the NEW (all writes on the thread then)', R.journalInPlace, R.post),
      line('  NEW by the REST answer (when its answer came before the stream\'s NEW): request start -> headers', R.http, R.post),
      line('  NEW by the REST answer: headers -> venue.deliver (body, parse, mapping)', R.answer, R.post),
      line('  NEW by the REST answer: venue.deliver -> kernel sink (ledger, journal)', R.deliver, R.post),
      line('  NEW by the user stream first: venue.send -> onOrderUpdate NEW', R.viaStream, R.post),
      line('  kernel sink -> onOrderUpdate NEW (OrderManager, Kernel)', R.kernel, R.post),
      line('(not in the round trip) strategy intent -> venue.send (OrderManager submit)', R.submit, R.post),
      `  This process's CPU time per cycle (user + system, median over rounds; the host's load does not change it much):`,
      cpuLine('bare ws ping round trip', R.cpuPing),
      cpuLine('maker fill: taker POST (bare undici) + the fill through the live path', R.cpuFill),
      cpuLine('bare undici POST + DELETE, its user stream read', R.cpuPost),
      cpuLine('live place + cancel cycle (LiveVenue, journal, OrderManager, Kernel)', R.cpuPlace),
      `  Journal commits (top-level transactions and autocommitted writes): ${median(R.commitsFill.map((r) => r[0] ?? NaN)).toFixed(1)} a maker fill, ${median(R.commitsPlace.map((r) => r[0] ?? NaN)).toFixed(1)} a place + cancel cycle`,
    ];
  } finally {
    WebSocket.prototype.emit = wsEmit;
    unsubscribe('undici:request:create', onCreate);
    unsubscribe('undici:request:headers', onHeaders);
    for (const c of closers.reverse()) await c();
    await handle.close();
    await posterHandle.close();
    await pool.close();
    journal.close();
    rmSync(dir, { recursive: true, force: true });
    child.send({ kind: 'close' });
    await new Promise((r) => child.once('exit', r));
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
