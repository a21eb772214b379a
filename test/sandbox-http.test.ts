/**
 * The sandbox's HTTP framework end to end (issue "Sandbox exchange"): a real server on 127.0.0.1
 * (ephemeral port), driven by the project's own client and by raw curl-style requests. Covers
 * spec 1, 5, 7, 8 and protocol notes 2, 7, 8: decoding, signatures (-1022), timing (-1021), IP
 * whitelists (-2017), permissions (-1020), rate limits (429 then 418), bad input (never a 500),
 * the official vector wire formats, and the listen-key lifecycle on sandbox time.
 */
import { describe, expect, it } from 'vitest';
import { parseInstrument } from '../src/core/market/instrument.ts';
import { VenueRejectedError } from '../src/exchange/errors/errors.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { FakeBalances } from '../src/sandbox/accounts/fake-balances.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import type { HandlerContext } from '../src/sandbox/http/route-types.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();

async function sandbox(config: SandboxConfigInput = {}): Promise<SandboxHandle> {
  const s = await startSandbox({ config: { admin: { enabled: true }, ...config }, balances: new FakeBalances() });
  defer(() => s.close());
  return s;
}

const client = (s: SandboxHandle, apiKey = s.apiKey, apiSecret = s.apiSecret) => sandboxClient(s, defer, { key: { apiKey, secret: apiSecret } });
const admin = (s: SandboxHandle, method: string, path: string, body?: unknown) => adminCall(s, method, path, body);

async function raw(url: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown>; text: string }> {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: JSON.parse(text) as Record<string, unknown>, text };
}

async function venueCode(call: Promise<unknown>): Promise<number | undefined> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VenueRejectedError);
  return (e as VenueRejectedError).venueCode;
}

const echo = (ctx: HandlerContext) => ({ accepted: ctx.def.id, params: ctx.params, account: ctx.account?.id });

