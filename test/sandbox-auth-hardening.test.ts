/**
 * Issue 24, defects 3, 4 and 6: the sandbox's authentication over real HTTP (127.0.0.1, ephemeral
 * port, sandbox time on a VirtualClock), with generated requests so each class stays fixed.
 *
 * - Defect 3: `recvWindow` counts only where it is signed (protocol notes 2.1-2.2): a
 *   `recvWindow` header never lengthens a request's window, in the query, form and JSON schemes.
 * - Defect 4: a legacy v4 signature (notes 2.4: nonce + URL + body) is single-use inside its
 *   validity window: a replay is refused with -10324 "Request repeated" (spec 7.3), so a captured
 *   sell order cannot be placed twice.
 * - Defect 6: every scheme authenticates before it authorises: key -> signature -> timestamp ->
 *   IP -> key type/permission (see src/sandbox/auth/authenticate.ts). A holder of a key alone
 *   learns nothing past "the key exists".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { signLegacyV4 } from '../src/exchange/signing/legacy-v4.ts';
import { replayGuardFor } from '../src/sandbox/auth/replay-guard.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const START = Date.UTC(2025, 0, 15, 12, 0, 0);
const TOLERANCE = 300_000; // auth.merchantToleranceMs default: the v4 and merchant window

/** One key of each kind a caller can hold; `unknown` is not registered at all. */
const KINDS = ['full', 'readOnly', 'spot', 'wallet', 'otherIp', 'whitelistUnset', 'merchant', 'disabled', 'unknown'] as const;
type KeyKind = (typeof KINDS)[number];
const keyOf = (kind: KeyKind) => ({ apiKey: `${kind}-key-0000000000`, secret: `${kind}-secret-000000000` });
const KEY_CONFIG: Record<Exclude<KeyKind, 'unknown'>, Record<string, unknown>> = {
  full: {},
  readOnly: { roles: [0] },
  spot: { roles: [2] },
  wallet: { roles: [4] },
  otherIp: { ipRestrict: true, ipList: ['203.0.113.7'] },
  whitelistUnset: { requiresWhitelist: true },
  merchant: { merchant: true },
  disabled: { enabled: false },
};

const BIG_POOL = { limit: 1_000_000, windowMs: 60_000 };

