/**
 * Generated bad and good input against a sandbox with `--state` (issue 24, defects 1, 5, 8), over
 * real HTTP on 127.0.0.1: amounts (huge, tiny, exponent forms, too many decimals, JSON numbers),
 * expiry texts (enormous deltas, five-digit years), texts of every length, duplicated scalar
 * keys and JSON nested up to thousands deep, sent to the routes that store what they accept
 * (payment requests, merchant invoices, fiat cash-outs, spot orders, withdrawals, admin credits)
 * and to every endpoint of the table with its declared parameters filled with values of their
 * kind or anything, signed as its security type asks.
 *
 * Each case checks: never a 5xx; every 4xx carries `{code, msg}` with a spec 7.3 code (or a spec
 * 7.5 filter code). After each round the sandbox stops cleanly and starts again on its state
 * file: whatever it accepted, it must load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../src/exchange/endpoints/types.ts';
import type { AnyParam, ParamShape } from '../src/exchange/params/dsl.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { merchantCall, rawCall, signedForm, signedJson, signedQuery, type RawAnswer } from './support/raw-sandbox-calls.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-bad-input-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MERCHANT = { apiKey: 'hsbxMerchantKey00000000000000000000000000000000000000000000prop', secret: 'hsbxMerchantSecret000000000000000000000000000000000000000000prop' };
const POOL = { limit: 1_000_000, windowMs: 60_000 };
const CONFIG = { admin: { enabled: true }, rateLimits: { pools: { IP: POOL, UID: POOL, ORDERS: POOL } } };

/** Spec 7.3's codes (-1000 only with a 5xx, which is refused anyway). */
const SPEC_CODES = new Set([
  -1001, -1002, -1003, -1010, -1015, -1020, -1021, -1022, -1023, -1024, -1025, -1026, -1027, -1103, -1105, -1106, -1107, -1108, -1125, -1126, -1131, -1132,
  -1133, -1150, -1151, -1152, -2010, -2011, -2013, -2015, -2017, -2018, -2019, -10324,
]);
/** Spec 7.5 filter failures. */
const isFilterCode = (code: number) => code <= -9000 && code > -10000;

// ---- generated values -------------------------------------------------------------------------

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));

const amountText = fc.oneof(
  { arbitrary: fc.tuple(digits(1, 3), digits(0, 2)).map(([i, f]) => (f === '' ? i : `${i}.${f}`)), weight: 6 },
  digits(15, 45),
  fc.integer({ min: -500, max: 500 }).map((e) => `1e${e}`),
  fc.integer({ min: 15, max: 40 }).map((n) => `0.${'0'.repeat(n)}1`),
  fc.constantFrom('-1', '0', '00.10', '+5', '.5', 'NaN', 'Infinity', '1,5', '', ' 7 ', '0x10'),
  fc.string({ maxLength: 12 }),
);
/** What a JSON body may carry for an amount: text, or a bare JSON number. */
const jsonAmount = fc.oneof(amountText, fc.double({ noNaN: true }), fc.constantFrom(1e300, 1e-300, 2 ** 70));

const expiryText = fc.oneof(
  { arbitrary: fc.constantFrom('1w', '3d 2h', '45m', '2099-06-30T12:00:00Z'), weight: 4 },
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.constantFrom('w', 'd', 'h', 'm', 's')).map(([n, u]) => `${n}${u}`),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`),
  fc.constantFrom('1w', '3d 2h', '9999-12-31T23:59:59Z', '2020-01-01', 'tomorrow', ''),
);

const text = fc.oneof(
  { arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,20}$/), weight: 4 },
  fc.string({ maxLength: 30 }),
  fc.tuple(fc.constantFrom('a', 'é', '0', '-'), fc.integer({ min: 30, max: 3000 })).map(([c, n]) => c.repeat(n)),
);

/** A JSON value nested `depth` deep. */
const nested = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 32 }), weight: 4 }, fc.constantFrom(33, 64, 5000)).map((depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`);

/** Form text from pairs; some keys may come twice. */
function form(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** Optionally repeat one of the pairs' keys with another value. */
const withDuplicate = (pairs: [string, string][]) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, fc.tuple(fc.nat({ max: pairs.length - 1 }), fc.string({ maxLength: 8 }))).map((dup) => {
    if (dup === undefined) return pairs;
    const [i, v] = dup;
    return [...pairs, [pairs[i]![0], v] as [string, string]];
  });

/** A generated request: what it sends (for the counterexample) and how. */
interface Call {
  readonly what: string;
  run(s: SandboxHandle): Promise<RawAnswer>;
  toString(): string;
}

function call(what: string, run: (s: SandboxHandle) => Promise<RawAnswer>): Call {
  return { what, run, toString: () => what.slice(0, 400) };
}

const paymentRequest: fc.Arbitrary<Call> = fc
  .tuple(amountText, expiryText, text, text)
  .chain(([amount, expires, message, payer]) =>
    withDuplicate([
      ['payer_contact_info', payer],
      ['receiving_account', 'PHP'],
      ['amount', amount],
      ['message', message],
      ['expires_at', expires],
    ]),
  )
  .map((pairs) => call(`payment request ${form(pairs)}`, (s) => signedForm(s, 'POST', '/openapi/v3/payment-request/payment-requests', form(pairs))));

