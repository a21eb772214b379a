/**
 * The sandbox under bad and forged input (issue 24, defects 1, 5 and 8): over real HTTP on
 * 127.0.0.1, what it accepts it can save and load again (bounds shared with the state schemas,
 * persistence/bounds.ts), JSON nesting is bounded at parse time, a scalar parameter sent twice is
 * refused, client ids and free texts have length limits, stalled requests are cut after the
 * configured header/body timeouts, and Node's own 400/431/408 answers carry the venue's
 * `{code, msg}`. Every refusal is a 4xx with a spec 7.3 code, never a 500.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { merchantCall, rawCall, signedForm, signedJson, signedQuery, type RawAnswer } from './support/raw-sandbox-calls.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'halyard-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MERCHANT = { apiKey: 'hsbxMerchantKey000000000000000000000000000000000000000000000009', secret: 'hsbxMerchantSecret0000000000000000000000000000000000000000000009' };
const PR_PATH = '/openapi/v3/payment-request/payment-requests';
const INVOICE_PATH = '/merchant-api/v1/invoices';
const ADMIN = '/sandbox-admin/v1';

async function sandbox(config: SandboxConfigInput = {}, file?: string): Promise<SandboxHandle> {
  const s = await startSandbox({ config: { admin: { enabled: true }, ...config }, ...(file === undefined ? {} : { stateStore: new SqliteStateStore(file) }) });
  defer(() => s.close());
  if (!s.accounts.getKey(MERCHANT.apiKey)) s.accounts.createKey({ accountId: DEMO_UID, apiKey: MERCHANT.apiKey, secret: MERCHANT.secret, merchant: true, createdAt: s.clock.now() });
  return s;
}

/** A 4xx in the venue's shape with the given code, whose message names `field` when given. */
function expectRefusal(r: RawAnswer, code: number, field?: string, status = 400): void {
  expect({ status: r.status, code: r.body?.['code'] }, r.text).toEqual({ status, code });
  expect(typeof r.body?.['msg']).toBe('string');
  if (field !== undefined) expect(r.body?.['msg']).toMatch(new RegExp(`'${field}'|\\b${field}: `));
}

const paymentRequest = (s: SandboxHandle, fields: Record<string, string>) =>
  signedForm(s, 'POST', PR_PATH, new URLSearchParams({ payer_contact_info: 'payer@example.com', receiving_account: 'PHP', amount: '10', message: 'hello', ...fields }).toString());
const invoice = (s: SandboxHandle, fields: Record<string, unknown>) =>
  merchantCall(s, MERCHANT, INVOICE_PATH, JSON.stringify({ amount: '10', currency: 'PHP', supported_payment_collectors: '["service_peso_wallet"]', external_transaction_id: `x-${Math.random()}`, ...fields }));
