/**
 * The client's failure behaviour (issue deliverables 7-9, acceptance "429 with Retry-After, 418,
 * -1021, a 5xx on GET, and a 5xx on POST", "Bad input", lossless ids), over real HTTP on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { dec } from '../src/core/money/decimal.ts';
import { endpointsByArea } from '../src/exchange/endpoints/index.ts';
import {
  EnvelopeError,
  MalformedResponseError,
  MalformedWriteResponseError,
  NetworkError,
  ParameterError,
  PartialFailureError,
  QueueTimeoutError,
  RateLimitedError,
  ServerError,
  UnknownOutcomeError,
  VenueRejectedError,
} from '../src/exchange/errors/errors.ts';
import { startCaptureServer, type CaptureServer, type Reply } from './support/capture-server.ts';
import { InstantClock } from './support/instant-clock.ts';

let server: CaptureServer;
let handle: ClientHandle;
let clock: InstantClock;
const ORDER = { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' } as const;
const orderAck = { symbol: 'BTCPHP', orderId: 1375445991893797391n.toString(), clientOrderId: 'c1', transactTime: 1 };

const budgetOf = (c: ReturnType<typeof client>) => c.rest.budget;

function client(overrides: Record<string, unknown> = {}, base?: string) {
  clock = new InstantClock();
  handle = createClient({
    baseUrl: base ?? server.baseUrl,
    exchange: parseConfig({ exchange: { timeoutMs: 300, ...overrides } }).exchange,
    secrets: { apiKey: 'k', apiSecret: 's' },
    clock,
  });
  return handle.client;
}

/** Answers /time itself; everything else from the given sequence of replies (the last repeats). */
function script(...replies: Reply[]) {
  let i = 0;
  server.setHandler((req) => {
    if (req.path === '/openapi/v1/time') return { body: { serverTime: Date.now() } };
    const reply = replies[Math.min(i, replies.length - 1)]!;
    i++;
    return reply;
  });
}
const calls = (path: string) => server.requests.filter((r) => r.path === path);

beforeEach(async () => {
  server = await startCaptureServer();
});
afterEach(async () => {
  await handle?.close();
  await server.close();
});

