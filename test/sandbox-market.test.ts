/**
 * The sandbox's public market data end to end (spec 2.6, 4.4; notes 2.1, 5): a real server on
 * 127.0.0.1 on a VirtualClock, trades made by the engine between two accounts, answers read with
 * the project's client (and raw requests for the wire-level list formats and errors).
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { NewOrderRequest, SpotEngine } from '../src/core/matching/index.ts';
import { VenueRejectedError } from '../src/exchange/errors/errors.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import { depthLevels, marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

/** The trading plugins, unless server.ts already lists them as built-in (registering twice throws). */
const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

const T0 = Date.parse('2024-03-13T10:00:00Z');
const MIN = 60_000;

const defer = closeAfterEach();

interface Rig {
  s: SandboxHandle;
  clock: VirtualClock;
  engine: SpotEngine;
  c: ClientHandle['client'];
  /** The demo account (maker) and a funded second account (taker). */
  place(who: 'maker' | 'taker', req: Omit<NewOrderRequest, 'symbol'> & { symbol?: string }): string;
  /** One trade of `qty` at `price`: the maker's ask, hit by the taker's buy. */
  trade(price: string, qty?: string): void;
  get(path: string): Promise<{ status: number; text: string; body: unknown }>;
}

async function rig(config: SandboxConfigInput = {}): Promise<Rig> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config, plugins: tradingPlugins() });
  defer(() => s.close());
  const engine = s.services.engine as SpotEngine;
  const maker = s.accounts.getKey(s.apiKey)?.accountId ?? '';
  const taker = s.accounts.createAccount({ email: 'taker@example.com', createdAt: T0 }).id;
  s.services.balances?.credit(taker, 'PHP', '1000000');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange });
  defer(() => handle.close());
  const place: Rig['place'] = (who, req) => {
    const r = engine.placeOrder(who === 'maker' ? maker : taker, { symbol: 'BTCPHP', ...req }, s.clock.now());
    if (!r.ok) throw new Error(r.msg);
    return r.order.orderId;
  };
  return {
    s,
    clock,
    engine,
    c: handle.client,
    place,
    trade(price, qty = '0.001') {
      place('maker', { side: 'SELL', type: 'LIMIT', quantity: qty, price });
      place('taker', { side: 'BUY', type: 'LIMIT', quantity: qty, price });
    },
    async get(path) {
      const r = await fetch(`${s.baseUrl}${path}`);
      const text = await r.text();
      return { status: r.status, text, body: JSON.parse(text) as unknown };
    },
  };
}

async function venueCode(call: Promise<unknown>): Promise<number | undefined> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VenueRejectedError);
  return (e as VenueRejectedError).venueCode;
}