const admin = (s: SandboxHandle, path: string, body: string) => rawCall(`${s.baseUrl}${ADMIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('what the sandbox accepts, it can save and load again (defect 1)', () => {
  it('refuses an expiry or an amount beyond the stored bounds, and the state file still loads', async () => {
    const file = join(dir, 'bounds.db');
    const s = await sandbox({}, file);
    expectRefusal(await paymentRequest(s, { expires_at: '99999999999w' }), -1025, 'expires_at');
    expectRefusal(await paymentRequest(s, { expires_at: '99999-01-01' }), -1025, 'expires_at');
    expectRefusal(await paymentRequest(s, { amount: '1e400' }), -1025, 'amount');
    expectRefusal(await paymentRequest(s, { amount: '123456789012345678901' }), -1025, 'amount');
    expectRefusal(await invoice(s, { expires_at: '99999999999w' }), -1025, 'expires_at');
    expectRefusal(await invoice(s, { amount: '1e400' }), -1025, 'amount');
    expectRefusal(await invoice(s, { amount: 1e300 }), -1025, 'amount');
    // In bounds: accepted, saved, and loaded again.
    expect((await paymentRequest(s, { expires_at: '520w' })).status).toBe(200);
    expect((await invoice(s, { amount: '99999999999999999999.12345678', expires_at: '9999-12-31' })).status).toBe(200);
    await s.close();
    const again = await sandbox({}, file);
    const listed = await signedQuery(again, 'GET', '/openapi/v3/payment-request/get-payment-request', '');
    expect(listed.status).toBe(200);
  });

  it('refuses over-long client ids, messages and e-mail addresses naming the field', async () => {
    const s = await sandbox();
    expectRefusal(await paymentRequest(s, { message: 'm'.repeat(5000) }), -1025, 'message');
    expectRefusal(await paymentRequest(s, { payer_contact_info: `${'a'.repeat(400)}@example.com` }), -1025, 'payer_contact_info');
    expectRefusal(await invoice(s, { external_transaction_id: 'e'.repeat(500) }), -1025, 'external_transaction_id');
    const order = `symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=1000000&newClientOrderId=${'c'.repeat(37)}`;
    expectRefusal(await signedForm(s, 'POST', '/openapi/v1/order/test', order), -1025, 'newClientOrderId');
  });
});

describe('parameters sent twice (defect 8)', () => {
  it('refuses a duplicated scalar parameter in the query, the form body or a JSON body, keeps repeated list keys', async () => {
    const s = await sandbox();
    const order = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=1000000';
    expectRefusal(await signedForm(s, 'POST', '/openapi/v1/order/test', `${order}&newClientOrderId=dupA&newClientOrderId=dupB`), -1025, 'newClientOrderId');
    expectRefusal(await signedQuery(s, 'POST', '/openapi/v1/order/test', `${order}&price=2`), -1025, 'price');
    expectRefusal(await rawCall(`${s.baseUrl}/openapi/v1/exchangeInfo?symbol=BTCPHP&symbol=ETHPHP`), -1025, 'symbol');
    expectRefusal(await merchantCall(s, MERCHANT, INVOICE_PATH, '{"amount":"1","amount":"1000","currency":"PHP","supported_payment_collectors":"[\\"CEBL\\"]","external_transaction_id":"dup"}'), -1025, 'amount');
    expect((await signedForm(s, 'POST', '/openapi/v1/order/test', `${order}&newClientOrderId=once`)).status).toBe(200);
    const list = await rawCall(`${s.baseUrl}/openapi/v1/exchangeInfo?symbols=BTCPHP&symbols=ETHPHP`);
    expect(list.status).toBe(200);
  });
});

describe('deep or odd JSON (defect 5)', () => {
  const deep = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;

  it('answers a deeply nested JSON body with 400 in the venue shape, on every JSON route', async () => {
    const s = await sandbox();
    expectRefusal(await signedJson(s, 'POST', '/openapi/fiat/v1/cash-out', deep(5000)), -1010);
    expectRefusal(await rawCall(`${s.baseUrl}/openapi/fiat/v1/cash-out`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep(100_000) }), -1010);
    expectRefusal(await merchantCall(s, MERCHANT, INVOICE_PATH, deep(5000)), -1010);
    expectRefusal(await admin(s, '/balances/credit', deep(5000)), -1010);
    // Nesting within the bound still parses (and fails later for its own reasons, never a 500).
    expect((await signedJson(s, 'POST', '/openapi/fiat/v1/cash-out', deep(10))).status).toBeLessThan(500);
  });

  it('refuses an admin credit with more than 18 decimals or beyond the amount bound, naming the field', async () => {
    const s = await sandbox();
    expectRefusal(await admin(s, '/balances/credit', JSON.stringify({ accountId: DEMO_UID, asset: 'PHP', amount: '0.0000000000000000001' })), -1010, 'amount');
    expectRefusal(await admin(s, '/balances/debit', JSON.stringify({ accountId: DEMO_UID, asset: 'PHP', amount: '0.0000000000000000001' })), -1010, 'amount');
    expectRefusal(await admin(s, '/balances/credit', JSON.stringify({ accountId: DEMO_UID, asset: 'PHP', amount: '1e400' })), -1010, 'amount');
    expect((await admin(s, '/balances/credit', JSON.stringify({ accountId: DEMO_UID, asset: 'PHP', amount: '0.000000000000000001' }))).status).toBe(200);
  });
});

/** Raw bytes on a socket; resolves with what came back and how long until the server closed. */
function rawSocket(s: SandboxHandle, bytes: string, waitMs = 15_000): Promise<{ text: string; ms: number }> {
  const { port } = new URL(s.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, ms: Date.now() - started });
    }, waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, ms: Date.now() - started });
    });
    socket.write(bytes);
  });
}

function jsonOf(answer: string): { status: number; body: Record<string, unknown> } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return { status, body: JSON.parse(body) as Record<string, unknown> };
}

describe("Node's own answers and stalled requests (defect 8)", () => {
  it('answers a malformed request line and oversized headers with {code, msg}', async () => {
    const s = await sandbox();
    const bad = await rawSocket(s, 'GARBAGE\r\n\r\n');
    expect(jsonOf(bad.text)).toMatchObject({ status: 400, body: { code: -1010, msg: expect.any(String) } });
    const big = await rawSocket(s, `GET /openapi/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(jsonOf(big.text)).toMatchObject({ status: 431, body: { code: -1010, msg: expect.any(String) } });
  });

  it('cuts a request whose headers or body stall, after the configured timeouts, with 408 {code, msg}', async () => {
    const s = await sandbox({ http: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const headers = await rawSocket(s, 'GET /openapi/v1/ping HTTP/1.1\r\nHost: x\r\n');
    expect(headers.ms).toBeLessThan(3000);
    expect(jsonOf(headers.text)).toMatchObject({ status: 408, body: { code: -1010 } });
    const body = await rawSocket(s, 'POST /openapi/v1/order HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nsymbol=');
    expect(body.ms).toBeLessThan(3000);
    expect(jsonOf(body.text)).toMatchObject({ status: 408, body: { code: -1010 } });
  });
});