describe('rate limits (deliverable 8)', () => {
  it('429 with Retry-After pauses every caller until then, and a GET is retried after it', async () => {
    const c = client();
    script({ status: 429, headers: { 'retry-after': '3' }, body: { code: -1003, msg: 'Too many requests' } }, { body: { ip: '1.2.3.4' } });
    await expect(c.general.userIp()).resolves.toEqual({ ip: '1.2.3.4' });
    expect(calls('/openapi/v1/user/ip')).toHaveLength(2);
    expect(clock.slept).toBeGreaterThanOrEqual(2900);
  });

  it('429 on a POST is raised as RateLimitedError and not resent', async () => {
    const c = client();
    script({ status: 429, headers: { 'retry-after': '2' }, body: { code: -1015, msg: 'Too many new orders' } });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(2000);
    expect(calls('/openapi/v1/order')).toHaveLength(1);
    // The next caller waits out the pause before anything leaves.
    script({ body: { ip: 'x' } });
    await c.general.userIp();
    expect(clock.slept).toBeGreaterThanOrEqual(1900);
  });

  it('418 marks a ban: never retried, and nothing is sent until it ends', async () => {
    const c = client();
    script({ status: 418, headers: { 'retry-after': '120' }, body: { code: -1003, msg: 'banned' } });
    const t0 = clock.now();
    const error = (await c.general.userIp().catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ banned: true, retryAfterMs: 120_000, code: 'IP_BANNED' });
    expect(error.pausedUntil! - t0).toBeGreaterThanOrEqual(120_000);
    expect(calls('/openapi/v1/user/ip')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    script({ body: { ip: 'x' } });
    // A call that may not wait that long fails at once, sending nothing.
    const refused = (await c.general.userIp().catch((e: unknown) => e)) as QueueTimeoutError;
    expect(refused).toBeInstanceOf(QueueTimeoutError);
    expect(refused).toMatchObject({ sent: false, reason: 'paused', banned: true, until: error.pausedUntil, outcome: 'rate-limited' });
    expect(refused.message).toMatch(/not sent: the IP is banned \(418\) \(until .*\), longer than this call may wait \(60000 ms\)/);
    expect(calls('/openapi/v1/user/ip')).toHaveLength(1);
    // One that may wait is held until the ban is over.
    await c.general.userIp(undefined, { maxQueueMs: 130_000 });
    expect(calls('/openapi/v1/user/ip')).toHaveLength(2);
    expect(clock.slept).toBeGreaterThanOrEqual(119_000);
  });

  it('418 without Retry-After: one request, then a pause of at least the 2-minute minimum ban, doubling on repeat', async () => {
    const c = client();
    script({ status: 418, body: { code: -1003, msg: 'banned' } });
    const t0 = clock.now();
    const first = (await c.market.depth({ symbol: 'BTCPHP' }).catch((e: unknown) => e)) as RateLimitedError;
    expect(first).toMatchObject({ banned: true, retryAfterMs: undefined });
    expect(first.pausedUntil! - t0).toBeGreaterThanOrEqual(120_000);
    expect(calls('/openapi/quote/v1/depth')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    // After the ban, a second 418 without Retry-After: 4 minutes.
    const second = (await c.market.depth({ symbol: 'BTCPHP' }, { maxQueueMs: 200_000 }).catch((e: unknown) => e)) as RateLimitedError;
    expect(calls('/openapi/quote/v1/depth')).toHaveLength(2);
    expect(second.pausedUntil! - clock.now()).toBeGreaterThanOrEqual(239_000);
  });

  it('418 with a 3-day Retry-After is surfaced at once, not slept through', async () => {
    const c = client();
    script({ status: 418, headers: { 'retry-after': '259200' }, body: { code: -1003, msg: 'banned' } });
    const error = (await c.market.depth({ symbol: 'BTCPHP' }).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toMatchObject({ banned: true, retryAfterMs: 259_200_000 });
    expect(calls('/openapi/quote/v1/depth')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(error.message).toMatch(/no request is sent until \d{4}-/);
  });

  it('429 with Retry-After: 0 still pauses at least 1 s between attempts', async () => {
    const c = client();
    // When each attempt arrived, on the client's clock (wall time plus its sleeps): a sleep alone
    // can be a few ms under the pause, the wall time spent since the 429 being part of it.
    const arrivals: number[] = [];
    server.setHandler((req) => {
      if (req.path === '/openapi/v1/time') return { body: { serverTime: Date.now() } };
      arrivals.push(clock.now());
      return { status: 429, headers: { 'retry-after': '0' }, body: { code: -1003, msg: 'too many' } };
    });
    const error = await c.market.depth({ symbol: 'BTCPHP' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(calls('/openapi/quote/v1/depth')).toHaveLength(3);
    const sends = calls('/openapi/quote/v1/depth').length;
    const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number));
    expect(gaps.filter((ms) => ms >= 1000)).toHaveLength(sends - 1);
  });

  it('a 429 pause longer than the call may wait surfaces the error instead of blocking (HTTP-date Retry-After)', async () => {
    const c = client();
    script({ status: 429, headers: { 'retry-after': new Date(clock.now() + 120_000).toUTCString() }, body: { code: -1003, msg: 'too many' } });
    const error = (await c.market.depth({ symbol: 'BTCPHP' }).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(118_000);
    expect(calls('/openapi/quote/v1/depth')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('an order-rate 429 without Retry-After backs off exponentially; a write only waits within its bound', async () => {
    const c = client();
    script({ status: 429, body: { code: -1015, msg: 'Too many new orders' } });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect((error as RateLimitedError).retryAfterMs).toBeUndefined();
    expect(budgetOf(c).snapshot().lastRateLimit).toMatchObject({ status: 429, orderRate: true });
    script({ body: orderAck });
    // The 1 s back-off is longer than this order's timeoutMs (300 ms): refused, not sent late.
    await expect(c.spot.newOrder(ORDER)).rejects.toMatchObject({ name: 'QueueTimeoutError', reason: 'paused', banned: false });
    expect(calls('/openapi/v1/order')).toHaveLength(1);
    await c.spot.newOrder(ORDER, { maxQueueMs: 2000 });
    expect(calls('/openapi/v1/order')).toHaveLength(2);
    expect(clock.slept).toBeGreaterThanOrEqual(900);
  });

  it('a write waits in the budget queue at most its timeoutMs, then fails saying nothing was sent', async () => {
    const c = client({ pools: { ORDERS: { limit: 1, windowMs: 10_000 } } });
    script({ body: orderAck });
    await c.spot.newOrder(ORDER);
    const t0 = clock.now();
    const refused = (await c.spot.newOrder(ORDER, { timeoutMs: 500 }).catch((e: unknown) => e)) as QueueTimeoutError;
    expect(refused).toBeInstanceOf(QueueTimeoutError);
    expect(refused).toMatchObject({ sent: false, reason: 'capacity', maxWaitMs: 500 });
    expect(clock.now() - t0).toBeLessThanOrEqual(500);
    expect(calls('/openapi/v1/order')).toHaveLength(1);
    await c.spot.newOrder(ORDER, { maxQueueMs: 15_000 });
    expect(calls('/openapi/v1/order')).toHaveLength(2);
  });
});

describe('clock (deliverable 7)', () => {
  it('-1021 triggers a resync and exactly one retry', async () => {
    const c = client();
    script({ status: 400, body: { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' } }, { body: orderAck });
    await expect(c.spot.newOrder(ORDER)).resolves.toMatchObject({ orderId: '1375445991893797391' });
    expect(calls('/openapi/v1/order')).toHaveLength(2);
    expect(calls('/openapi/v1/time').length).toBeGreaterThanOrEqual(2 * 5);
  });

  it('a second -1021 is raised, not retried again', async () => {
    const c = client();
    script({ status: 400, body: { code: -1021, msg: 'outside recvWindow' } });
    await expect(c.spot.newOrder(ORDER)).rejects.toMatchObject({ venueCode: -1021 });
    expect(calls('/openapi/v1/order')).toHaveLength(2);
  });

  it('a 5xx whose body carries -1021 is an unknown outcome on a POST: no resync, never resent', async () => {
    const c = client();
    script({ status: 503, body: { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' } }, { body: orderAck });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toMatchObject({ httpStatus: 503, venueCode: -1021, outcome: 'unknown-outcome', category: 'server' });
    expect(calls('/openapi/v1/order')).toHaveLength(1);
    expect(calls('/openapi/v1/time')).toHaveLength(5); // the first sync only
  });

  it('the same 5xx with -1021 on a GET is a server fault: retried with backoff like any read', async () => {
    const c = client();
    script({ status: 503, body: { code: -1021, msg: 'outside recvWindow' } }, { body: [] });
    await expect(c.spot.openOrders({})).resolves.toEqual([]);
    expect(calls('/openapi/v1/openOrders')).toHaveLength(2);
    expect(calls('/openapi/v1/time')).toHaveLength(5);
  });

  it('stamps the server-aligned time: a server 30 s ahead is followed', async () => {
    const c = client();
    server.setHandler((req) => (req.path === '/openapi/v1/time' ? { body: { serverTime: Date.now() + 30_000 } } : { body: orderAck }));
    await c.spot.newOrder(ORDER);
    const order = calls('/openapi/v1/order')[0]!;
    const stamp = Number(new URLSearchParams(order.rawQuery).get('timestamp'));
    expect(Math.abs(stamp - (Date.now() + 30_000))).toBeLessThan(2000);
  });
  it('a clock sample that waited for the weight budget is measured from when it left, not from when it queued', async () => {
    // One request per 10 s: every /time sample queues ~10 s behind the one before. Server and client
    // share one (virtual) time, so the true offset is 0; a sample measured from when it queued reads
    // the server late by half its wait, and stamps every order ~5 s in the future (-1021 on the venue).
    const c = client({ pools: { IP: { limit: 1, windowMs: 10_000 } }, clockSamples: 3, maxWaitMs: 120_000, timeoutMs: 120_000 });
    let seenAt = 0;
    server.setHandler((req) => {
      if (req.path === '/openapi/v1/time') return { body: { serverTime: clock.now() } };
      seenAt = clock.now();
      return { body: orderAck };
    });
    await c.spot.newOrder(ORDER);
    expect(clock.slept).toBeGreaterThanOrEqual(20_000);
    const stamp = Number(new URLSearchParams(calls('/openapi/v1/order')[0]!.rawQuery).get('timestamp'));
    expect(Math.abs(stamp - seenAt)).toBeLessThan(500);
    expect(Math.abs(c.rest.serverClock.offsetMs)).toBeLessThan(500);
  });
});

describe('errors and retries (deliverable 9)', () => {
  it('a 5xx on GET is retried with backoff and succeeds', async () => {
    const c = client();
    script({ status: 502, body: '<html>bad gateway</html>' }, { status: 503, body: {} }, { body: { ip: 'ok' } });
    await expect(c.general.userIp()).resolves.toEqual({ ip: 'ok' });
    expect(calls('/openapi/v1/user/ip')).toHaveLength(3);
    expect(clock.sleeps.filter((s) => s > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('a GET answered 200 with a page that is not JSON is retried (outcome retryable)', async () => {
    const c = client();
    script({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>cf</html>' }, { body: { ip: 'ok' } });
    await expect(c.general.userIp()).resolves.toEqual({ ip: 'ok' });
    expect(calls('/openapi/v1/user/ip')).toHaveLength(2);
    expect(clock.sleeps.filter((s) => s > 0)).toHaveLength(1);
  });

  it('a GET whose answers keep missing the documented shape ends in a MalformedResponseError after the retries', async () => {
    const c = client();
    script({ body: { mins: 5, price: { value: 1 } } });
    const error = await c.market.avgPrice({ symbol: 'BTCPHP' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toMatchObject({ outcome: 'retryable', field: 'price' });
    expect(calls('/openapi/quote/v1/avgPrice')).toHaveLength(3);
  });

  it('a GET that keeps failing with a non-JSON 5xx page ends in a ServerError naming the status', async () => {
    const c = client();
    script({ status: 503, body: '<html><body>Service Unavailable</body></html>' });
    const error = await c.general.userIp().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(String((error as Error).message)).toMatch(/503/);
    expect(calls('/openapi/v1/user/ip')).toHaveLength(3);
  });

  it('a 5xx on POST is an unknown outcome and is never resent', async () => {
    const c = client();
    script({ status: 500, body: { code: -1000, msg: 'unknown error' } });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((error as UnknownOutcomeError).outcome).toBe('unknown-outcome');
    expect(calls('/openapi/v1/order')).toHaveLength(1);
  });

  it('a POST that times out is an unknown outcome and is never resent', async () => {
    const c = client();
    script({ delayMs: 800, body: orderAck });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(calls('/openapi/v1/order')).toHaveLength(1);
  });

  it('a POST answered 200 with an HTML page is an UnknownOutcomeError (the order may exist), not resent', async () => {
    const c = client();
    script({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>OK</body></html>' });
    const error = await c.spot.newOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toBeInstanceOf(MalformedWriteResponseError);
    expect(error).toMatchObject({ outcome: 'unknown-outcome', category: 'decode', httpStatus: 200, body: '<html><body>OK</body></html>' });
    expect(calls('/openapi/v1/order')).toHaveLength(1);
  });

  it('a POST answered 200 with an unreadable order is an UnknownOutcomeError naming the field', async () => {
    const c = client();
    script({ body: { symbol: 'BTCPHP', orderId: 'not-an-id', clientOrderId: 'c1', transactTime: 1 } });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as MalformedWriteResponseError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.field).toBe('orderId');
    expect(calls('/openapi/v1/order')).toHaveLength(1);
  });

  it('a FULL order answer with one undecodable fill names fills[i].field; no fill is passed on raw', async () => {
    const c = client();
    const result = { ...orderAck, price: '1', origQty: '2', executedQty: '2', cummulativeQuoteQty: '2', status: 'FILLED', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', stopPrice: '0', origQuoteOrderQty: '0' };
    const fill = { price: '1', qty: '1', commission: '0', commissionAsset: 'BTC', tradeId: '123' };
    script({ body: { ...result, fills: [fill, { ...fill, commissionAsset: null, tradeId: '124' }] } });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as MalformedWriteResponseError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.field).toBe('fills[1].commissionAsset');
    expect(error.message).toContain("at 'fills[1].commissionAsset'");
    expect(error.body).toContain('"tradeId":"124"'); // the answer is kept for the operator
    // The same answer with every fill readable decodes them all.
    script({ body: { ...result, fills: [fill, { ...fill, price: 1e-8, tradeId: 124 }] } });
    const order = await c.spot.newOrder(ORDER);
    expect(order).toMatchObject({ fills: [{ tradeId: '123' }, { price: '0.00000001', tradeId: '124' }] });
  });

  it('fiat cash-out answered 200 with the server-side-error envelope 88010000 is an UnknownOutcomeError', async () => {
    const c = client();
    script({ body: { status: 88010000, error: 'server-side error', data: null, params: null } });
    const params = { internalOrderId: '1212323211', currency: 'PHP', amount: '50', channelName: 'SWIFTPAY_PESONET', channelSubject: 'gcash' } as const;
    const error = await c.fiat.cashOut(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toMatchObject({ envelopeStatus: 88010000, outcome: 'unknown-outcome', category: 'envelope' });
    expect(calls('/openapi/fiat/v1/cash-out')).toHaveLength(1);
    // A business refusal stays a definite rejection.
    script({ body: { status: 88010013, error: 'insufficient balance', data: null, params: null } });
    await expect(c.fiat.cashOut(params)).rejects.toMatchObject({ name: 'EnvelopeError', outcome: 'rejected', envelopeStatus: 88010013 });
  });

  it('cancelReplace -1133 (cancel failed, new order placed) is a PartialFailureError, not a rejection', async () => {
    const c = client();
    script({
      status: 400,
      body: '{"code":-1133,"msg":"Order cancel-replace partially failed.","data":{"cancelResult":"FAILURE","newOrderResult":"SUCCESS","cancelResponse":{"code":-2011,"msg":"CANCEL_REJECTED"},"newOrderResponse":{"symbol":"BTCPHP","orderId":1205324142243592555,"clientOrderId":"new1","transactTime":1658307188800}}}',
    });
    const error = (await c.spot
      .cancelReplace({ ...ORDER, cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: '1', newClientOrderId: 'new1' })
      .catch((e: unknown) => e)) as PartialFailureError;
    expect(error).toBeInstanceOf(PartialFailureError);
    expect(error).not.toBeInstanceOf(VenueRejectedError);
    expect(error).toMatchObject({ outcome: 'partial', succeeded: ['newOrder'], legs: { newOrderResponse: { orderId: '1205324142243592555', clientOrderId: 'new1' } } });
    expect(calls('/openapi/v1/order/cancelReplace')).toHaveLength(1);
  });

  it('a venue rejection is typed with its code, message and category', async () => {
    const c = client();
    script({ status: 400, body: { code: -2010, msg: 'Account has insufficient balance for requested action.' } });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as VenueRejectedError;
    expect(error).toBeInstanceOf(VenueRejectedError);
    expect(error).toMatchObject({ venueCode: -2010, outcome: 'rejected', category: 'funds', endpoint: 'spot.newOrder', httpStatus: 400 });
  });

  it('an envelope with status != 0 is an error even on HTTP 200', async () => {
    const c = client();
    script({ body: { status: 10000003, error: 'Quote expired', data: null } });
    const error = await c.convert.acceptQuote({ quoteId: 'q1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvelopeError);
    expect(error).toMatchObject({ envelopeStatus: 10000003 });
  });
});

describe('client ids and reconciling an unknown outcome (spec 7.1, 4.5)', () => {
  const sentQuery = (path: string, method = 'POST') => new URLSearchParams(server.requests.find((r) => r.path === path && r.method === method)!.rawQuery);
  const order = (clientOrderId: string) => ({ ...orderAck, clientOrderId, price: '100', origQty: '1', executedQty: '0', cummulativeQuoteQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', stopPrice: '0', origQuoteOrderQty: '0', time: 1, updateTime: 1, isWorking: true });

  it('a newOrder without newClientOrderId leaves with a generated one, and its UnknownOutcomeError carries it', async () => {
    const c = client();
    script({ status: 500, body: 'oops' });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    const sentId = sentQuery('/openapi/v1/order').get('newClientOrderId');
    expect(sentId).toMatch(/^hc[0-9a-z]{11}-1$/);
    expect(error.clientId).toBe(sentId);
    expect(error.endpoint).toBe('spot.newOrder');
    expect(error.request).toEqual({
      method: 'POST',
      path: '/openapi/v1/order',
      params: { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100', newClientOrderId: sentId },
      clientId: { param: 'newClientOrderId', value: sentId, generated: true },
      timestamp: Number(sentQuery('/openapi/v1/order').get('timestamp')),
      recvWindow: 5000,
    });
    // Secrets and the signature are never part of it, in the error or its JSON.
    expect(JSON.stringify(error.toJSON())).not.toMatch(/signature|apiKey|"s"|"k"/);
    expect(error.toJSON()).toMatchObject({ request: { clientId: { value: sentId } } });
  });

  it("keeps the caller's id, and a -1021 resend carries the same generated id", async () => {
    const c = client({ clientIdPrefix: 'desk1' });
    script({ status: 500, body: {} });
    const mine = (await c.spot.newOrder({ ...ORDER, newClientOrderId: 'my-0001' }).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(mine.request?.clientId).toEqual({ param: 'newClientOrderId', value: 'my-0001', generated: false });
    server.requests.length = 0;
    script({ status: 400, body: { code: -1021, msg: 'outside recvWindow' } }, { body: orderAck });
    await c.spot.newOrder(ORDER);
    const ids = calls('/openapi/v1/order').map((r) => new URLSearchParams(r.rawQuery).get('newClientOrderId'));
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^desk1[0-9a-z]{11}-1$/); // the caller's own id used none
    expect(ids[1]).toBe(ids[0]);
  });

  it('generates the other writes\' client ids too (withdrawOrderId within 30 characters)', async () => {
    const c = client();
    script({ body: { id: '1' } });
    await c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: 'r1', amount: '1' });
    const id = new URLSearchParams(server.requests.find((r) => r.path === '/openapi/wallet/v1/withdraw/apply')!.body).get('withdrawOrderId');
    expect(id).toMatch(/^hc[0-9a-z]{11}-1$/);
    expect(id!.length).toBeLessThanOrEqual(30);
  });

  it('reconcileOrder finds the order by the client id with GET /openapi/v1/order, never resending', async () => {
    const c = client();
    script({ status: 502, body: '<html>bad gateway</html>' });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as UnknownOutcomeError;
    server.setHandler((req) => (req.path === '/openapi/v1/time' ? { body: { serverTime: Date.now() } } : { body: order(error.clientId!) }));
    const result = await c.reconcileOrder(error);
    expect(result).toMatchObject({ status: 'found', clientOrderId: error.clientId, order: { orderId: '1375445991893797391', status: 'NEW' } });
    expect(sentQuery('/openapi/v1/order', 'GET').get('origClientOrderId')).toBe(error.clientId);
    expect(calls('/openapi/v1/order').filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(clock.sleeps.filter((ms) => ms > 0)).toEqual([]); // found: no settling wait
  });

  it('reconcileOrder answers not-found only once the request can no longer land (timestamp + recvWindow)', async () => {
    const c = client();
    script({ delayMs: 800, body: orderAck }); // times out: 300 ms
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toMatchObject({ category: 'timeout' });
    server.setHandler((req) => (req.path === '/openapi/v1/time' ? { body: { serverTime: Date.now() } } : { status: 400, body: { code: -2013, msg: 'Order does not exist.' } }));
    const result = await c.reconcileOrder(error);
    expect(result).toMatchObject({ status: 'not-found', clientOrderId: error.clientId, error: { venueCode: -2013 } });
    expect(calls('/openapi/v1/order').filter((r) => r.method === 'GET')).toHaveLength(2);
    expect(calls('/openapi/v1/order').filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(clock.slept).toBeGreaterThan(5000); // waited past timestamp + recvWindow (+ 1 s margin)
    expect(clock.slept).toBeLessThanOrEqual(6000);
  });

  it('generateClientId: false sends the caller\'s parameters only: the official signing vector 1 end to end (notes 3)', async () => {
    const fixed = { now: () => 1538323200000, sleep: async () => {} };
    handle = createClient({
      baseUrl: server.baseUrl,
      exchange: parseConfig({ exchange: { clockSamples: 1 } }).exchange,
      secrets: { apiKey: 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW', apiSecret: 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76' },
      clock: fixed,
    });
    server.setHandler((req) => (req.path === '/openapi/v1/time' ? { body: { serverTime: 1538323200000 } } : { body: orderAck }));
    await handle.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' }, { generateClientId: false });
    expect(calls('/openapi/v1/order')[0]!.rawQuery).toBe(
      'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=d7b09aa959094bafd1de10be3985651691fff6cc04b5cd94aea8cc1ca02e0ed8',
    );
  });

  it('reconcileOrder refuses an error that is not from an order write', async () => {
    const c = client();
    script({ status: 500, body: {} });
    const error = (await c.wallet.withdraw({ coin: 'XRP', network: 'XRP', address: 'r1', amount: '1' }).catch((e: unknown) => e)) as UnknownOutcomeError;
    await expect(c.reconcileOrder(error)).rejects.toThrow(/spot\.newOrder or spot\.cancelReplace, got an error of wallet\.withdraw/);
    expect(error.clientId).toMatch(/^hc/); // still there to search the withdrawal history with
  });
});

describe('bad input never crashes', () => {
  it('a missing parameter is a ParameterError naming it, and nothing is sent', async () => {
    const c = client();
    const error = await c.market.depth({} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParameterError);
    expect(error).toMatchObject({ param: 'symbol', venueCode: -1105 });
    expect(server.requests).toHaveLength(0);
  });

  it('an invalid parameter names the parameter and the reason', async () => {
    const c = client();
    await expect(c.spot.newOrder({ ...ORDER, side: 'HOLD' as never })).rejects.toThrow(/side.*one of BUY, SELL/);
    await expect(c.spot.newOrder({ ...ORDER, quantity: 'abc' })).rejects.toThrow(/quantity.*decimal/);
    await expect(c.general.userIp({ bogus: 1 } as never)).rejects.toThrow(/bogus/);
    expect(server.requests).toHaveLength(0);
  });

  it('an amount computed as a float is refused before sending; strings and Decimal go out exactly', async () => {
    const c = client();
    const error = await c.spot.newOrder({ ...ORDER, quantity: (0.1 + 0.2) as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParameterError);
    expect(error).toMatchObject({ param: 'quantity', venueCode: -1025 });
    expect(String((error as Error).message)).toContain('not the number 0.30000000000000004');
    expect(server.requests).toHaveLength(0);
    script({ body: orderAck });
    await c.spot.newOrder({ ...ORDER, quantity: dec('0.1').plus('0.2'), price: '1E-8' });
    const sent = new URLSearchParams(calls('/openapi/v1/order')[0]!.rawQuery);
    expect([sent.get('quantity'), sent.get('price')]).toEqual(['0.3', '0.00000001']);
  });

  it('decimal strings in exponent form come back in plain form, like numbers do', async () => {
    const c = client();
    script({ body: '{"lastUpdateId":12345678901234567890,"bids":[["1e-8","0.00000001"],["73247.300000000000000000","1E+2"]],"asks":[[1e-8, 0.1]]}' });
    await expect(c.market.depth({ symbol: 'BTCPHP' })).resolves.toEqual({
      lastUpdateId: '12345678901234567890',
      bids: [
        ['0.00000001', '0.00000001'],
        ['73247.300000000000000000', '100'],
      ],
      asks: [['0.00000001', '0.1']],
    });
  });

  it('a malformed response body is a MalformedResponseError naming the field', async () => {
    const c = client();
    script({ body: { mins: 5, price: { value: 1 } } });
    const error = await c.market.avgPrice({ symbol: 'BTCPHP' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).field).toBe('price');
    expect(String((error as Error).message)).toMatch(/market\.avgPrice.*'price'/);
  });

  it('a 200 that is not JSON is a MalformedResponseError', async () => {
    const c = client({ retry: { maxAttempts: 1 } });
    script({ body: 'not json at all' });
    await expect(c.general.ping()).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('connection refused is a NetworkError', async () => {
    const closed = await startCaptureServer();
    const url = closed.baseUrl;
    await closed.close();
    const c = client({}, url);
    const error = await c.general.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(String((error as Error).message)).toMatch(/general\.ping/);
  });
});

describe('lossless ids', () => {
  it('an id above 2^53 in any response survives as the exact string', async () => {
    const c = client();
    server.setHandler((req) =>
      req.path === '/openapi/v1/time'
        ? { body: { serverTime: Date.now() } }
        : {
            body: '[{"symbol":"BTCPHP","id":1375445991893797391,"orderId":1202289462787244800,"price":"1","qty":"1","quoteQty":"1","commission":"0","commissionAsset":"PHP","time":1,"isBuyer":true,"isMaker":false,"isBestMatch":true}]',
          },
    );
    const trades = await c.spot.myTrades({ symbol: 'BTCPHP' });
    expect(trades[0]).toMatchObject({ id: '1375445991893797391', orderId: '1202289462787244800' });
  });

  it('exposes a typed method for every endpoint of the table', () => {
    const c = client();
    for (const [area, endpoints] of Object.entries(endpointsByArea)) {
      for (const name of Object.keys(endpoints)) {
        expect(typeof (c as unknown as Record<string, Record<string, unknown>>)[area]![name], `${area}.${name}`).toBe('function');
      }
    }
  });
});
