/**
 * The sandbox's spot trading end to end (spec 2.4, 2.5, 3.1, 4.5, 7.4, 7.5; notes 5.1, 6): a real
 * server on 127.0.0.1 with the engine behind it, driven by the project's client over HTTP (and by a
 * raw third-party-style request). Balances are the demo account's (PHP 100000, BTC 0.03) and those
 * of a second account created for the crossing tests.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { PartialFailureError, VenueRejectedError } from '../src/exchange/errors/errors.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

/** The trading plugins, unless server.ts already lists them as built-in (registering twice throws). */
const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

type Client = ClientHandle['client'];

const defer = closeAfterEach();

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({ plugins: tradingPlugins() });
  defer(() => s.close());
  return s;
}

function client(s: SandboxHandle, apiKey = s.apiKey, apiSecret = s.apiSecret): Client {
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey, apiSecret } });
  defer(() => handle.close());
  return handle.client;
}

/** A second funded account with its own key (the trading counterparty). */
function counterparty(s: SandboxHandle, funds: Record<string, string> = { PHP: '1000000', BTC: '1' }): { client: Client; accountId: string } {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  for (const [asset, amount] of Object.entries(funds)) s.services.balances?.credit(account.id, asset, amount);
  return { client: client(s, key.apiKey, key.secret), accountId: account.id };
}

async function failure(call: Promise<unknown>): Promise<VenueRejectedError> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VenueRejectedError);
  return e as VenueRejectedError;
}

const limit = (side: 'BUY' | 'SELL', quantity: string, price: string, extra: Record<string, string> = {}) =>
  ({ symbol: 'BTCPHP', side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, ...extra }) as const;

describe('sandbox spot: system status', () => {
  it('refuses new orders while SPOT is switched off (check-sys-status says so), still allows cancels', async () => {
    const s = await sandbox();
    const c = client(s);
    const resting = await c.spot.newOrder(limit('BUY', '0.001', '2900000'));
    s.config.systemStatus.SPOT = 'off';
    expect(await c.general.checkSysStatus({ businessType: 'SPOT' })).toEqual([{ businessType: 'SPOT', businessStatus: 'off' }]);
    const refused = await failure(c.spot.newOrder(limit('BUY', '0.001', '2900000')));
    expect([refused.venueCode, refused.venueMessage]).toEqual([-2010, 'Market is closed.']);
    await expect(c.spot.cancelOrder({ orderId: resting.orderId })).resolves.toMatchObject({ status: 'CANCELED' });
    s.config.systemStatus.SPOT = 'on';
    await expect(c.spot.newOrder(limit('BUY', '0.001', '2900000'))).resolves.toMatchObject({ status: 'NEW' });
  });
});