describe('sandbox HTTP: the project client against it', () => {
  it('serves ping, time and exchangeInfo that decode and parse into instruments', async () => {
    const s = await sandbox();
    const c = client(s);
    expect(await c.general.ping()).toEqual({});
    const { serverTime } = await c.general.time();
    expect(Math.abs(serverTime - Date.now())).toBeLessThan(5000);
    const info = await c.general.exchangeInfo();
    expect(info.symbols.map((x) => x.symbol)).toEqual(['BTCPHP', 'ETHPHP', 'BTCUSDT', 'ETHUSDT', 'USDTPHP']);
    expect(parseInstrument(info.symbols[0]).filter('LOT_SIZE')?.stepSize.toFixed()).toBe('0.000001');
    const one = await c.general.exchangeInfo({ symbols: 'ethphp,BTCPHP' });
    expect(one.symbols.map((x) => x.symbol)).toEqual(['ETHPHP', 'BTCPHP']);
    expect(await venueCode(c.general.exchangeInfo({ symbol: 'NOPE' }))).toBe(-1025);
    expect((await raw(`${s.baseUrl}/openapi/v1/exchangeInfo?symbols=BTCPHP,NOPE`)).body).toEqual({ code: -1025, msg: "parameter 'symbols' is not valid: no such symbol 'NOPE'" });
    const legacy = await sandbox({ variants: { legacyInvalidSymbolCode: true } });
    expect((await raw(`${legacy.baseUrl}/openapi/v1/exchangeInfo?symbol=NOPE`)).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect((await c.general.userIp()).ip).toBe('127.0.0.1');
    // Notes 2.1 list formats: repeated keys and (percent-encoded) JSON arrays, case-insensitive.
    for (const q of ['symbols=btcphp&symbols=ETHUSDT', 'symbols=%5B%22btcphp%22,%22ETHUSDT%22%5D', 'symbols=["BTCPHP","ethusdt"]']) {
      const r = await raw(`${s.baseUrl}/openapi/v1/exchangeInfo?${q}`);
      expect((r.body['symbols'] as { symbol: string }[]).map((x) => x.symbol)).toEqual(['BTCPHP', 'ETHUSDT']);
    }
  });

  it('runs signed calls with the demo key (api-keys, check-sys-status)', async () => {
    const s = await sandbox();
    const c = client(s);
    const keys = await c.account.apiKeys();
    expect(keys).toEqual([
      expect.objectContaining({ apiKey: s.apiKey, status: 'ENABLE', apiType: ['Read only', 'Enable Spot', 'Enable Convert', 'Enable Crypto Wallet', 'Enable Fiat', 'Enable Account'] }),
    ]);
    expect(await c.general.checkSysStatus({ businessType: 'SPOT' })).toEqual([{ businessType: 'SPOT', businessStatus: 'on' }]);
  });

  it("signs a query holding ' and @ as sent: the URL parser re-encodes a bare ' (was -1022)", async () => {
    const s = await sandbox();
    const c = client(s);
    await expect(c.subAccount.list({ email: "o'brien@example.com" })).resolves.toMatchObject({ total: 0 });
  });

  it('refuses a key used from another IP (-2017), and one without its required whitelist (-1023)', async () => {
    const s = await sandbox();
    const accountId = s.accounts.getKey(s.apiKey)?.accountId;
    const restricted = await admin(s, 'POST', '/keys', { accountId, ipRestrict: true, ipList: ['203.0.113.7'] });
    expect(await venueCode(client(s, String(restricted['apiKey']), String(restricted['secret'])).account.apiKeys())).toBe(-2017);
    const unset = await admin(s, 'POST', '/keys', { accountId, requiresWhitelist: true });
    expect(await venueCode(client(s, String(unset['apiKey']), String(unset['secret'])).account.apiKeys())).toBe(-1023);
  });

  it('refuses an order from a read-only key with -1020 (auth runs before any handler)', async () => {
    const s = await sandbox();
    const ro = await admin(s, 'POST', '/keys', { accountId: s.accounts.getKey(s.apiKey)?.accountId, roles: [0] });
    const c = client(s, String(ro['apiKey']), String(ro['secret']));
    const order = c.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000' });
    expect(await venueCode(order)).toBe(-1020);
    expect(await c.account.apiKeys()).toHaveLength(2);
  });

  it('runs the listen-key lifecycle, expiring after 60 minutes of sandbox time', async () => {
    const s = await sandbox();
    const c = client(s);
    const { listenKey } = await c.userStream.startUserDataStream();
    expect((await c.userStream.startUserDataStream()).listenKey).toBe(listenKey);
    await admin(s, 'POST', '/clock', { advanceMs: 59 * 60_000 });
    expect(await c.userStream.keepaliveUserDataStream({ listenKey })).toEqual({});
    await admin(s, 'POST', '/clock', { advanceMs: 59 * 60_000 });
    expect(s.listenKeys.accountOf(listenKey, s.clock.now())).toBe(s.accounts.getKey(s.apiKey)?.accountId);
    await admin(s, 'POST', '/clock', { advanceMs: 60_000 });
    expect(await venueCode(c.userStream.keepaliveUserDataStream({ listenKey }))).toBe(-1125);
    const next = (await c.userStream.startUserDataStream()).listenKey;
    expect(next).not.toBe(listenKey);
    expect(await c.userStream.closeUserDataStream({ listenKey: next })).toEqual({});
    expect(await venueCode(c.userStream.closeUserDataStream({ listenKey: next }))).toBe(-1125);
  });

  it('refuses more new listen keys per hour than configured with -1026', async () => {
    const s = await sandbox({ listenKeys: { createsPerHour: 2 } });
    const c = client(s);
    for (let i = 0; i < 2; i++) {
      const { listenKey } = await c.userStream.startUserDataStream();
      await c.userStream.closeUserDataStream({ listenKey });
    }
    const refused = await c.userStream.startUserDataStream().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VenueRejectedError);
    expect(refused).toMatchObject({ venueCode: -1026, message: expect.stringContaining('2 per hour') });
    await admin(s, 'POST', '/clock', { advanceMs: 60 * 60_000 });
    expect((await c.userStream.startUserDataStream()).listenKey).toMatch(/^[A-Za-z0-9]{60}$/);
  });
});