const invoice: fc.Arbitrary<Call> = fc
  .tuple(jsonAmount, expiryText, text, nested, fc.boolean())
  .map(([amount, expires, externalId, deep, asForm]) => {
    const fields = { amount, currency: 'PHP', supported_payment_collectors: '["service_peso_wallet"]', external_transaction_id: externalId, expires_at: expires };
    if (asForm) {
      const body = form(Object.entries(fields).map(([k, v]) => [k, String(v)]));
      return call(`invoice (form) ${body}`, (s) => merchantCall(s, MERCHANT, '/merchant-api/v1/invoices', body, 'application/x-www-form-urlencoded'));
    }
    const body = `${JSON.stringify(fields).slice(0, -1)},"extra":${deep}}`;
    return call(`invoice ${body}`, (s) => merchantCall(s, MERCHANT, '/merchant-api/v1/invoices', body));
  });

const cashOut: fc.Arbitrary<Call> = fc
  .tuple(jsonAmount, fc.oneof({ arbitrary: fc.tuple(fc.integer({ min: 1, max: 9 }), digits(9, 19)).map(([a, b]) => `${a}${b}`), weight: 4 }, digits(0, 25), text), nested, text)
  .map(([amount, internalOrderId, deep, name]) => {
    const body = `{"internalOrderId":${JSON.stringify(internalOrderId)},"currency":"PHP","amount":${JSON.stringify(amount)},"channelName":"INSTAPAY","channelSubject":"gcash","extendInfo":{"recipientName":${JSON.stringify(name)},"recipientAccountNumber":"123","deep":${deep}}}`;
    return call(`cash-out ${body}`, (s) => signedJson(s, 'POST', '/openapi/fiat/v1/cash-out', body));
  });

const spotOrder: fc.Arbitrary<Call> = fc
  .tuple(amountText, amountText, text)
  .chain(([quantity, price, clientId]) =>
    withDuplicate([
      ['symbol', 'BTCPHP'],
      ['side', 'BUY'],
      ['type', 'LIMIT'],
      ['timeInForce', 'GTC'],
      ['quantity', quantity],
      ['price', price],
      ['newClientOrderId', clientId],
    ]),
  )
  .map((pairs) => call(`order ${form(pairs)}`, (s) => signedForm(s, 'POST', '/openapi/v1/order', form(pairs))));

const withdrawal: fc.Arbitrary<Call> = fc
  .tuple(amountText, text, text)
  .chain(([amount, orderId, address]) =>
    withDuplicate([
      ['coin', 'BTC'],
      ['network', 'BTC'],
      ['address', address],
      ['amount', amount],
      ['withdrawOrderId', orderId],
    ]),
  )
  .map((pairs) => call(`withdrawal ${form(pairs)}`, (s) => signedForm(s, 'POST', '/openapi/wallet/v1/withdraw/apply', form(pairs))));