describe('sandbox spot: orders through the client', () => {
  it('answers FULL by default for LIMIT, RESULT and ACK on request, ACK by default for stop types', async () => {
    const s = await sandbox();
    const c = client(s);
    const full = await c.spot.newOrder(limit('BUY', '0.001', '3000000', { newClientOrderId: 'full-1' }));
    expect(full).toMatchObject({ symbol: 'BTCPHP', clientOrderId: 'full-1', status: 'NEW', executedQty: '0', type: 'LIMIT', side: 'BUY', fills: [] });
    expect(BigInt(full.orderId)).toBeGreaterThan(2n ** 53n);
    expect(Math.abs(full.transactTime - Date.now())).toBeLessThan(5000);
    const result = await c.spot.newOrder(limit('BUY', '0.001', '2990000', { newOrderRespType: 'RESULT' }));
    expect(result).toMatchObject({ status: 'NEW', origQty: '0.001' });
    expect(result).not.toHaveProperty('fills');
    const ack = await c.spot.newOrder(limit('BUY', '0.001', '2980000', { newOrderRespType: 'ACK' }));
    expect(Object.keys(ack).sort()).toEqual(['clientOrderId', 'orderId', 'symbol', 'transactTime']);
    const stop = await c.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.001', price: '2500000', stopPrice: '2600000' });
    expect(Object.keys(stop).sort()).toEqual(['clientOrderId', 'orderId', 'symbol', 'transactTime']);

    const open = await c.spot.openOrders({ symbol: 'BTCPHP' });
    expect(open.map((o) => o.orderId)).toEqual([full.orderId, result.orderId, ack.orderId, stop.orderId]);
    expect(open.find((o) => o.orderId === stop.orderId)).toMatchObject({ isWorking: false, stopPrice: '2600000' });
    expect(open[0]).toMatchObject({ isWorking: true, time: full.transactTime, updateTime: full.transactTime });
    expect(await c.spot.openOrders()).toHaveLength(4);
    expect(await c.spot.openOrders({ symbol: 'ETHPHP' })).toEqual([]);
  });

  it('queries by id or client id, cancels one order and all of a symbol, and lists history', async () => {
    const s = await sandbox();
    const c = client(s);
    const a = await c.spot.newOrder(limit('BUY', '0.001', '3000000', { newClientOrderId: 'q-1' }));
    const b = await c.spot.newOrder(limit('BUY', '0.002', '2900000'));
    const d = await c.spot.newOrder(limit('SELL', '0.001', '3500000'));
    expect(await c.spot.queryOrder({ orderId: a.orderId })).toMatchObject({ orderId: a.orderId, clientOrderId: 'q-1', status: 'NEW', isWorking: true });
    expect(await c.spot.queryOrder({ origClientOrderId: 'q-1' })).toMatchObject({ orderId: a.orderId });
    // orderId wins over origClientOrderId.
    expect(await c.spot.queryOrder({ orderId: b.orderId, origClientOrderId: 'q-1' })).toMatchObject({ orderId: b.orderId });

    const canceled = await c.spot.cancelOrder({ origClientOrderId: 'q-1' });
    expect(canceled).toMatchObject({ orderId: a.orderId, status: 'CANCELED', executedQty: '0', stpFlag: 'CB' });
    // A filled order's client id may be used again; the query then answers both (spec 4.5), oldest first (spec 1.2).
    const e = await c.spot.newOrder(limit('BUY', '0.001', '2950000', { newClientOrderId: 'q-2' }));
    await counterparty(s).client.spot.newOrder(limit('SELL', '0.001', '2950000'));
    const again = await c.spot.newOrder(limit('BUY', '0.001', '2940000', { newClientOrderId: 'q-2' }));
    const both = await c.spot.queryOrder({ origClientOrderId: 'q-2' });
    expect(Array.isArray(both) && both.map((o) => [o.orderId, o.status])).toEqual([
      [e.orderId, 'FILLED'],
      [again.orderId, 'NEW'],
    ]);

    const all = await c.spot.cancelOpenOrders({ symbol: 'BTCPHP' });
    expect(all.map((o) => o.orderId).sort()).toEqual([b.orderId, d.orderId, again.orderId].sort());
    expect(all.every((o) => o.status === 'CANCELED')).toBe(true);
    expect(await c.spot.openOrders()).toEqual([]);
    expect(await c.spot.cancelOpenOrders({ symbol: 'BTCPHP' })).toEqual([]);

    const history = await c.spot.historyOrders({ symbol: 'BTCPHP' });
    expect(history.map((o) => [o.orderId, o.status])).toEqual([
      [a.orderId, 'CANCELED'],
      [b.orderId, 'CANCELED'],
      [d.orderId, 'CANCELED'],
      [e.orderId, 'FILLED'],
      [again.orderId, 'CANCELED'],
    ]);
    expect((await c.spot.historyOrders({ symbol: 'BTCPHP', orderId: d.orderId })).map((o) => o.orderId)).toEqual([d.orderId, e.orderId, again.orderId]);
    expect((await c.spot.historyOrders({ symbol: 'BTCPHP', limit: 1 })).map((o) => o.orderId)).toEqual([again.orderId]);
    expect(await c.spot.historyOrders({ symbol: 'BTCPHP', endTime: a.transactTime - 1 })).toEqual([]);
  });

  it('keeps a client order id unique among the open orders of all symbols, so origClientOrderId names one order', async () => {
    const s = await sandbox();
    const c = client(s);
    const btc = await c.spot.newOrder(limit('BUY', '0.001', '2900000', { newClientOrderId: 'one' }));
    const dup = await failure(c.spot.newOrder({ symbol: 'ETHPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '100000', newClientOrderId: 'one' }));
    expect([dup.venueCode, dup.venueMessage]).toEqual([-2010, 'Duplicate order sent.']);
    expect(await c.spot.queryOrder({ origClientOrderId: 'one' })).toMatchObject({ orderId: btc.orderId, symbol: 'BTCPHP' });
    await c.spot.cancelOrder({ origClientOrderId: 'one' });
    expect(await c.spot.newOrder({ symbol: 'ETHPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '100000', newClientOrderId: 'one' })).toMatchObject({ status: 'NEW' });
  });

  it('validates a test order fully (filters, balance, post-only) without placing it', async () => {
    const s = await sandbox();
    const c = client(s);
    expect(await c.spot.testOrder(limit('BUY', '0.001', '3000000'))).toEqual({});
    expect((await failure(c.spot.testOrder(limit('BUY', '1', '3000000')))).venueMessage).toBe('Account has insufficient balance for requested action.');
    expect((await failure(c.spot.testOrder(limit('BUY', '0.001', '3000000.001')))).venueMessage).toBe('Filter failure: PRICE_FILTER');
    await c.spot.newOrder(limit('SELL', '0.001', '3100000'));
    const maker = await failure(c.spot.testOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: '3100000' }));
    expect([maker.venueCode, maker.venueMessage]).toEqual([-2010, 'Order would immediately match and take.']);
    expect(await c.spot.openOrders()).toHaveLength(1);
    expect((await failure(c.spot.testOrder(limit('BUY', '0.001', '3000000', { symbol: 'NOPE' })))).venueCode).toBe(-1025);
  });

  it('rejects with the engine code and message (spec 7.4, 7.5)', async () => {
    const s = await sandbox();
    const c = client(s);
    const funds = await failure(c.spot.newOrder(limit('BUY', '1', '3000000')));
    expect([funds.httpStatus, funds.venueCode, funds.venueMessage, funds.category]).toEqual([400, -2010, 'Account has insufficient balance for requested action.', 'funds']);
    const lot = await failure(c.spot.newOrder(limit('BUY', '0.0000011', '3000000')));
    expect([lot.venueCode, lot.venueMessage]).toEqual([-2010, 'Filter failure: LOT_SIZE']);
    // Below minNotional: the default symbols carry NOTIONAL (checked first) and MIN_NOTIONAL.
    expect((await failure(c.spot.newOrder(limit('BUY', '0.000001', '3000000')))).venueMessage).toBe('Filter failure: NOTIONAL');

    await c.spot.newOrder(limit('BUY', '0.001', '3000000', { newClientOrderId: 'dup' }));
    const dup = await failure(c.spot.newOrder(limit('BUY', '0.001', '2990000', { newClientOrderId: 'dup' })));
    expect([dup.venueCode, dup.venueMessage, dup.category]).toEqual([-2010, 'Duplicate order sent.', 'duplicate']);

    await c.spot.newOrder(limit('SELL', '0.001', '3100000'));
    const maker = await failure(c.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: '3100000' }));
    expect([maker.venueMessage, maker.category]).toEqual(['Order would immediately match and take.', 'post-only']);

    const cancel = await failure(c.spot.cancelOrder({ orderId: '1999999999999999999' }));
    expect([cancel.venueCode, cancel.venueMessage]).toEqual([-2011, 'Unknown order sent.']);
    expect((await failure(c.spot.cancelOrder({ origClientOrderId: 'never-used' }))).venueCode).toBe(-2011);
    const query = await failure(c.spot.queryOrder({ orderId: '1999999999999999999' }));
    expect([query.venueCode, query.category]).toEqual([-2013, 'not-found']);
    // An unknown symbol: spec 7.3 -1025 naming the parameter (-1121 is old-only, notes 9).
    const unknown = await failure(c.spot.newOrder(limit('BUY', '0.001', '3000000', { symbol: 'NOPE' })));
    expect([unknown.venueCode, unknown.venueMessage, unknown.category]).toEqual([-1025, "parameter 'symbol' is not valid: no such symbol 'NOPE'", 'bad-request']);
  });

  it('fills MARKET orders by quantity or quoteOrderQty (FULL by default), expires an IOC remainder, and refuses a frozen account', async () => {
    const s = await sandbox();
    const c = client(s);
    const other = counterparty(s);
    await c.spot.newOrder(limit('SELL', '0.001', '3000000'));
    await c.spot.newOrder(limit('SELL', '0.002', '3010000'));
    const byQuote = await other.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '6010' });
    expect(byQuote).toMatchObject({ type: 'MARKET', status: 'FILLED', executedQty: '0.002', cummulativeQuoteQty: '6010', origQuoteOrderQty: '6010' });
    expect('fills' in byQuote && Array.isArray(byQuote.fills) && byQuote.fills.map((f) => [f.price, f.qty])).toEqual([
      ['3000000', '0.001'],
      ['3010000', '0.001'],
    ]);
    const ioc = await other.client.spot.newOrder(limit('BUY', '0.002', '3010000', { timeInForce: 'IOC' }));
    expect(ioc).toMatchObject({ status: 'EXPIRED', executedQty: '0.001', timeInForce: 'IOC' });
    expect(await c.spot.openOrders()).toEqual([]);

    s.accounts.setFrozen(other.accountId, true);
    const frozen = await failure(other.client.spot.newOrder(limit('BUY', '0.001', '2900000')));
    expect([frozen.venueCode, frozen.venueMessage]).toEqual([-2010, 'This action disabled is on this account.']);
  });

  it('refuses a stop order that would trigger immediately once the symbol has a last price', async () => {
    const s = await sandbox();
    const c = client(s);
    const other = counterparty(s);
    await c.spot.newOrder(limit('SELL', '0.001', '3000000'));
    await other.client.spot.newOrder(limit('BUY', '0.001', '3000000'));
    // STOP_LOSS SELL triggers when the price falls to the stop: a stop above the last price is already met.
    const e = await failure(c.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.001', price: '3050000', stopPrice: '3100000' }));
    expect([e.venueCode, e.venueMessage]).toEqual([-2010, 'Order would trigger immediately.']);
    expect(await c.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.001', price: '2850000', stopPrice: '2900000' })).toHaveProperty('orderId');
  });

  it('cancelReplace: success, STOP_ON_FAILURE -1132 and ALLOW_FAILURE -1133 with data (notes 6)', async () => {
    const s = await sandbox();
    const c = client(s);
    const old = await c.spot.newOrder(limit('BUY', '0.001', '3000000', { newClientOrderId: 'old' }));
    const ok = await c.spot.cancelReplace({ ...limit('BUY', '0.002', '2950000'), cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: 'old', newClientOrderId: 'new', newOrderRespType: 'ACK' });
    expect(ok).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', cancelResponse: { orderId: old.orderId, clientOrderId: 'old', status: 'CANCELED', stpFlag: 'CB' } });
    expect(Object.keys(ok.newOrderResponse ?? {}).sort()).toEqual(['clientOrderId', 'orderId', 'symbol', 'transactTime']);
    expect((await c.spot.openOrders()).map((o) => o.clientOrderId)).toEqual(['new']);

    const stop = await failure(c.spot.cancelReplace({ ...limit('BUY', '0.001', '2900000'), cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: old.orderId }));
    expect([stop.httpStatus, stop.venueCode, stop.venueMessage]).toEqual([400, -1132, 'Order cancel-replace failed.']);
    expect(stop.data).toEqual({ cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: { code: -2011, msg: 'Unknown order sent.' }, newOrderResponse: null });
    expect(await c.spot.openOrders()).toHaveLength(1);

    // -1133 is no rejection: the new order was placed (outcome 'partial').
    const allow = (await c.spot
      .cancelReplace({ ...limit('BUY', '0.001', '2900000'), cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: old.orderId, newOrderRespType: 'RESULT' })
      .catch((e: unknown) => e)) as PartialFailureError;
    expect(allow).toBeInstanceOf(PartialFailureError);
    expect([allow.venueCode, allow.venueMessage, allow.outcome, allow.succeeded]).toEqual([-1133, 'Order cancel-replace partially failed.', 'partial', ['newOrder']]);
    expect(allow.data).toMatchObject({ cancelResult: 'FAILURE', newOrderResult: 'SUCCESS', newOrderResponse: { status: 'NEW', price: '2900000' } });
    expect(await c.spot.openOrders()).toHaveLength(2);

    // The client refuses this before sending; a raw caller gets the venue's -1108.
    const q = `symbol=BTCPHP&side=BUY&type=LIMIT&quantity=0.001&price=2900000&cancelReplaceMode=STOP_ON_FAILURE&timestamp=${Date.now()}`;
    const r = await fetch(`${s.baseUrl}/openapi/v1/order/cancelReplace?${signed(s, q)}`, { method: 'POST', headers: { 'X-SERVICE-APIKEY': s.apiKey } });
    expect(await r.json()).toEqual({ code: -1108, msg: 'cancelOrigClientOrderId or cancelOrderId must be provided' });
  });

  it('crosses two accounts: fills, myTrades on both sides, and the public data (trades, klines, tickers, depth)', async () => {
    const s = await sandbox();
    const maker = client(s);
    const taker = counterparty(s);
    const ask = await maker.spot.newOrder(limit('SELL', '0.002', '3000000'));
    const buy = await taker.client.spot.newOrder(limit('BUY', '0.003', '3000000'));
    expect(buy).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.002', cummulativeQuoteQty: '6000' });
    const fills = 'fills' in buy && Array.isArray(buy.fills) ? buy.fills : [];
    expect(fills).toEqual([{ price: '3000000', qty: '0.002', commission: '0.000002', commissionAsset: 'BTC', tradeId: expect.any(String) }]);
    const tradeId = fills[0]?.tradeId ?? '';
    expect(BigInt(tradeId)).toBeGreaterThan(2n ** 53n);

    const makerTrades = await maker.spot.myTrades({ symbol: 'BTCPHP' });
    expect(makerTrades).toEqual([
      expect.objectContaining({ id: tradeId, orderId: ask.orderId, price: '3000000', qty: '0.002', quoteQty: '6000', commission: '6', commissionAsset: 'PHP', isBuyer: false, isMaker: true, isBestMatch: true }),
    ]);
    const takerTrades = await taker.client.spot.myTrades({ symbol: 'BTCPHP', orderId: buy.orderId });
    expect(takerTrades).toEqual([expect.objectContaining({ id: tradeId, orderId: buy.orderId, isBuyer: true, isMaker: false, commissionAsset: 'BTC' })]);
    expect(await taker.client.spot.myTrades({ symbol: 'BTCPHP', fromId: String(BigInt(tradeId) + 1n) })).toEqual([]);
    expect(await maker.spot.queryOrder({ orderId: ask.orderId })).toMatchObject({ status: 'FILLED', executedQty: '0.002' });
    expect((await maker.spot.historyOrders({ symbol: 'BTCPHP' })).map((o) => o.status)).toEqual(['FILLED']);

    const trades = await maker.market.trades({ symbol: 'BTCPHP' });
    expect(trades).toEqual([expect.objectContaining({ id: tradeId, price: '3000000', qty: '0.002', quoteQty: '6000', isBuyerMaker: false })]);
    const [k] = await maker.market.klines({ symbol: 'BTCPHP', interval: '1m' });
    expect(k).toMatchObject({ open: '3000000', close: '3000000', volume: '0.002', quoteVolume: '6000', trades: 1, takerBuyBaseVolume: '0.002' });
    expect(await maker.market.ticker24hr({ symbol: 'BTCPHP' })).toMatchObject({ lastPrice: '3000000', volume: '0.002', count: 1, bidPrice: '3000000', bidQty: '0.001', firstId: tradeId, lastId: tradeId });
    expect(await maker.market.tickerPrice({ symbol: 'BTCPHP' })).toEqual({ symbol: 'BTCPHP', price: '3000000' });
    expect(await maker.market.bookTicker({ symbol: 'BTCPHP' })).toEqual({ symbol: 'BTCPHP', bidPrice: '3000000', bidQty: '0.001', askPrice: '0', askQty: '0' });
    const depth = await maker.market.depth({ symbol: 'BTCPHP' });
    expect(depth).toMatchObject({ bids: [['3000000', '0.001']], asks: [] });
    expect(await maker.market.avgPrice({ symbol: 'btcphp' })).toEqual({ mins: 5, price: '3000000' });
  });
});

describe('sandbox spot: the wire', () => {
  it('writes order ids above 2^53 as bare JSON numbers and takes them back exactly', async () => {
    const s = await sandbox();
    const c = client(s);
    await c.spot.newOrder(limit('BUY', '0.001', '2990000'));
    // The second id: the first is a round start value a double happens to hold exactly.
    const placed = await c.spot.newOrder(limit('BUY', '0.001', '3000000'));
    expect(BigInt(placed.orderId)).toBeGreaterThan(2n ** 53n);
    expect(BigInt(Number(placed.orderId))).not.toBe(BigInt(placed.orderId));
    expect(await c.spot.queryOrder({ orderId: placed.orderId })).toMatchObject({ orderId: placed.orderId });
    const text = await (await fetch(`${s.baseUrl}/openapi/v1/order?${signed(s, `orderId=${placed.orderId}&timestamp=${Date.now()}`)}`, { headers: { 'X-SERVICE-APIKEY': s.apiKey } })).text();
    expect(text).toContain(`"orderId":${placed.orderId},`);
    expect((await c.spot.cancelOrder({ orderId: placed.orderId })).orderId).toBe(placed.orderId);
  });

  it('writes a canceled order with the fields in the order of the notes 6 cancelResponse sample', async () => {
    const s = await sandbox();
    const c = client(s);
    const sampleKeys = ['symbol', 'orderId', 'clientOrderId', 'transactTime', 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'stpFlag', 'stopPrice'];
    const raw = async (method: string, path: string, query: string) => {
      const r = await fetch(`${s.baseUrl}${path}?${signed(s, `${query}&timestamp=${Date.now()}`)}`, { method, headers: { 'X-SERVICE-APIKEY': s.apiKey } });
      return (await r.json()) as unknown;
    };
    await c.spot.newOrder(limit('BUY', '0.001', '2900000', { newClientOrderId: 'k-1' }));
    const canceled = (await raw('DELETE', '/openapi/v1/order', 'origClientOrderId=k-1')) as Record<string, unknown>;
    expect(Object.keys(canceled)).toEqual(sampleKeys);
    await c.spot.newOrder(limit('BUY', '0.001', '2900000', { newClientOrderId: 'k-2' }));
    const replaced = (await raw('POST', '/openapi/v1/order/cancelReplace', 'symbol=BTCPHP&side=BUY&type=LIMIT&quantity=0.001&price=2800000&cancelReplaceMode=STOP_ON_FAILURE&cancelOrigClientOrderId=k-2')) as { cancelResponse: Record<string, unknown> };
    expect(Object.keys(replaced.cancelResponse)).toEqual(sampleKeys);
    const all = (await raw('DELETE', '/openapi/v1/openOrders', 'symbol=BTCPHP')) as Record<string, unknown>[];
    expect(all.map((o) => Object.keys(o))).toEqual([sampleKeys]);
  });

  it('places an order from a raw third-party-style request: all in the query, stray `&&signature=`', async () => {
    const s = await sandbox();
    const q = `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=3000000&newClientOrderId=raw-1&timestamp=${Date.now()}&`;
    const r = await fetch(`${s.baseUrl}/openapi/v1/order?${q}&signature=${hmacSha256Hex(s.apiSecret, q)}`, { method: 'POST', headers: { 'X-SERVICE-APIKEY': s.apiKey } });
    const text = await r.text();
    expect(r.status).toBe(200);
    expect(text).toMatch(/^\{"symbol":"BTCPHP","orderId":\d{19},"clientOrderId":"raw-1","transactTime":\d+,/);
    expect((await client(s).spot.openOrders()).map((o) => o.clientOrderId)).toEqual(['raw-1']);
  });

  it('refuses an iceberg order (spec 7.4) instead of resting it fully visible; icebergQty=0 asks for none', async () => {
    const s = await sandbox();
    const send = async (path: string, extra: string) => {
      const q = `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.002&price=3000000${extra}&timestamp=${Date.now()}`;
      const r = await fetch(`${s.baseUrl}${path}?${signed(s, q)}`, { method: 'POST', headers: { 'X-SERVICE-APIKEY': s.apiKey } });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const refusal = { status: 400, body: { code: -2010, msg: 'Iceberg orders are not supported for this symbol.' } };
    expect(await send('/openapi/v1/order', '&icebergQty=0.001')).toEqual(refusal);
    expect(await send('/openapi/v1/order/test', '&icebergQty=0.001')).toEqual(refusal);
    expect(await client(s).spot.openOrders()).toEqual([]);
    expect(await send('/openapi/v1/order', '&icebergQty=0')).toMatchObject({ status: 200, body: { status: 'NEW' } });
  });

  it('serves per-symbol trade fees from the configuration', async () => {
    const s = await startSandbox({ plugins: tradingPlugins(), config: { symbols: [{ symbol: 'BTCPHP', baseAsset: 'BTC', baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, filters: [], fees: { maker: '0.0025', taker: '0.003' } }] } });
    defer(() => s.close());
    const c = client(s);
    expect(await c.spot.tradeFee()).toEqual([{ symbol: 'BTCPHP', makerCommission: '0.0025', takerCommission: '0.003' }]);
    expect(await c.spot.tradeFee({ symbol: 'btcphp' })).toEqual([{ symbol: 'BTCPHP', makerCommission: '0.0025', takerCommission: '0.003' }]);
    expect((await failure(c.spot.tradeFee({ symbol: 'NOPE' }))).venueCode).toBe(-1025);
  });
});

function signed(s: SandboxHandle, query: string): string {
  return `${query}&signature=${hmacSha256Hex(s.apiSecret, query)}`;
}
