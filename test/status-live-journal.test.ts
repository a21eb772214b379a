/**
 * `halyard status` from a journal the live venue wrote (issue 21 deliverable 4): the order manager
 * on a LiveVenue against the sandbox over real HTTP and WebSocket on 127.0.0.1, a strategy that
 * buys, sells part and leaves a bid open; a second connection opens the journal read-only while
 * the venue still writes it. What statusFromJournal says must equal what the sandbox says (open
 * orders, trades), its PnL what the venue's trades give by FIFO with every fee inside.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { statusFromJournal } from '../src/bot/status/from-journal.ts';
import { renderStatusBlock } from '../src/bot/status/render-block.ts';
import { parseConfig } from '../src/config/load.ts';
import { D } from '../src/core/money/decimal.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';

describe('status from a live run journal', () => {
  it('equals what the sandbox says: position, open orders, trades; PnL FIFO from the venue trades', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-status-live-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'journal.sqlite');
    const journal = openJournal(file);
    defer(() => journal.close());
    journal.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1', symbols: [SYMBOL] }], config: {}, startedAt: clock.now() });
    const client = sandboxClient(s, defer);
    journal.exchangeInfo.save(clock.now(), await client.general.exchangeInfo());
    const h = await liveHarness(s, { runId: 'run-1', journal, client });
    defer(() => h.close());
    const taker = counterparty(s);
    await startLive(h);

    const [bid] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '2900000', tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(bid as string)?.status === 'NEW', 5000, 'bid NEW');
    await taker.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '2900000' });
    await waitFor(() => h.om.orders.get(bid as string)?.status === 'FILLED', 5000, 'bid filled');
    await clock.advance(60_000);

    const [ask] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000', tag: 'ask' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'NEW', 5000, 'ask NEW');
    await taker.spot.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000' });
    await waitFor(() => h.om.orders.get(ask as string)?.status === 'FILLED', 5000, 'ask filled');
    await clock.advance(60_000);

    const [rest] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '2800000', tag: 'bid' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(rest as string)?.status === 'NEW', 5000, 'second bid NEW');

    // The venue still writes; a second connection reads the journal read-only.
    const reader = openJournal(file, { readonly: true });
    defer(() => reader.close());
    const status = statusFromJournal(reader);

    const open = await client.spot.openOrders({ symbol: SYMBOL });
    const trades = await client.spot.myTrades({ symbol: SYMBOL, limit: 1000 });
    expect(trades).toHaveLength(2);
    expect(status).toMatchObject({ runId: 'run-1', kind: 'sandbox', state: 'running', quoteAsset: 'PHP', counts: { orders: 3, fills: 2, rejected: 0 } });
    expect(status.streams.userStream?.state).toBe('LIVE');
    const st = status.strategies[0]!;
    expect(st.openOrders.map((o) => ({ cid: o.clientOrderId, orderId: o.orderId, price: o.price, qty: o.quantity, status: o.status }))).toEqual(
      open.map((o) => ({ cid: o.clientOrderId, orderId: o.orderId, price: new D(o.price).toFixed(), qty: new D(o.origQty).toFixed(), status: o.status })),
    );

    // FIFO by hand from the venue's trades: the buy's lot (base net of a base fee, cost with a quote fee), the sell's proceeds net of its fee.
    const [buy, sell] = [...trades].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const fee = (t: typeof buy, asset: string) => (t!.commissionAsset === asset ? new D(t!.commission) : new D(0));
    const got = new D(buy!.qty).minus(fee(buy, 'BTC'));
    const cost = new D(buy!.quoteQty).plus(fee(buy, 'PHP'));
    const sold = new D(sell!.qty).plus(fee(sell, 'BTC'));
    const soldCost = cost.times(sold).div(got);
    const realised = new D(sell!.quoteQty).minus(fee(sell, 'PHP')).minus(soldCost);
    const left = got.minus(sold);
    const unrealised = left.times(sell!.price).minus(cost.minus(soldCost));
    const p = st.positions[0]!;
    expect(p).toMatchObject({ symbol: SYMBOL, quantity: left.toFixed(), markPrice: new D(sell!.price).toFixed(), markSource: 'last-fill', markTime: sell!.time });
    expect(new D(p.realisedPnl).minus(realised).abs().lte('1e-12')).toBe(true);
    expect(new D(p.unrealisedPnl).minus(unrealised).abs().lte('1e-12')).toBe(true);
    expect(st.lastSignal).toMatchObject({ kind: 'order', summary: expect.stringContaining(`NEW ${rest}`) });

    const block = renderStatusBlock(status, { now: clock.now() });
    expect(block).toContain('user stream LIVE');
    expect(block).toContain(`mark 3000000 (last fill ${new Date(sell!.time).toISOString().slice(11, 19)}Z, 1m00s ago)`);
    expect(block).toContain(`open BUY LIMIT BTCPHP 0.001 @ 2800000 NEW ${rest}`);
  });
});

/** A second funded account: the market that fills the strategy's orders. */
function counterparty(s: Awaited<ReturnType<typeof startSandbox>>): ExchangeClient {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  s.services.balances?.credit(account.id, 'PHP', '10000000');
  s.services.balances?.credit(account.id, 'BTC', '1');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return handle.client;
}
