/**
 * Every stream payload of protocol notes 4 and 4.1 as the sandbox really sends it, decoded by
 * market-payloads.ts and user-payloads.ts: one combined connection subscribed to every market
 * stream kind of BTCPHP (and the all-symbol arrays), one user-data connection on a listen key, a
 * plain `ws` client for each, frames parsed losslessly. Two accounts trade through the REST client
 * and one deposits (admin API); the VirtualClock moves the periodic pushes. No frame may fail to decode, every kind must arrive,
 * and the ids the streams carry equal the REST answers' exactly (they exceed 2^53).
 */
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { decodeMarketEvent } from '../src/exchange/streams/market-payloads.ts';
import type { MarketStreamEvent } from '../src/exchange/streams/market-payload-types.ts';
import { decodeUserEvent } from '../src/exchange/streams/user-payloads.ts';
import type { UserStreamEvent } from '../src/exchange/streams/user-payload-types.ts';
import { parseJsonLossless } from '../src/exchange/transport/lossless-json.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, KEYS, sandboxClient } from './support/sandbox-fixture.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const defer = closeAfterEach();

const MARKET_STREAMS = [
  'btcphp@trade',
  'btcphp@aggTrade',
  'btcphp@kline_1m',
  'btcphp@miniTicker',
  'btcphp@ticker',
  '!miniTicker@arr',
  '!ticker@arr',
  'btcphp@bookTicker',
  '!bookTicker',
  'btcphp@depth5',
  'btcphp@depth200',
  'btcphp@depth',
  'btcphp@depth@100ms',
];

async function open(url: string, onFrame: (frame: unknown) => void): Promise<WebSocket> {
  const ws = new WebSocket(url);
  defer(() => ws.close());
  ws.on('message', (data) => onFrame(parseJsonLossless(String(data))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('stream decoders against the sandbox (notes 4, 4.1)', () => {
  it.each([
    ['spec variants', {}],
    ['real-service variants (numbers as strings, percent change)', { numbersAsStrings: true, priceChangePercentAsFraction: false, publicTradeQuoteQtyIsBase: true }],
  ])('decode every market and user payload the sandbox sends, ids equal to REST (%s)', async (_name, variants) => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, variants } });
    defer(() => s.close());
    const bob = s.accounts.createAccount({ email: 'bob@example.com', createdAt: T0 }).id;
    s.accounts.createKey({ accountId: bob, apiKey: KEYS.bob.apiKey, secret: KEYS.bob.secret, createdAt: T0 });
    s.services.balances?.credit(bob, 'PHP', '1000000');
    const alice = sandboxClient(s, defer);
    const bobClient = sandboxClient(s, defer, { key: KEYS.bob });

    const market: { stream: string; event: MarketStreamEvent }[] = [];
    const user: UserStreamEvent[] = [];
    const failures: string[] = [];
    await open(`${s.wsUrl}/openapi/quote/stream?streams=${MARKET_STREAMS.join('/')}`, (frame) => {
      const f = frame as { stream?: string; data?: unknown };
      if (f.stream === undefined) return;
      try {
        market.push({ stream: f.stream, event: decodeMarketEvent(f.stream, f.data) });
      } catch (err) {
        failures.push(`${f.stream}: ${(err as Error).message}`);
      }
    });
    const { listenKey } = await alice.userStream.startUserDataStream();
    await open(`${s.wsUrl}/openapi/ws/${listenKey}`, (frame) => {
      try {
        user.push(decodeUserEvent(frame));
      } catch (err) {
        failures.push(`user: ${(err as Error).message}`);
      }
    });

    const resting = await alice.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '3500000' });
    await alice.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3510000' });
    await bobClient.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3400000' });
    await bobClient.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.0015' });
    // A deposit: a balanceUpdate (CHAIN_DEPOSIT) on the user stream.
    await adminCall(s, 'POST', '/deposits', { accountId: s.accounts.getKey(s.apiKey)?.accountId, coin: 'BTC', network: 'BTC', amount: '0.01', status: 'SUCCESS' });
    for (let i = 0; i < 3; i++) await clock.advance(1000);
    const trades = await alice.spot.myTrades({ symbol: 'BTCPHP' });

    const seen = () => new Set(market.map((m) => m.event.eventType));
    const kinds = ['trade', 'aggTrade', 'kline', '24hrMiniTicker', '24hrTicker', 'miniTickerArray', 'tickerArray', 'bookTicker', 'depth', 'depthUpdate'];
    await until(() => kinds.every((k) => seen().has(k as MarketStreamEvent['eventType'])) && user.some((u) => u.eventType === 'executionReport' && u.executionType === 'TRADE'), `every kind (seen ${[...seen()].join(', ')})`);
    expect(failures).toEqual([]);

    // Ids: the stream's trade ids and order ids are the REST ones, exactly.
    const streamTrades = market.flatMap((m) => (m.event.eventType === 'trade' ? [m.event] : []));
    expect(streamTrades.map((t) => t.tradeId).sort()).toEqual(trades.map((t) => String(t.id)).sort());
    // The market order took the 3500000 ask first: its seller is the resting order.
    expect(streamTrades[0]).toMatchObject({ sellerOrderId: String(resting.orderId), quantity: '0.0015' });
    expect(BigInt(String(resting.orderId))).toBeGreaterThan(2n ** 53n);
    const fills = user.flatMap((u) => (u.eventType === 'executionReport' && u.executionType === 'TRADE' ? [u] : []));
    expect(fills.map((f) => f.tradeId).sort()).toEqual(trades.map((t) => String(t.id)).sort());
    expect(fills.find((f) => f.orderId === String(resting.orderId))).toMatchObject({ side: 'SELL', price: expect.stringMatching(/^3500000(\.0+)?$/) as unknown });
    const reports = user.flatMap((u) => (u.eventType === 'executionReport' ? [u] : []));
    expect(reports.find((r) => r.orderId === String(resting.orderId) && r.executionType === 'NEW')).toMatchObject({ tradeId: undefined, commissionAsset: null });
    expect(user.some((u) => u.eventType === 'outboundAccountPosition')).toBe(true);
    await until(() => user.some((u) => u.eventType === 'balanceUpdate'), 'the deposit balanceUpdate');
    expect(user.find((u) => u.eventType === 'balanceUpdate')).toMatchObject({ asset: 'BTC', delta: expect.stringMatching(/^0\.010*$/) as unknown, businessType: 'CHAIN_DEPOSIT' });
    // The depth snapshot streams carry the REST book.
    const rest = await alice.market.depth({ symbol: 'BTCPHP', limit: 5 });
    const depth5 = market.filter((m) => m.stream === 'btcphp@depth5').at(-1)?.event;
    expect(depth5?.eventType === 'depth' && { id: depth5.lastUpdateId, bids: depth5.bids, asks: depth5.asks }).toEqual({ id: String(rest.lastUpdateId), bids: rest.bids, asks: rest.asks });
  });
});
