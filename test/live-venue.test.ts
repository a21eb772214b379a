/**
 * The live venue end to end (issue 20 deliverables 4 and 5, acceptance items 1 to 5): the order
 * manager on a LiveVenue over the project's client and user data stream, against the sandbox over
 * real HTTP and WebSocket on 127.0.0.1; the stream's timers on a virtual scheduler, the sandbox on
 * a VirtualClock. What the strategy was told must equal what the sandbox says (openOrders,
 * historyOrders, myTrades), each fill exactly once, whatever faults were injected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamTimingsInput } from '../src/exchange/ws/stream-timings.ts';
import { z } from 'zod';
import { Kernel } from '../src/engine/kernel.ts';
import { defineStrategy } from '../src/strategy/define.ts';
import { cancel, place } from '../src/strategy/intents/intents.ts';
import { D } from '../src/core/money/decimal.ts';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal, type Journal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor, type Harness } from '../src/live/venue/testing/live-harness.ts';
import { STREAM_NOT_LIVE } from '../src/live/venue/stream-not-live.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';

interface Setup {
  s: SandboxHandle;
  clock: VirtualClock;
  h: Harness;
  journal: Journal;
  taker: ExchangeClient;
}

async function setup(opts: { runId?: string; exchange?: Record<string, unknown>; timings?: StreamTimingsInput } = {}): Promise<Setup> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
  defer(() => s.close());
  const dir = mkdtempSync(join(tmpdir(), 'halyard-live-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const journal = openJournal(join(dir, 'journal.sqlite'));
  defer(() => journal.close());
  const runId = opts.runId ?? 'run-1';
  journal.liveRuns.begin({ id: runId, kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
  const client = sandboxClient(s, defer, { exchange: opts.exchange ?? { retry: { maxAttempts: 1 } } });
  const h = await liveHarness(s, { runId, journal, client, ...(opts.timings ? { timings: opts.timings } : {}) });
  defer(() => h.close());
  const taker = counterparty(s);
  return { s, clock, h, journal, taker };
}

/** A second funded account: the market that fills the strategy's orders. */
function counterparty(s: SandboxHandle): ExchangeClient {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  s.services.balances?.credit(account.id, 'PHP', '10000000');
  s.services.balances?.credit(account.id, 'BTC', '1');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return handle.client;
}

const takerBuy = (taker: ExchangeClient, quantity: string, price: string) => taker.spot.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity, price });
const takerSell = (taker: ExchangeClient, quantity: string, price: string) => taker.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity, price });

/** What the strategy was told equals what the sandbox holds: every order's status and progress, the open ones, each trade once. */
async function expectStrategyMatchesVenue(x: Setup, cids: readonly string[]): Promise<void> {
  const { h } = x;
  const history = await h.client.spot.historyOrders({ symbol: SYMBOL });
  const open = await h.client.spot.openOrders({ symbol: SYMBOL });
  const trades = await h.client.spot.myTrades({ symbol: SYMBOL, limit: 1000 });
  for (const cid of cids) {
    const mine = h.om.orders.get(cid);
    const venue = [...history, ...open].find((o) => o.clientOrderId === cid);
    expect(mine, cid).toBeDefined();
    if (venue === undefined) {
      expect(mine?.status, `${cid} is not at the venue`).toMatch(/REJECTED|DENIED/);
      continue;
    }
    expect({ cid, status: mine?.status, executedQty: mine?.executedQty.toFixed(), orderId: mine?.orderId }).toEqual({ cid, status: venue.status, executedQty: new D(venue.executedQty).toFixed(), orderId: venue.orderId });
  }
  expect([...h.om.orders.openOrders('s1')].map((o) => o.clientOrderId).sort()).toEqual(open.map((o) => o.clientOrderId).filter((c) => cids.includes(c)).sort());
  const fills = h.fills.map((f) => ({ tradeId: f.tradeId, orderId: f.orderId, price: f.price, qty: f.qty, commission: f.commission, commissionAsset: f.commissionAsset, isMaker: f.isMaker, side: f.side }));
  const venueFills = trades.map((t) => ({ tradeId: t.id, orderId: t.orderId, price: t.price, qty: t.qty, commission: t.commission, commissionAsset: t.commissionAsset, isMaker: t.isMaker, side: t.isBuyer ? 'BUY' : 'SELL' }));
  const byId = (a: { tradeId: string }, b: { tradeId: string }) => (BigInt(a.tradeId) < BigInt(b.tradeId) ? -1 : 1);
  expect(fills.sort(byId)).toEqual(venueFills.sort(byId));
  // The journal holds the same fills, once each.
  const journaled = x.journal.fills.list({ symbol: SYMBOL }).map((f) => f.tradeId).sort();
  expect(journaled).toEqual(venueFills.map((f) => f.tradeId).sort());
}