describe('sandbox market data (spec 4.4)', () => {
  it('answers an empty market with zero values, and pairs with base and quote as the field names say', async () => {
    const { c } = await rig();
    expect(await c.market.depth({ symbol: 'BTCPHP' })).toEqual({ lastUpdateId: '0', bids: [], asks: [] });
    expect(await c.market.trades({ symbol: 'BTCPHP' })).toEqual([]);
    expect(await c.market.klines({ symbol: 'BTCPHP', interval: '1m' })).toEqual([]);
    expect(await c.market.tickerPrice({ symbol: 'BTCPHP' })).toEqual({ symbol: 'BTCPHP', price: '0' });
    expect(await c.market.bookTicker({ symbol: 'BTCPHP' })).toEqual({ symbol: 'BTCPHP', bidPrice: '0', bidQty: '0', askPrice: '0', askQty: '0' });
    expect(await c.market.ticker24hr({ symbol: 'BTCPHP' })).toMatchObject({ lastPrice: '0', volume: '0', count: 0, firstId: '-1', lastId: '-1', closeTime: T0 });
    expect(await c.market.avgPrice({ symbol: 'BTCPHP' })).toEqual({ mins: 5, price: '0' });
    const pairs = await c.market.pairs();
    expect(pairs).toHaveLength(5);
    expect(pairs[0]).toEqual({ symbol: 'BTCPHP', baseToken: 'BTC', quoteToken: 'PHP' });
    expect(pairs.find((p) => p.symbol === 'USDTPHP')).toEqual({ symbol: 'USDTPHP', baseToken: 'USDT', quoteToken: 'PHP' });
  });

  it('depth: sizes 5..200, 0 answers 200, sizes between are raised to the next listed one', async () => {
    const r = await rig();
    for (let i = 0; i < 12; i++) r.place('maker', { side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(2_900_000 - i * 100) });
    r.place('maker', { side: 'SELL', type: 'LIMIT', quantity: '0.002', price: '3100000' });
    r.place('maker', { side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    r.place('maker', { side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '3000000' });
    const five = await r.c.market.depth({ symbol: 'BTCPHP', limit: 5 });
    expect(five.bids.map(([p]) => p)).toEqual(['2900000', '2899900', '2899800', '2899700', '2899600']);
    expect(five.asks).toEqual([
      ['3000000', '0.002'],
      ['3100000', '0.002'],
    ]);
    expect(five.lastUpdateId).toBe(String(r.engine.bookUpdateId('BTCPHP')));
    expect((await r.c.market.depth({ symbol: 'BTCPHP', limit: 7 })).bids).toHaveLength(10);
    expect((await r.c.market.depth({ symbol: 'BTCPHP', limit: 0 })).bids).toHaveLength(12);
    expect((await r.c.market.depth({ symbol: 'btcphp' })).bids).toHaveLength(12);
    expect([depthLevels(undefined), depthLevels(0), depthLevels(1), depthLevels(50), depthLevels(101), depthLevels(200)]).toEqual([100, 200, 5, 50, 200, 200]);
    expect(await venueCode(r.c.market.depth({ symbol: 'NOPE' }))).toBe(-1025);
    expect((await r.get('/openapi/quote/v1/depth?symbol=BTCPHP&limit=201')).body).toMatchObject({ code: -1025 });
  });

  it('trades and klines follow the trades over time; limits and windows as spec 4.4 says', async () => {
    const r = await rig();
    r.trade('3000000');
    await r.clock.advance(MIN);
    r.trade('3010000', '0.002');
    await r.clock.advance(MIN);
    r.trade('2990000');
    const all = await r.c.market.trades({ symbol: 'BTCPHP' });
    expect(all.map((t) => [t.price, t.qty, t.time])).toEqual([
      ['3000000', '0.001', T0],
      ['3010000', '0.002', T0 + MIN],
      ['2990000', '0.001', T0 + 2 * MIN],
    ]);
    expect((await r.c.market.trades({ symbol: 'BTCPHP', limit: 2 })).map((t) => t.price)).toEqual(['3010000', '2990000']);
    // limit <= 0 answers the maximum (1000), not an error.
    expect(await r.c.market.trades({ symbol: 'BTCPHP', limit: 0 })).toHaveLength(3);

    const k1 = await r.c.market.klines({ symbol: 'BTCPHP', interval: '1m' });
    expect(k1.map((k) => [k.openTime, k.closeTime, k.close, k.volume])).toEqual([
      [T0, T0 + MIN - 1, '3000000', '0.001'],
      [T0 + MIN, T0 + 2 * MIN - 1, '3010000', '0.002'],
      [T0 + 2 * MIN, T0 + 3 * MIN - 1, '2990000', '0.001'],
    ]);
    expect((await r.c.market.klines({ symbol: 'BTCPHP', interval: '1m', limit: 1 })).map((k) => k.openTime)).toEqual([T0 + 2 * MIN]);
    expect((await r.c.market.klines({ symbol: 'BTCPHP', interval: '1m', startTime: T0 + MIN })).map((k) => k.openTime)).toEqual([T0 + MIN, T0 + 2 * MIN]);
    expect((await r.c.market.klines({ symbol: 'BTCPHP', interval: '1m', endTime: T0 + MIN })).map((k) => k.openTime)).toEqual([T0, T0 + MIN]);
    expect((await r.c.market.klines({ symbol: 'BTCPHP', interval: '1m', startTime: T0, limit: 1 })).map((k) => k.openTime)).toEqual([T0]);
    const [k5] = await r.c.market.klines({ symbol: 'BTCPHP', interval: '5m' });
    expect(k5).toMatchObject({ openTime: T0, open: '3000000', high: '3010000', low: '2990000', close: '2990000', volume: '0.004', trades: 3 });
    expect(await venueCode(r.c.market.klines({ symbol: 'NOPE', interval: '1m' }))).toBe(-1025);
  });

  it('tickers: symbol -> object, symbols -> array in the order asked, neither -> every symbol', async () => {
    const r = await rig();
    r.trade('3000000');
    await r.clock.advance(MIN);
    r.trade('3030000');
    r.place('maker', { side: 'BUY', type: 'LIMIT', quantity: '0.003', price: '2950000' });
    expect(await r.c.market.ticker24hr({ symbol: 'BTCPHP' })).toMatchObject({
      symbol: 'BTCPHP',
      openPrice: '3000000',
      lastPrice: '3030000',
      priceChange: '30000',
      priceChangePercent: '0.01',
      highPrice: '3030000',
      lowPrice: '3000000',
      volume: '0.002',
      quoteVolume: '6030',
      weightedAvgPrice: '3015000',
      bidPrice: '2950000',
      bidQty: '0.003',
      count: 2,
    });
    const two = await r.c.market.tickerPrice({ symbols: ['ETHPHP', 'btcphp'] });
    expect(two).toEqual([
      { symbol: 'ETHPHP', price: '0' },
      { symbol: 'BTCPHP', price: '3030000' },
    ]);
    const every = await r.c.market.bookTicker();
    expect(Array.isArray(every) && every.map((b) => b.symbol)).toEqual(['BTCPHP', 'ETHPHP', 'BTCUSDT', 'ETHUSDT', 'USDTPHP']);
    expect(Array.isArray(every) && every[0]).toEqual({ symbol: 'BTCPHP', bidPrice: '2950000', bidQty: '0.003', askPrice: '0', askQty: '0' });
    const all24 = await r.c.market.ticker24hr();
    expect(Array.isArray(all24) && all24).toHaveLength(5);
    // Notes 2.1 list forms on the wire: JSON array (raw or encoded), comma list, repeated keys.
    for (const q of ['symbols=["btcphp","ETHPHP"]', 'symbols=%5B%22BTCPHP%22,%22ethphp%22%5D', 'symbols=BTCPHP,ETHPHP', 'symbols=btcphp&symbols=ethphp']) {
      const res = await r.get(`/openapi/quote/v1/ticker/24hr?${q}`);
      expect((res.body as { symbol: string }[]).map((t) => t.symbol)).toEqual(['BTCPHP', 'ETHPHP']);
    }
    expect((await r.get('/openapi/quote/v1/ticker/price?symbols=["BTCPHP","NOPE"]')).body).toEqual({ code: -1025, msg: "parameter 'symbols' is not valid: no such symbol 'NOPE'" });
    expect((await r.get('/openapi/quote/v1/ticker/price?symbol=BTCPHP&symbols=["ETHPHP"]')).status).toBe(400);
  });

  it('the legacyInvalidSymbolCode variant answers an unknown symbol with the old -1121 "Invalid symbol." (notes 9)', async () => {
    const r = await rig({ variants: { legacyInvalidSymbolCode: true } });
    expect((await r.get('/openapi/quote/v1/depth?symbol=NOPE')).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect((await r.get('/openapi/quote/v1/ticker/price?symbols=["BTCPHP","NOPE"]')).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect(await venueCode(r.c.market.avgPrice({ symbol: 'nope' }))).toBe(-1121);
    expect((await r.get('/openapi/quote/v1/depth?symbol=btcphp')).status).toBe(200);
  });

  it('avgPrice: case-insensitive symbol, volume-weighted over the last 5 minutes', async () => {
    const r = await rig();
    r.trade('3000000');
    r.trade('3030000', '0.002');
    expect(await r.c.market.avgPrice({ symbol: 'btcPHP' })).toEqual({ mins: 5, price: '3020000' });
    await r.clock.advance(6 * MIN);
    r.trade('2900000');
    expect(await r.c.market.avgPrice({ symbol: 'BTCPHP' })).toEqual({ mins: 5, price: '2900000' });
    expect(await venueCode(r.c.market.avgPrice({ symbol: 'nope' }))).toBe(-1025);
  });

  it('writes trade ids as bare numbers by default and as strings with the numbersAsStrings variant (notes 5.2)', async () => {
    const plain = await rig();
    plain.trade('3000000');
    expect((await plain.get('/openapi/quote/v1/trades?symbol=BTCPHP')).text).toMatch(/^\[\{"id":\d{19},"price":"3000000"/);
    const strings = await rig({ variants: { numbersAsStrings: true, publicTradeQuoteQtyIsBase: true } });
    strings.trade('3000000');
    const text = (await strings.get('/openapi/quote/v1/trades?symbol=BTCPHP')).text;
    expect(text).toMatch(/^\[\{"id":"\d{19}","price":"3000000","qty":"0.001","quoteQty":"0.001","time":"\d+"/);
  });
});