const adminCredit: fc.Arbitrary<Call> = fc.tuple(fc.oneof({ arbitrary: amountText, weight: 3 }, jsonAmount), nested).map(([amount, deep]) => {
  // Nesting beyond the bound only: the body is a strict object.
  const body = `{"accountId":"${DEMO_UID}","asset":"PHP","amount":${JSON.stringify(amount)}${deep.length > 2 * 32 + 1 ? `,"x":${deep}` : ''}}`;
  return call(`admin credit ${body}`, (s) => rawCall(`${s.baseUrl}${s.config.admin.prefix}/balances/credit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
});

/** A value for a declared parameter: often of its kind, sometimes anything. */
function valueFor(param: AnyParam): fc.Arbitrary<string> {
  const wild = fc.oneof(text, amountText, nested);
  const typed = (() => {
    switch (param.kind) {
      case 'DECIMAL':
        return amountText;
      case 'ID':
      case 'LONG':
      case 'INT':
        return fc.oneof(fc.integer({ min: -5, max: 2000 }).map(String), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), digits(1, 30));
      case 'ENUM':
        return fc.constantFrom(...(param.values ?? ['x']));
      case 'BOOLEAN':
        return fc.constantFrom('true', 'false');
      case 'LIST':
        return fc.array(text, { maxLength: 5 }).map((l) => JSON.stringify(l));
      case 'JSON':
        return nested;
      default:
        return text;
    }
  })();
  return fc.oneof({ arbitrary: typed, weight: 4 }, wild);
}

const WRITES_OR_READS = allEndpoints.filter((d) => !d.path.includes('userDataStream'));

/** Any endpoint of the table, its declared parameters filled (or left out), signed as its security type asks. */
const anyEndpoint: fc.Arbitrary<Call> = fc.constantFrom(...WRITES_OR_READS).chain((def) => {
  const names = Object.keys(def.params);
  const entries = names.map((name) => fc.option(valueFor((def.params as ParamShape)[name]!), { nil: undefined, freq: 3 }).map((v) => [name, v] as const));
  return fc.tuple(fc.tuple(...entries), fc.boolean()).map(([pairs, dup]) => {
    let path = def.path;
    const sent: [string, string][] = [];
    for (const [name, value] of pairs) {
      if (value === undefined) continue;
      if (def.path.includes(`{${name}`)) path = path.replace(new RegExp(`\\{${name}\\??\\}`), encodeURIComponent(value) || 'x');
      else sent.push([name, value]);
    }
    path = path.replace(/\/\{\w+\?\}/g, '').replace(/\{\w+\}/g, 'x');
    if (dup && sent.length > 0) sent.push([sent[0]![0], 'again']);
    return call(`${def.id} ${def.method} ${path} ${form(sent)}`, (s) => send(s, def, path, sent));
  });
});

function send(s: SandboxHandle, def: AnyEndpoint, path: string, pairs: readonly [string, string][]): Promise<RawAnswer> {
  const query = def.method === 'GET' || def.method === 'DELETE' || def.encoding === 'query';
  const json = !query && def.encoding === 'json' ? JSON.stringify(Object.fromEntries(pairs)) : undefined;
  const text = form(pairs);
  switch (def.security) {
    case 'TRADE':
    case 'USER_DATA':
      if (json !== undefined) return signedJson(s, def.method, path, json);
      return query ? signedQuery(s, def.method, path, text) : signedForm(s, def.method, path, text);
    case 'MERCHANT':
      return merchantCall(s, MERCHANT, path, json ?? text, json === undefined ? 'application/x-www-form-urlencoded' : 'application/json', def.method);
    case 'LEGACY_V4': {
      const nonce = String(Math.floor(s.clock.now() / 1000));
      const body = json ?? JSON.stringify(Object.fromEntries(pairs));
      const get = def.method === 'GET';
      const url = `${s.baseUrl}${path}${get && text !== '' ? `?${text}` : ''}`;
      const signed = `${nonce}${s.baseUrl}${path}${get ? (text === '' ? '' : `?${text}`) : body}`;
      const headers = { 'ACCESS-KEY': s.apiKey, 'ACCESS-NONCE': nonce, 'ACCESS-SIGNATURE': hmacSha256Hex(s.apiSecret, signed), 'content-type': 'application/json' };
      return rawCall(url, get ? { method: 'GET', headers } : { method: def.method, headers, body });
    }
    default: {
      const headers = { 'X-SERVICE-APIKEY': s.apiKey, ...(json === undefined ? {} : { 'content-type': 'application/json' }) };
      if (query || json === undefined) return rawCall(`${s.baseUrl}${path}${text === '' ? '' : `?${text}`}`, { method: def.method, headers });
      return rawCall(`${s.baseUrl}${path}`, { method: def.method, headers, body: json });
    }
  }
}

const anyCall = fc.oneof(paymentRequest, invoice, cashOut, spotOrder, withdrawal, adminCredit, { arbitrary: anyEndpoint, weight: 6 });

// ---- the property -----------------------------------------------------------------------------

async function open(file: string): Promise<SandboxHandle> {
  const s = await startSandbox({ config: CONFIG, stateStore: new SqliteStateStore(file) });
  if (!s.accounts.getKey(MERCHANT.apiKey)) s.accounts.createKey({ accountId: DEMO_UID, apiKey: MERCHANT.apiKey, secret: MERCHANT.secret, merchant: true, createdAt: s.clock.now() });
  return s;
}

function checkAnswer(c: Call, r: RawAnswer): void {
  const what = `${c.what.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
  expect(r.status, what).toBeLessThan(500);
  if (r.status < 400) return;
  const code = r.body?.['code'];
  expect(typeof code === 'number' && (SPEC_CODES.has(code) || isFilterCode(code)), what).toBe(true);
  expect(typeof r.body?.['msg']).toBe('string');
}

describe('generated bad input against a sandbox with --state', () => {
  it('never answers 5xx, answers every 4xx with {code, msg} and a spec code, and always loads its state file again', async () => {
    const file = join(dir, 'property.db');
    let s = await open(file);
    let accepted = 0;
    const tally = new Map<string, number>();
    try {
      for (let round = 0; round < 3; round++) {
        await fc.assert(
          fc.asyncProperty(anyCall, async (c) => {
            const r = await c.run(s);
            checkAnswer(c, r);
            if (r.status === 200) accepted++;
            const key = `${c.what.split(' ')[0] ?? ''} ${r.status} ${String(r.body?.['code'] ?? r.body?.['status'] ?? '')} ${String(r.body?.['msg'] ?? r.body?.['error'] ?? '').slice(0, 60)}`;
            tally.set(key, (tally.get(key) ?? 0) + 1);
          }),
          { numRuns: 200 },
        );
        await s.close();
        // Whatever was accepted and saved, the file loads.
        s = await open(file);
      }
    } finally {
      await s.close();
    }
    // The generators reach the handlers, not only the refusals.
    expect(accepted, JSON.stringify([...tally].sort((a, b) => b[1] - a[1]).slice(0, 40), null, 1)).toBeGreaterThan(40);
  }, 240_000);
});