describe('live venue: orders through the order manager (acceptance 1)', () => {
  it('places, partly fills, fills and cancels; updates and fills equal openOrders, historyOrders and myTrades', async () => {
    const x = await setup();
    const { h, taker } = x;
    await startLive(h);
    const [sell] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '3000000', tag: 'ask' });
    const [bid] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '2900000', tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(sell as string)?.status === 'NEW' && h.om.orders.get(bid as string)?.status === 'NEW');

    await takerBuy(taker, '0.0005', '3000000');
    await waitFor(() => h.om.orders.get(sell as string)?.status === 'PARTIALLY_FILLED', 5000, 'partial fill');
    await takerBuy(taker, '0.0015', '3000000');
    await waitFor(() => h.om.orders.get(sell as string)?.status === 'FILLED', 5000, 'fill');

    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(bid as string)?.status === 'CANCELED', 5000, 'cancel');

    // A market order of the strategy takes the taker's resting ask at once (FULL answer and stream both bring it).
    await takerSell(taker, '0.0007', '3100000');
    const [market] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.0003' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(market as string)?.status === 'FILLED', 5000, 'market fill');
    // Let any late stream copies arrive: they must be dropped, not applied twice.
    await waitFor(() => h.fills.length >= 3);
    await new Promise((r) => setTimeout(r, 100));

    expect(h.fills.map((f) => [f.clientOrderId, f.qty, f.orderStatus])).toEqual([
      [sell, '0.0005', 'PARTIALLY_FILLED'],
      [sell, '0.0015', 'FILLED'],
      [market, '0.0003', 'FILLED'],
    ]);
    expect(h.updates.filter((u) => u.clientOrderId === sell).map((u) => u.status)).toEqual(['NEW', 'PARTIALLY_FILLED', 'FILLED']);
    expect(h.updates.filter((u) => u.clientOrderId === bid).map((u) => u.status)).toEqual(['NEW', 'CANCELED']);
    expect(h.issues).toEqual([]);
    expect(h.logs.filter((l) => l.level === 'error' || l.topic === 'foreign')).toEqual([]);
    await expectStrategyMatchesVenue(x, [sell as string, bid as string, market as string]);
    // Journal: every request recorded and answered, none pending.
    expect(x.journal.requests.pending({ runId: 'run-1' })).toEqual([]);
    expect(x.journal.orders.get(sell as string)).toMatchObject({ status: 'FILLED', executedQty: '0.002' });
    expect(x.journal.orders.get(bid as string)).toMatchObject({ status: 'CANCELED' });
  });
});

const limitSell = (quantity: string, price: string, tag: string) => ({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity, price, tag }) as const;

/** Orders at the venue carrying `cid` (never more than one: nothing sent twice). */
async function venueCopies(h: Harness, cid: string): Promise<number> {
  const history = await h.client.spot.historyOrders({ symbol: SYMBOL });
  const open = await h.client.spot.openOrders({ symbol: SYMBOL });
  return new Set([...history, ...open].filter((o) => o.clientOrderId === cid).map((o) => o.orderId)).size;
}