describe('sandbox HTTP: raw wire formats', () => {
  const sign = (secret: string, text: string) => hmacSha256Hex(secret, text);

  it('answers -1022 to a signed request with one byte changed, -1021 to a stale timestamp', async () => {
    const s = await sandbox();
    const headers = { 'X-SERVICE-APIKEY': s.apiKey };
    const q = `recvWindow=5000&timestamp=${Date.now()}`;
    const good = await raw(`${s.baseUrl}/openapi/v1/api-keys?${q}&signature=${sign(s.apiSecret, q)}`, { headers });
    expect(good.status).toBe(200);
    const changed = q.replace('recvWindow=5000', 'recvWindow=5001');
    expect((await raw(`${s.baseUrl}/openapi/v1/api-keys?${changed}&signature=${sign(s.apiSecret, q)}`, { headers })).body).toEqual({
      code: -1022,
      msg: 'Signature for this request is not valid.',
    });
    const stale = `recvWindow=5000&timestamp=${Date.now() - 10_000}`;
    const old = await raw(`${s.baseUrl}/openapi/v1/api-keys?${stale}&signature=${sign(s.apiSecret, stale)}`, { headers });
    expect(old).toMatchObject({ status: 400, body: { code: -1021 } });
    const wide = `recvWindow=60001&timestamp=${Date.now()}`;
    expect((await raw(`${s.baseUrl}/openapi/v1/api-keys?${wide}&signature=${sign(s.apiSecret, wide)}`, { headers })).body).toMatchObject({ code: -1025, msg: expect.stringContaining("'recvWindow'") });
  });

  it('accepts the official curl examples byte for byte (vector key, sandbox clock at the vector time)', async () => {
    const VKEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
    const s = await sandbox({
      clock: { startTime: 1538323200000 },
      accounts: [{ email: 'vector@example.com', keys: [{ apiKey: VKEY, secret: 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76' }] }],
    });
    s.registerHandlers({ 'spot.newOrder': echo }, { replace: true });
    const headers = { 'X-SERVICE-APIKEY': VKEY };
    const ex1 = await raw(
      `${s.baseUrl}/openapi/v1/order?symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=d7b09aa959094bafd1de10be3985651691fff6cc04b5cd94aea8cc1ca02e0ed8`,
      { method: 'POST', headers },
    );
    expect(ex1).toMatchObject({ status: 200, body: { accepted: 'spot.newOrder', params: { symbol: 'BTCPHP', quantity: '1', price: '0.1' } } });
    const ex3 = await raw(`${s.baseUrl}/openapi/v1/order?symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=340037ed5366e650bd0e09e170db4a6ace0a9cba3e8af4e5c37ba2143fb84de0',
    });
    expect(ex3).toMatchObject({ status: 200, body: { accepted: 'spot.newOrder', params: { timeInForce: 'GTC', quantity: '1' } } });
  });

  it('serves check-sys-status signed or unsigned (notes 6), also unsigned with the key header attached', async () => {
    const s = await sandbox();
    const headers = { 'X-SERVICE-APIKEY': s.apiKey };
    const all = [
      { businessType: 'SPOT', businessStatus: 'on' },
      { businessType: 'CONVERT', businessStatus: 'on' },
    ];
    expect(await raw(`${s.baseUrl}/openapi/v1/check-sys-status`)).toMatchObject({ status: 200, body: all });
    expect(await raw(`${s.baseUrl}/openapi/v1/check-sys-status`, { headers })).toMatchObject({ status: 200, body: all });
    const q = `businessType=SPOT&timestamp=${Date.now()}`;
    expect(await raw(`${s.baseUrl}/openapi/v1/check-sys-status?${q}&signature=${sign(s.apiSecret, q)}`, { headers })).toMatchObject({ status: 200, body: [all[0]] });
    expect((await raw(`${s.baseUrl}/openapi/v1/check-sys-status?${q}&signature=${sign('wrong', q)}`, { headers })).body).toMatchObject({ code: -1022 });
  });

  it('accepts a curl-style request signed with the demo secret, and the stray `&&signature=` form', async () => {
    const s = await sandbox();
    s.registerHandlers({ 'spot.newOrder': echo }, { replace: true });
    const headers = { 'X-SERVICE-APIKEY': s.apiKey };
    const q = `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=3000000&recvWindow=5000&timestamp=${Date.now()}`;
    const r = await raw(`${s.baseUrl}/openapi/v1/order?${q}&signature=${sign(s.apiSecret, q)}`, { method: 'POST', headers });
    expect(r).toMatchObject({ status: 200, body: { accepted: 'spot.newOrder', account: s.accounts.getKey(s.apiKey)?.accountId } });
    const stray = `type=spot&timestamp=${Date.now()}&`;
    const sr = await raw(`${s.baseUrl}/openapi/v1/api-keys?${stray}&signature=${sign(s.apiSecret, stray)}`, { headers });
    expect(sr.status).toBe(200);
  });

  it('answers bad input with the documented code and message: never a 500, never a stack trace', async () => {
    const s = await sandbox();
    const cases: [string, RequestInit, number, number][] = [
      ['/openapi/v1/exchangeInfo?symbol=%E0%A4%A', {}, 400, -1025],
      ['/openapi/v1/exchangeInfo?%ZZ=1', {}, 400, -1010],
      ['/openapi/quote/v1/klines?symbol=BTCPHP&interval=1m&limit=abc', {}, 400, -1025],
      ['/openapi/quote/v1/klines?symbol=BTCPHP&interval=1m&limit=5000', {}, 400, -1025],
      ['/openapi/quote/v1/klines?interval=1m', {}, 400, -1105],
      ['/openapi/v1/exchangeInfo?symbol=BTCPHP&symbols=ETHPHP', {}, 400, -1107],
      ['/openapi/fiat/v1/cash-out', { method: 'POST', headers: { 'X-SERVICE-APIKEY': s.apiKey, 'content-type': 'application/json' }, body: '{"amount":' }, 400, -1010],
      ['/openapi/v1/order', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a='.padEnd(1_100_000, 'x') }, 413, -1010],
      ['/openapi/v1/nope', {}, 404, -1010],
      ['/openapi/v1/ping', { method: 'DELETE' }, 405, -1010],
      ['/openapi/v1/order', { method: 'POST' }, 401, -1002],
      ['/openapi/v1/order', { method: 'POST', headers: { 'X-SERVICE-APIKEY': 'unknown-key' } }, 401, -2015],
    ];
    for (const [path, init, status, code] of cases) {
      const r = await raw(`${s.baseUrl}${path}`, init);
      expect([path, r.status, r.body['code']]).toEqual([path, status, code]);
      expect(typeof r.body['msg']).toBe('string');
      expect(r.text).not.toMatch(/\bat .*\.ts:\d+|Error:/);
    }
    expect((await raw(`${s.baseUrl}/openapi/quote/v1/klines?interval=1m`)).body['msg']).toBe("parameter 'symbol' is required");
  });

  it('answers 429 with Retry-After past the budget, then 418 with a longer Retry-After', async () => {
    const s = await sandbox({ rateLimits: { pools: { IP: { limit: 5, windowMs: 60_000 } }, strikesBeforeBan: 2, strikeGraceMs: 0 } });
    const statuses: { status: number; retryAfter: string | null; code: unknown }[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await raw(`${s.baseUrl}/openapi/v1/ping`);
      statuses.push({ status: r.status, retryAfter: r.retryAfter, code: r.body['code'] });
    }
    expect(statuses.slice(0, 5).every((x) => x.status === 200)).toBe(true);
    const limited = statuses[5]!;
    expect(limited).toMatchObject({ status: 429, code: -1003 });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    const banned = statuses.find((x) => x.status === 418)!;
    expect(banned.code).toBe(-1003);
    expect(Number(banned.retryAfter)).toBe(120);
    expect(Number(banned.retryAfter)).toBeGreaterThan(Number(limited.retryAfter));
    expect((await raw(`${s.baseUrl}/openapi/v1/time`)).status).toBe(418);
  });

  it('charges a request that fails authentication to its IP only: a key alone cannot spend its account\'s UID pool', async () => {
    const s = await sandbox({ rateLimits: { pools: { UID: { limit: 5, windowMs: 60_000 } } } });
    const signed = (secret: string) => {
      const q = `timestamp=${Date.now()}`;
      return raw(`${s.baseUrl}/openapi/v1/check-sys-status?${q}&signature=${sign(secret, q)}`, { headers: { 'X-SERVICE-APIKEY': s.apiKey } });
    };
    // Holding the key without its secret: ten refusals (-1022), none charged to the account's UID pool (2 each).
    for (let i = 0; i < 10; i++) expect((await signed('not-the-secret')).body['code']).toBe(-1022);
    expect((await signed(s.apiSecret)).status).toBe(200);
    expect((await signed(s.apiSecret)).status).toBe(200);
    // The owner's own requests still count: the third is past 5.
    expect(await signed(s.apiSecret)).toMatchObject({ status: 429, body: { code: -1003 } });
  });

  it('answers the order-rate limit with 429 -1015 and no Retry-After', async () => {
    const s = await sandbox({ rateLimits: { pools: { ORDERS: { limit: 1, windowMs: 60_000 } } } });
    s.registerHandlers({ 'spot.testOrder': () => ({}) }, { replace: true });
    const send = () => {
      const q = `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=3000000&timestamp=${Date.now()}`;
      return raw(`${s.baseUrl}/openapi/v1/order/test?${q}&signature=${sign(s.apiSecret, q)}`, { method: 'POST', headers: { 'X-SERVICE-APIKEY': s.apiKey } });
    };
    expect((await send()).status).toBe(200);
    const second = await send();
    expect(second).toMatchObject({ status: 429, retryAfter: null, body: { code: -1015 } });
  });
});
