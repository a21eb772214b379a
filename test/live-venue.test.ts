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
import { D } from '../src/core/money/decimal.ts';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal, type Journal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor, type Harness } from '../src/live/venue/testing/live-harness.ts';
import { STREAM_NOT_LIVE } from '../src/live/venue/stream-not-live.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach } from './support/sandbox-fixture.ts';

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

async function setup(opts: { runId?: string } = {}): Promise<Setup> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
  defer(() => s.close());
  const dir = mkdtempSync(join(tmpdir(), 'halyard-live-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const journal = openJournal(join(dir, 'journal.sqlite'));
  defer(() => journal.close());
  const runId = opts.runId ?? 'run-1';
  journal.liveRuns.begin({ id: runId, kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
  const h = await liveHarness(s, { runId, journal });
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
    await expectStrategyMatchesVenue(x, [sell as string, bid as string, market as string]);
    // Journal: every request recorded and answered, none pending.
    expect(x.journal.requests.pending({ runId: 'run-1' })).toEqual([]);
    expect(x.journal.orders.get(sell as string)).toMatchObject({ status: 'FILLED', executedQty: '0.002' });
    expect(x.journal.orders.get(bid as string)).toMatchObject({ status: 'CANCELED' });
  });
});