describe('live venue: resync after every gap (acceptance 2 and 3)', () => {
  it('listen-key expiry: a new key, reconnect, resync; the fill made during the gap reaches the strategy exactly once', async () => {
    const x = await setup();
    const { s, clock, h, taker } = x;
    await startLive(h);
    const [ask] = h.submit(limitSell('0.002', '3000000', 'ask'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'NEW');
    const oldKey = h.stream.listenKey;

    await adminCall(s, 'POST', '/listen-keys/expire', { listenKey: oldKey });
    await clock.advance(1000); // the stream server's sweep closes the dead key's socket
    await waitFor(() => h.venue.streamHealth.state === 'DOWN', 5000, 'socket closed');
    await takerBuy(taker, '0.0008', '3000000'); // the fill nobody is listening for
    expect(h.fills).toEqual([]);

    await h.vt.advance(8000);
    await waitFor(() => h.venue.streamHealth.state === 'LIVE', 5000, 'LIVE again');
    await h.venue.idle();
    expect(h.stream.listenKey).not.toBe(oldKey);
    expect(h.fills.map((f) => [f.clientOrderId, f.qty, f.orderStatus])).toEqual([[ask, '0.0008', 'PARTIALLY_FILLED']]);
    const resync = h.venue.resyncs.at(-1);
    expect(resync?.reason).toMatch(/listenKey expired|-1125/);
    expect(resync?.delivered.filter((e) => e.kind === 'fill')).toHaveLength(1);
    // The journal says why: a resync report with the missed fill.
    const reports = x.journal.reconciliations.byRun('run-1').filter((r) => r.kind === 'resync');
    expect(reports.at(-1)?.report.missedFills).toHaveLength(1);
    expect(x.journal.streamHealth.byRun('run-1').map((c) => c.to)).toContain('RESYNCING');

    // Later fills come by the stream again, once.
    await takerBuy(taker, '0.0012', '3000000');
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'FILLED', 5000, 'filled over the stream');
    await expectStrategyMatchesVenue(x, [ask as string]);
  });

  it('socket dropped mid-fill: new orders denied with STREAM_NOT_LIVE, cancels still go out, the fill arrives once after the resync', async () => {
    const x = await setup();
    const { s, h, taker } = x;
    await startLive(h);
    const [ask, bid] = h.submit(limitSell('0.002', '3000000', 'ask'), { kind: 'place', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '2900000', tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(bid as string)?.status === 'NEW' && h.om.orders.get(ask as string)?.status === 'NEW');

    s.services.streams?.dropAll();
    await takerBuy(taker, '0.0005', '3000000');
    await waitFor(() => h.venue.streamHealth.state !== 'LIVE', 5000, 'stream down');
    const [denied] = h.submit(limitSell('0.001', '3100000', 'more'));
    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(bid as string)?.status === 'CANCELED', 5000, 'cancel while down');
    const update = h.updates.find((u) => u.clientOrderId === denied);
    expect(update).toMatchObject({ status: 'REJECTED' });
    expect(update?.reason).toMatch(new RegExp(`^${STREAM_NOT_LIVE}: the user data stream is (DOWN|CONNECTING|RESYNCING)`));
    expect(await venueCopies(h, denied as string)).toBe(0);

    await h.vt.advance(8000);
    await waitFor(() => h.venue.streamHealth.state === 'LIVE', 5000, 'LIVE again');
    await h.venue.idle();
    expect(h.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[ask, '0.0005']]);
    await expectStrategyMatchesVenue(x, [ask as string, bid as string, denied as string]);
    expect(h.logs.some((l) => l.topic === 'order' && l.message.includes(`${denied} denied: ${STREAM_NOT_LIVE}`))).toBe(true);
  });
});