async function setup(extra: SandboxConfigInput = {}): Promise<{ s: SandboxHandle; clock: VirtualClock }> {
  const clock = new VirtualClock(START);
  const keys = Object.entries(KEY_CONFIG).map(([kind, over]) => ({ ...keyOf(kind as KeyKind), name: kind, ...over }));
  const s = await startSandbox({
    config: {
      accounts: [{ email: 'auth@example.com', balances: { PHP: '1000000', BTC: '10' }, keys }],
      rateLimits: { pools: { IP: BIG_POOL, UID: BIG_POOL, ORDERS: BIG_POOL } },
      ...extra,
    },
    clock,
  });
  defer(() => s.close());
  return { s, clock };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(s: SandboxHandle, method: string, pathAndQuery: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const r = await fetch(`${s.baseUrl}${pathAndQuery}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const codeOf = (a: Answer): number | 'ok' => (a.status === 200 ? 'ok' : (a.body['code'] as number));
const sign = (secret: string, text: string) => hmacSha256Hex(secret, text);
const FULL = keyOf('full');

describe('defect 3: recvWindow counts only where it is signed (notes 2.1, 2.2)', () => {
  it('ignores a recvWindow header added to a captured query-signed request (was accepted 7 s late)', async () => {
    const { s, clock } = await setup();
    const q = `timestamp=${clock.now()}`;
    const captured = `/openapi/v1/openOrders?${q}&signature=${sign(FULL.secret, q)}`;
    await clock.advance(7000);
    const late = await send(s, 'GET', captured, { 'X-SERVICE-APIKEY': FULL.apiKey, recvWindow: '60000' });
    expect(late.body).toMatchObject({ code: -1021 });
    expect(late.body['msg']).toContain("a 'recvWindow' header is not signed and does not count");
    // The signed way still works: recvWindow in the signed query.
    const q2 = `recvWindow=60000&timestamp=${clock.now()}`;
    await clock.advance(7000);
    expect(codeOf(await send(s, 'GET', `/openapi/v1/openOrders?${q2}&signature=${sign(FULL.secret, q2)}`, { 'X-SERVICE-APIKEY': FULL.apiKey }))).toBe('ok');
  });

  it('ignores it on a form-body request and on a JSON-body (fiat) request; a signed JSON recvWindow counts', async () => {
    const { s, clock } = await setup();
    const form = `symbol=BTCPHP&side=BUY&type=MARKET&quantity=0.001&timestamp=${clock.now()}`;
    const formHeaders = { 'X-SERVICE-APIKEY': FULL.apiKey, 'content-type': 'application/x-www-form-urlencoded', recvWindow: '60000' };
    const formBody = `${form}&signature=${sign(FULL.secret, form)}`;
    const json = '{"pageNum":"1","pageSize":"10"}';
    const jsonHeaders = { 'X-SERVICE-APIKEY': FULL.apiKey, 'content-type': 'application/json', timestamp: String(clock.now()), signature: sign(FULL.secret, json), recvWindow: '60000' };
    const signedJson = '{"pageNum":"1","pageSize":"10","recvWindow":60000}';
    const signedJsonHeaders = { ...jsonHeaders, signature: sign(FULL.secret, signedJson) };
    expect(codeOf(await send(s, 'POST', '/openapi/v1/order/test', formHeaders, formBody))).toBe('ok');
    expect(codeOf(await send(s, 'POST', '/openapi/fiat/v2/history', jsonHeaders, json))).toBe('ok');
    await clock.advance(7000);
    expect(codeOf(await send(s, 'POST', '/openapi/v1/order/test', formHeaders, formBody))).toBe(-1021);
    expect(codeOf(await send(s, 'POST', '/openapi/fiat/v2/history', jsonHeaders, json))).toBe(-1021);
    expect(codeOf(await send(s, 'POST', '/openapi/fiat/v2/history', signedJsonHeaders, signedJson))).toBe('ok');
  });

  it('does not let a recvWindow header stand in for a required one (spec 4.3 crypto-accounts: -1105)', async () => {
    const { s, clock } = await setup();
    const q = `timestamp=${clock.now()}`;
    const r = await send(s, 'GET', `/openapi/account/v3/crypto-accounts?${q}&signature=${sign(FULL.secret, q)}`, { 'X-SERVICE-APIKEY': FULL.apiKey, recvWindow: '5000' });
    expect(r.body).toMatchObject({ code: -1105, msg: "parameter 'recvWindow' is required" });
  });

  it('property: the verdict depends on the signed recvWindow and the delay, never on a recvWindow header', async () => {
    const { s } = await setup();
    const clock = s.clock; // sandbox-time jumps: instant, so many cases run
    const window = fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: undefined });
    const headerWindow = fc.option(fc.oneof(fc.integer({ min: 1, max: 60_000 }).map(String), fc.constantFrom('0', '-1', 'abc', '999999999', ' 60000')), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(window, headerWindow, fc.integer({ min: 0, max: 70_000 }), fc.boolean(), async (signedWindow, unsigned, delay, inBody) => {
        const order = inBody ? 'symbol=BTCPHP&side=BUY&type=MARKET&quantity=0.001&' : '';
        const params = `${order}${signedWindow === undefined ? '' : `recvWindow=${signedWindow}&`}timestamp=${clock.now()}`;
        const signed = `${params}&signature=${sign(FULL.secret, params)}`;
        const headers: Record<string, string> = { 'X-SERVICE-APIKEY': FULL.apiKey, ...(unsigned === undefined ? {} : { recvWindow: unsigned }) };
        clock.advance(delay);
        const answer = inBody
          ? await send(s, 'POST', '/openapi/v1/order/test', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, signed)
          : await send(s, 'GET', `/openapi/v1/openOrders?${signed}`, headers);
        expect(codeOf(answer)).toBe(delay <= (signedWindow ?? 5000) ? 'ok' : -1021);
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});

const SELL_BODY = JSON.stringify({ payment_outlet: 'bdo_INSTAPAY', base_amount: '100', currency: 'PHP', bank_account_number: '1', bank_account_name: 'x', recipient_phone_number: '1' });

function v4Headers(s: SandboxHandle, key: { apiKey: string; secret: string }, nowMs: number, method: string, path: string, body?: string): Record<string, string> {
  const signed = signLegacyV4({ apiKey: key.apiKey, secret: key.secret, nowMs, url: `${s.baseUrl}${path}`, method, body });
  return { ...signed, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
}

describe('defect 4: a legacy v4 signature is single-use within its window (notes 2.4, spec 7.3 -10324)', () => {
  it('places a captured sell order once: the replays get -10324 naming the nonce (was three sell orders)', async () => {
    const { s, clock } = await setup();
    const headers = v4Headers(s, FULL, clock.now(), 'POST', '/openapi/migration/v4/sellorder', SELL_BODY);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send(s, 'POST', '/openapi/migration/v4/sellorder', headers, SELL_BODY));
    expect(answers.map(codeOf)).toEqual(['ok', -10324, -10324]);
    expect(answers[1]!.body['msg']).toContain('ACCESS-NONCE');
    expect(answers[1]!.status).toBe(400);
    expect(s.services.sellOrders!.dumpState().orders).toHaveLength(1);
    // The same signature in upper case is the same signature (compared case-insensitively).
    const upper = { ...headers, 'ACCESS-SIGNATURE': headers['ACCESS-SIGNATURE']!.toUpperCase() };
    expect(codeOf(await send(s, 'POST', '/openapi/migration/v4/sellorder', upper, SELL_BODY))).toBe(-10324);
    // Another request in the same second (same nonce, another body) is a new request: the project's
    // own client signs whole seconds and may send several calls within one.
    const other = SELL_BODY.replace('"100"', '"101"');
    expect(codeOf(await send(s, 'POST', '/openapi/migration/v4/sellorder', v4Headers(s, FULL, clock.now(), 'POST', '/openapi/migration/v4/sellorder', other), other))).toBe('ok');
    // Once the window has passed the replay is stale (-1021), and the guard has let the entries go.
    await clock.advance(TOLERANCE + 1000);
    expect(codeOf(await send(s, 'POST', '/openapi/migration/v4/sellorder', headers, SELL_BODY))).toBe(-1021);
    expect(s.services.sellOrders!.dumpState().orders).toHaveLength(2);
    const fresh = v4Headers(s, FULL, clock.now(), 'POST', '/openapi/migration/v4/sellorder', SELL_BODY);
    expect(codeOf(await send(s, 'POST', '/openapi/migration/v4/sellorder', fresh, SELL_BODY))).toBe('ok');
    expect(replayGuardFor(s.accounts).size).toBe(1);
  });

  it('property: any sequence of new, replayed and late v4 requests is accepted exactly once per signature, and the guard stays bounded', async () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constant('new' as const), variant: fc.integer({ min: 0, max: 3 }), get: fc.boolean() }),
      fc.record({ kind: fc.constant('replay' as const), pick: fc.nat(), upper: fc.boolean() }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: TOLERANCE - 3000, max: TOLERANCE + 3000 }), fc.integer({ min: 0, max: 2 * TOLERANCE })) }),
    );
    // Sandbox time jumps (SandboxClock.advance, as the admin time routes do) cost nothing, so the
    // windows can be crossed back and forth quickly.
    const { s } = await setup();
    const clock = s.clock;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        const sent: { path: string; method: string; headers: Record<string, string>; body?: string; nonceMs: number }[] = [];
        const seen = new Map<string, number>(); // the model: signature -> nonce ms, never forgotten
        let lastGuardCall: number | undefined; // sandbox time of the last request inside its window
        for (const a of actions) {
          if (a.kind === 'wait') {
            clock.advance(a.ms);
            continue;
          }
          let req;
          if (a.kind === 'new') {
            const body = a.get ? undefined : JSON.stringify({ field_type: 'mobile_number', mobile_number: `+63917123456${a.variant}`, region: 'PH' });
            const path = a.get ? `/openapi/migration/v4/payout-outlet-categories${a.variant === 0 ? '' : '/bank'}` : '/openapi/migration/v4/validate-field';
            const method = a.get ? 'GET' : 'POST';
            req = { path, method, headers: v4Headers(s, FULL, clock.now(), method, path, body), ...(body === undefined ? {} : { body }), nonceMs: Math.floor(clock.now() / 1000) * 1000 };
            sent.push(req);
          } else {
            if (sent.length === 0) continue;
            const prior = sent[a.pick % sent.length]!;
            req = { ...prior, headers: { ...prior.headers, 'ACCESS-SIGNATURE': a.upper ? prior.headers['ACCESS-SIGNATURE']!.toUpperCase() : prior.headers['ACCESS-SIGNATURE']! } };
          }
          const signature = req.headers['ACCESS-SIGNATURE']!.toLowerCase();
          const inWindow = Math.abs(clock.now() - req.nonceMs) <= TOLERANCE;
          const expected = !inWindow ? -1021 : seen.has(signature) ? -10324 : 'ok';
          if (expected === 'ok') seen.set(signature, req.nonceMs);
          if (inWindow) lastGuardCall = clock.now();
          expect(codeOf(await send(s, req.method, req.path, req.headers, req.body))).toBe(expected);
        }
        // Bounded: the guard holds exactly the accepted signatures still inside their window when it
        // was last asked (it drops expired ones before each check), nothing older.
        if (lastGuardCall !== undefined) {
          const at = lastGuardCall;
          expect(replayGuardFor(s.accounts).size).toBe([...seen.values()].filter((nonceMs) => nonceMs + TOLERANCE >= at).length);
        }
        clock.advance(2 * TOLERANCE + 2000); // the next run starts with every entry expired
      }),
      { numRuns: 60 },
    );
    // After the last run everything has expired: one more request sweeps the guard down to itself.
    const path = '/openapi/migration/v4/payout-outlet-categories';
    expect(codeOf(await send(s, 'GET', path, v4Headers(s, FULL, clock.now(), 'GET', path)))).toBe('ok');
    expect(replayGuardFor(s.accounts).size).toBe(1);
  }, 60_000);
});

type SigKind = 'missing' | 'garbage' | 'otherSecret' | 'valid';
type TimeKind = 'fresh' | 'stale';
const SIGS: readonly SigKind[] = ['missing', 'garbage', 'otherSecret', 'valid'];
const GARBAGE = 'f'.repeat(64);

/**
 * The reference order of checks for the HMAC schemes (authenticate.ts): key -> signature ->
 * timestamp -> IP -> key type and permission.
 */
function expectedHmac(key: KeyKind, sig: SigKind, time: TimeKind, write: boolean): number | 'ok' {
  if (key === 'unknown' || key === 'disabled') return -2015;
  if (sig === 'missing') return -1105;
  if (sig !== 'valid') return -1022;
  if (time === 'stale') return -1021;
  if (key === 'whitelistUnset') return -1023;
  if (key === 'otherIp') return -2017;
  if (key === 'merchant') return -2019;
  if (key === 'readOnly') return write ? -1020 : 'ok';
  if (key === 'wallet') return -1152;
  return 'ok';
}

function expectedV4(key: KeyKind, sig: SigKind, time: TimeKind | 'malformed', write: boolean): number | 'ok' {
  if (sig === 'missing') return -1024;
  if (key === 'unknown' || key === 'disabled') return -2015;
  if (sig !== 'valid') return -1022;
  if (time === 'malformed') return -1025;
  if (time === 'stale') return -1021;
  if (key === 'whitelistUnset') return -1023;
  if (key === 'otherIp') return -2017;
  if (key === 'merchant') return -2019;
  if (key === 'readOnly' && write) return -1020;
  return 'ok';
}

function expectedMerchant(key: KeyKind, sig: SigKind, time: TimeKind): { code: number | 'ok'; msg?: string } {
  if (sig === 'missing') return { code: -1024 };
  if (key === 'unknown' || key === 'disabled') return { code: -1150, msg: 'unknown or disabled merchant key' };
  if (sig !== 'valid') return { code: -1150, msg: 'X-Merchant-Sign is not valid' };
  if (time === 'stale') return { code: -1150, msg: 'X-Timestamp is too far from server time' };
  if (key === 'whitelistUnset') return { code: -1023 };
  if (key === 'otherIp') return { code: -2017 };
  if (key !== 'merchant') return { code: -1150, msg: 'the key is not a merchant key' };
  return { code: 'ok' };
}

const signatureFor = (kind: SigKind, secret: string, message: string): string | undefined =>
  kind === 'missing' ? undefined : kind === 'garbage' ? GARBAGE : kind === 'otherSecret' ? sign('not-the-secret', message) : sign(secret, message);

describe('defect 6: authenticate first, then authorise (spec 7.3, notes 8)', () => {
  it('answers a read-only key with a garbage signature -1022, not -1020 (was -1020)', async () => {
    const { s, clock } = await setup();
    const ro = keyOf('readOnly');
    const body = `symbol=BTCPHP&side=BUY&type=MARKET&quantity=0.001&timestamp=${clock.now()}`;
    const headers = { 'X-SERVICE-APIKEY': ro.apiKey, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(s, 'POST', '/openapi/v1/order', headers, `${body}&signature=${GARBAGE}`)).body).toMatchObject({ code: -1022 });
    expect((await send(s, 'POST', '/openapi/v1/order', headers, `${body}&signature=${sign(ro.secret, body)}`)).body).toMatchObject({ code: -1020 });
  });

  it('answers a merchant key on a v4 route with a garbage signature -1022, not -2019; a read-only key cannot sell through v4 (-1020)', async () => {
    const { s, clock } = await setup();
    const path = '/openapi/migration/v4/sellorder';
    const merchant = v4Headers(s, keyOf('merchant'), clock.now(), 'POST', path, SELL_BODY);
    expect((await send(s, 'POST', path, { ...merchant, 'ACCESS-SIGNATURE': GARBAGE }, SELL_BODY)).body).toMatchObject({ code: -1022 });
    expect((await send(s, 'POST', path, v4Headers(s, keyOf('readOnly'), clock.now(), 'POST', path, SELL_BODY), SELL_BODY)).body).toMatchObject({ code: -1020 });
    expect(s.services.sellOrders!.dumpState().orders).toHaveLength(0);
  });

  it('property: HMAC schemes answer in the reference order for every key kind, signature and time', async () => {
    const { s, clock } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KINDS), fc.constantFrom(...SIGS), fc.constantFrom<TimeKind>('fresh', 'stale'), fc.boolean(), async (kind, sig, time, write) => {
        const key = keyOf(kind);
        const params = `${write ? 'symbol=BTCPHP&side=BUY&type=MARKET&quantity=0.001&' : ''}timestamp=${time === 'stale' ? clock.now() - 10_000 : clock.now()}`;
        const signature = signatureFor(sig, key.secret, params);
        const text = signature === undefined ? params : `${params}&signature=${signature}`;
        const headers = { 'X-SERVICE-APIKEY': key.apiKey };
        const answer = write
          ? await send(s, 'POST', '/openapi/v1/order/test', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, text)
          : await send(s, 'GET', `/openapi/v1/openOrders?${text}`, headers);
        expect(codeOf(answer), JSON.stringify(answer.body)).toBe(expectedHmac(kind, sig, time, write));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('property: legacy v4 answers in the reference order (headers, key, signature, nonce, IP, key type, permission)', async () => {
    const { s } = await setup();
    const clock = s.clock;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS),
        fc.constantFrom(...SIGS),
        fc.constantFrom<TimeKind | 'malformed'>('fresh', 'stale', 'malformed'),
        fc.boolean(),
        async (kind, sig, time, write) => {
          clock.advance(1000); // a new second: every valid request here is a new signature
          const key = keyOf(kind);
          const path = write ? '/openapi/migration/v4/validate-field' : '/openapi/migration/v4/payout-outlet-categories';
          const body = write ? '{"field_type":"mobile_number","mobile_number":"+639171234567","region":"PH"}' : undefined;
          const nonce = time === 'malformed' ? 'abc' : String(Math.floor((clock.now() - (time === 'stale' ? 2 * TOLERANCE : 0)) / 1000));
          const signature = signatureFor(sig, key.secret, nonce + s.baseUrl + path + (body ?? ''));
          const headers: Record<string, string> = { 'ACCESS-KEY': key.apiKey, 'ACCESS-NONCE': nonce, ...(signature === undefined ? {} : { 'ACCESS-SIGNATURE': signature }) };
          if (body !== undefined) headers['content-type'] = 'application/json';
          const answer = await send(s, write ? 'POST' : 'GET', path, headers, body);
          expect(codeOf(answer), JSON.stringify(answer.body)).toBe(expectedV4(kind, sig, time, write));
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('property: the merchant scheme answers in the reference order, its message naming the failed check', async () => {
    const { s, clock } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KINDS), fc.constantFrom(...SIGS), fc.constantFrom<TimeKind>('fresh', 'stale'), async (kind, sig, time) => {
        const key = keyOf(kind);
        const path = '/merchant-api/v1/get-invoices';
        const ts = String(clock.now() - (time === 'stale' ? 2 * TOLERANCE : 0));
        const signature = signatureFor(sig, key.secret, ts + s.baseUrl + path);
        const headers: Record<string, string> = { 'X-Merchant-Key': key.apiKey, 'X-Timestamp': ts, ...(signature === undefined ? {} : { 'X-Merchant-Sign': signature }) };
        const answer = await send(s, 'GET', path, headers);
        const want = expectedMerchant(kind, sig, time);
        expect(codeOf(answer), JSON.stringify(answer.body)).toBe(want.code);
        if (want.msg !== undefined) expect(answer.body['msg']).toContain(want.msg);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
