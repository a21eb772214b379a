/**
 * Orders placed over HTTP reach the WebSocket streams (notes 1, 4, 4.1): the account's user data
 * stream at `/openapi/ws/<listenKey>` gets the executionReport (exact order id `i` as a bare
 * number) and the outboundAccountPosition of a fill within 100 ms of the HTTP answer that caused
 * it, and the combined market stream gets the trade. Real server, real `ws` sockets, wall clock.
 */
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

/** The trading plugins, unless server.ts already lists them as built-in (registering twice throws). */
const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

type Client = ClientHandle['client'];

interface Message {
  raw: string;
  json: Record<string, unknown>;
  /** performance.now() at arrival. */
  at: number;
}

const defer = closeAfterEach();

function client(s: SandboxHandle, apiKey: string, apiSecret: string): Client {
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey, apiSecret } });
  defer(() => handle.close());
  return handle.client;
}

/** A socket that stamps every message on arrival; `waitFor` finds one already received or yet to come. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  const messages: Message[] = [];
  const listeners = new Set<() => void>();
  ws.on('message', (data) => {
    const raw = String(data);
    messages.push({ raw, json: JSON.parse(raw) as Record<string, unknown>, at: performance.now() });
    for (const l of listeners) l();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  defer(() => ws.terminate());
  const waitFor = (pred: (m: Message) => boolean, timeoutMs = 1000): Promise<Message> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const hit = messages.find(pred);
        if (!hit) return false;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${messages.map((m) => m.raw).join(' | ')}`));
      }, timeoutMs);
      if (!check()) listeners.add(check);
    });
  return { ws, messages, waitFor };
}

/** A trading sandbox with two clients: the demo account's (the maker) and a second account holding 100,000 PHP (the taker). */
async function makerAndTaker() {
  const s = await startSandbox({ plugins: tradingPlugins() });
  defer(() => s.close());
  const maker = client(s, s.apiKey, s.apiSecret);
  const now = s.clock.now();
  const takerAccount = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const takerKey = s.accounts.createKey({ accountId: takerAccount.id, createdAt: now });
  s.services.balances?.credit(takerAccount.id, 'PHP', '100000');
  return { s, maker, taker: client(s, takerKey.apiKey, takerKey.secret) };
}

describe('sandbox user data stream and market streams from HTTP orders', () => {
  it('delivers the fill as executionReport (x TRADE) and outboundAccountPosition within 100 ms, and the trade on the combined stream', async () => {
    const { s, maker, taker } = await makerAndTaker();

    const { listenKey } = await maker.userStream.startUserDataStream();
    const user = await connect(`${s.wsUrl}/openapi/ws/${listenKey}`);
    const market = await connect(`${s.wsUrl}/openapi/quote/stream?streams=btcphp@trade/btcphp@bookTicker`);

    // Two resting asks, so the maker's first order id is not a round start value.
    await maker.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3100000' });
    const ask = await maker.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000', newClientOrderId: 'ask-1' });
    const opened = await user.waitFor((m) => m.json['e'] === 'executionReport' && m.json['c'] === 'ask-1');
    // w: the order rests on the book (notes 4.1, whose sample NEW LIMIT GTC report has w true).
    expect(opened.json).toMatchObject({ x: 'NEW', X: 'NEW', S: 'SELL', o: 'LIMIT', q: '0.001', p: '3000000', T: -1, t: -1, w: true });
    await user.waitFor((m) => m.json['e'] === 'outboundAccountPosition');
    const before = user.messages.length;

    const fill = await taker.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    const answered = performance.now();
    expect(fill).toMatchObject({ status: 'FILLED' });
    const tradeId = 'fills' in fill && Array.isArray(fill.fills) ? String(fill.fills[0]?.tradeId) : '';

    const after = (m: Message) => user.messages.indexOf(m) >= before;
    const report = await user.waitFor((m) => after(m) && m.json['e'] === 'executionReport');
    const position = await user.waitFor((m) => after(m) && m.json['e'] === 'outboundAccountPosition');
    expect(report.at - answered).toBeLessThan(100);
    expect(position.at - answered).toBeLessThan(100);
    expect(report.json).toMatchObject({ s: 'BTCPHP', c: 'ask-1', x: 'TRADE', X: 'FILLED', l: '0.001', z: '0.001', L: '3000000', n: '3', N: 'PHP', m: true, w: false });
    expect(report.raw).toContain(`"i":${ask.orderId},`);
    expect(report.raw).toContain(`"t":${tradeId},`);
    const balances = position.json['B'] as { a: string; f: string; l: string }[];
    expect(balances.find((b) => b.a === 'PHP')).toEqual({ a: 'PHP', f: '102997', l: '0' });
    expect(balances.find((b) => b.a === 'BTC')).toEqual({ a: 'BTC', f: '0.028', l: '0.001' });

    const trade = await market.waitFor((m) => m.json['stream'] === 'btcphp@trade');
    expect(trade.json['data']).toMatchObject({ e: 'trade', s: 'BTCPHP', p: '3000000', q: '0.001', m: false });
    expect(trade.raw).toContain(`"t":${tradeId},`);
    expect(trade.raw).toContain(`"a":${ask.orderId},`);
    const book = await market.waitFor((m) => m.json['stream'] === 'btcphp@bookTicker' && (m.json['data'] as Record<string, unknown>)['a'] === '3100000');
    expect(book.json['data']).toMatchObject({ s: 'BTCPHP', a: '3100000', A: '0.001' });
  });

  it('reports w (on book, notes 4.1) true for a taker whose remainder rests, from its NEW on, and false for an IOC remainder', async () => {
    const { s, maker, taker } = await makerAndTaker();
    const { listenKey } = await taker.userStream.startUserDataStream();
    const user = await connect(`${s.wsUrl}/openapi/ws/${listenKey}`);
    const reportsOf = (c: string) => user.messages.filter((m) => m.json['e'] === 'executionReport' && m.json['c'] === c);
    const xXw = async (c: string, n: number) => {
      await user.waitFor(() => reportsOf(c).length >= n);
      return reportsOf(c).map((m) => [m.json['x'], m.json['X'], m.json['w']]);
    };

    await maker.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    await taker.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.002', price: '3000000', newClientOrderId: 'rests' });
    expect(await xXw('rests', 2)).toEqual([
      ['NEW', 'NEW', true],
      ['TRADE', 'PARTIALLY_FILLED', true],
    ]);

    // Above the resting bid: the IOC order meets this ask alone.
    await maker.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3100000' });
    await taker.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.002', price: '3100000', newClientOrderId: 'ioc' });
    expect(await xXw('ioc', 3)).toEqual([
      ['NEW', 'NEW', false],
      ['TRADE', 'PARTIALLY_FILLED', false],
      ['EXPIRED', 'EXPIRED', false],
    ]);
  });
});