describe('live venue: a silent stream (STALE)', () => {
  it('no message or pong within the bound: STALE, new orders denied, then a new socket, a resync, and the fill made meanwhile exactly once', async () => {
    // The venue's pacing (notes 1): a ping every 3 minutes, a pong expected within 30 s.
    const x = await setup({ timings: { pingIntervalMs: 180_000, pongTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 } } });
    const { s, h, taker } = x;
    await startLive(h);
    const [ask] = h.submit(limitSell('0.002', '3000000', 'ask'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'NEW');

    s.services.streams?.setSilent(true); // the socket stays open; nothing comes, pongs neither
    await takerBuy(taker, '0.0005', '3000000');
    await h.vt.advance(180_000 + 30_000 + 1);
    await waitFor(() => h.venue.streamHealth.state !== 'LIVE', 5000, 'not LIVE after the silence');
    expect(h.logs.some((l) => l.topic === 'health' && /STALE/.test(l.message))).toBe(true);
    const [denied] = h.submit(limitSell('0.001', '3100000', 'more'));
    await h.venue.idle();
    expect(h.updates.find((u) => u.clientOrderId === denied)?.reason).toMatch(new RegExp(`^${STREAM_NOT_LIVE}`));
    expect(await venueCopies(h, denied as string)).toBe(0);

    s.services.streams?.setSilent(false);
    await h.vt.advance(8000);
    await waitFor(() => h.venue.streamHealth.state === 'LIVE', 5000, 'LIVE again');
    await h.venue.idle();
    expect(h.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[ask, '0.0005']]);
    await expectStrategyMatchesVenue(x, [ask as string, denied as string]);
  });
});

describe('live venue: unknown outcomes (acceptance 4)', () => {
  it('a 5xx after the order was committed: UNKNOWN, found by query, never sent twice, then its real state', async () => {
    const x = await setup();
    const { s, h } = x;
    await startLive(h);
    await adminCall(s, 'POST', '/faults', { kind: 'error-after', endpoint: 'spot.newOrder', count: 1 });
    // The stream's NEW report lost too (else it may overtake the 5xx and the order is never in doubt).
    s.services.streams?.setSilent(true);
    const [ask] = h.submit(limitSell('0.001', '3000000', 'ask'));
    await h.venue.idle();
    s.services.streams?.setSilent(false);
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'NEW', 5000, 'resolved');
    const trace = h.trace.filter(([cid]) => cid === ask).map(([, st]) => st);
    expect(trace.indexOf('UNKNOWN')).toBeGreaterThanOrEqual(0);
    expect(trace.indexOf('UNKNOWN')).toBeLessThan(trace.lastIndexOf('NEW'));
    // What the strategy was told: UNKNOWN, then the real state.
    const seen = h.updates.filter((u) => u.clientOrderId === ask).map((u) => u.status);
    expect(seen.indexOf('UNKNOWN')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('UNKNOWN')).toBeLessThan(seen.lastIndexOf('NEW'));
    expect(h.issues.filter((i) => i.clientOrderId === ask).map((i) => i.kind)).toEqual(['unknown-outcome']);
    expect(await venueCopies(h, ask as string)).toBe(1);
    const req = x.journal.requests.get(ask as string, 'place');
    expect(req).toMatchObject({ state: 'resolved', resolution: { found: true, status: 'NEW' } });
    await expectStrategyMatchesVenue(x, [ask as string]);
  });

  it('a timeout after commit (the request lands after the client gave up): found by query; a hang that never landed: rejected as not placed', async () => {
    const x = await setup({ exchange: { retry: { maxAttempts: 1 }, timeoutMs: 300, recvWindow: 1000 } });
    const { s, h } = x;
    await startLive(h);
    await adminCall(s, 'POST', '/faults', { kind: 'delay', endpoint: 'spot.newOrder', delayMs: 700, count: 1 });
    const [late] = h.submit(limitSell('0.001', '3000000', 'late'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(late as string)?.status === 'NEW', 8000, 'late order found');
    expect(h.trace.filter(([cid]) => cid === late).map(([, st]) => st)).toContain('UNKNOWN');
    expect(await venueCopies(h, late as string)).toBe(1);

    await adminCall(s, 'POST', '/faults', { kind: 'hang', endpoint: 'spot.newOrder', delayMs: 2000, count: 1 });
    const [lost] = h.submit(limitSell('0.001', '3050000', 'lost'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(lost as string)?.status === 'REJECTED', 8000, 'lost order rejected');
    expect(h.updates.filter((u) => u.clientOrderId === lost).map((u) => u.status)).toEqual(['UNKNOWN', 'REJECTED']);
    expect(h.updates.find((u) => u.clientOrderId === lost && u.status === 'REJECTED')?.reason).toMatch(/not placed \(unknown outcome resolved by query\)/);
    expect(await venueCopies(h, lost as string)).toBe(0);
    expect(x.journal.requests.get(lost as string, 'place')).toMatchObject({ state: 'resolved', resolution: { found: false } });
    await expectStrategyMatchesVenue(x, [late as string, lost as string]);
  }, 30_000);
});

describe('live venue: rate limits (acceptance 5)', () => {
  it('429 then 418 on orders: nothing placed by the refused requests, every consumer of the client waits the pause out, no ban earned', async () => {
    const x = await setup();
    const { s, h } = x;
    await startLive(h);
    await adminCall(s, 'POST', '/faults', { kind: 'rate-limit', endpoint: 'spot.newOrder', retryAfterSeconds: 1, count: 1 });
    const [first] = h.submit(limitSell('0.001', '3000000', 'a'));
    await h.venue.idle();
    expect(h.om.orders.get(first as string)?.status).toBe('REJECTED');
    // The resync's reads use the same client: they wait for the pause to end.
    const t0 = performance.now();
    h.venue.requestResync('after a 429');
    await h.venue.idle();
    expect(performance.now() - t0).toBeGreaterThan(700);

    await adminCall(s, 'POST', '/faults', { kind: 'ban', endpoint: 'spot.newOrder', retryAfterSeconds: 2, count: 1 });
    const [second] = h.submit(limitSell('0.001', '3000000', 'b'));
    await h.venue.idle();
    expect(h.om.orders.get(second as string)?.status).toBe('REJECTED');
    const t1 = performance.now();
    const [third] = h.submit(limitSell('0.001', '3000000', 'c'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(third as string)?.status === 'NEW', 5000, 'placed after the ban');
    expect(performance.now() - t1).toBeGreaterThan(1500);
    // Only the injected 429 and 418: the process's own traffic earned none.
    const refusals = h.logs.filter((l) => /refused/.test(l.message)).map((l) => l.message);
    expect(refusals).toHaveLength(2);
    expect(await venueCopies(h, first as string)).toBe(0);
    expect(await venueCopies(h, second as string)).toBe(0);
    await expectStrategyMatchesVenue(x, [first as string, second as string, third as string]);
  }, 30_000);
});

describe('live venue under the kernel (deliverable 4: strategies run unchanged)', () => {
  it('a strategy places on start, answers its fill with a new order and cancels it; the kernel sees what the sandbox says', async () => {
    const x = await setup();
    const { h, taker } = x;
    const seen: string[] = [];
    const def = defineStrategy({
      name: 's1',
      params: z.object({}),
      symbols: [SYMBOL],
      onStart: () => [place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000', tag: 'ask' })],
      onFill: (_ctx, fill) => {
        seen.push(`fill ${fill.tag ?? ''} ${fill.qty} ${fill.orderStatus}`);
        return fill.orderStatus === 'FILLED' ? [place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '2900000', tag: 'bid' })] : [];
      },
      onOrderUpdate: (_ctx, u) => {
        seen.push(`${u.tag ?? ''} ${u.status}`);
        return u.tag === 'bid' && u.status === 'NEW' ? [cancel({ symbol: SYMBOL, tag: 'bid' })] : [];
      },
    });
    const kernel = new Kernel({ orders: h.om, venue: h.venue, clock: { now: () => x.clock.now() } });
    kernel.addStrategy(def);
    await startLive(h);
    kernel.start();
    await h.venue.idle();
    await waitFor(() => seen.includes('ask NEW'), 5000, 'ask NEW');
    await takerBuy(taker, '0.0004', '3000000');
    await takerBuy(taker, '0.0006', '3000000');
    await waitFor(() => seen.includes('bid CANCELED'), 5000, 'bid cancelled');
    await h.venue.idle();
    expect(seen).toEqual(['ask NEW', 'fill ask 0.0004 PARTIALLY_FILLED', 'ask PARTIALLY_FILLED', 'fill ask 0.0006 FILLED', 'ask FILLED', 'bid NEW', 'bid CANCELED']);
    const cids = [...h.om.orders.openOrders()].map((o) => o.clientOrderId);
    expect(cids).toEqual([]);
    const history = await h.client.spot.historyOrders({ symbol: SYMBOL });
    expect(history.map((o) => o.status).sort()).toEqual(['CANCELED', 'FILLED']);
  });
});

describe('live venue: a 429 on the resync reads', () => {
  it('the resync waits the pause out and completes; no error, no ban', async () => {
    const x = await setup();
    const { s, h } = x;
    await startLive(h);
    const before = h.venue.resyncs.length;
    await adminCall(s, 'POST', '/faults', { kind: 'rate-limit', endpoint: 'spot.openOrders', retryAfterSeconds: 1, count: 1 });
    const t0 = performance.now();
    h.venue.requestResync('a resync meeting a 429');
    await h.venue.idle();
    expect(h.venue.resyncs.length).toBe(before + 1);
    expect(performance.now() - t0).toBeGreaterThan(900);
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
    const [cid] = h.submit(limitSell('0.001', '3000000', 'after'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid as string)?.status === 'NEW', 5000, 'placed after the pause');
  });
});

describe('live venue: cancelReplace', () => {
  it('LIVE: the old order cancelled and the new one placed in one call; not LIVE: the cancel still goes out, the new order is denied with STREAM_NOT_LIVE', async () => {
    const x = await setup();
    const { s, h } = x;
    await startLive(h);
    const [first] = h.submit(limitSell('0.001', '3000000', 'q'));
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(first as string)?.status === 'NEW');
    const [second] = h.submit({ kind: 'cancelReplace', symbol: SYMBOL, tag: 'q', order: { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3010000', tag: 'q' } });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(first as string)?.status === 'CANCELED' && h.om.orders.get(second as string)?.status === 'NEW', 5000, 'replaced');
    expect(x.journal.requests.get(second as string, 'cancelReplace')).toMatchObject({ state: 'acknowledged', cancelClientOrderId: first });

    s.services.streams?.dropAll();
    await waitFor(() => h.venue.streamHealth.state !== 'LIVE', 5000, 'stream down');
    const [third] = h.submit({ kind: 'cancelReplace', symbol: SYMBOL, tag: 'q', order: { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3020000', tag: 'q' } });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(second as string)?.status === 'CANCELED', 5000, 'cancel half sent');
    expect(h.om.orders.get(third as string)?.status).toBe('REJECTED');
    expect(h.updates.find((u) => u.clientOrderId === third)?.reason).toMatch(new RegExp(`^${STREAM_NOT_LIVE}`));
    expect(await venueCopies(h, third as string)).toBe(0);
    await h.vt.advance(8000);
    await waitFor(() => h.venue.streamHealth.state === 'LIVE', 5000, 'LIVE again');
    await h.venue.idle();
    await expectStrategyMatchesVenue(x, [first as string, second as string, third as string]);
  });
});
