/**
 * `halyard merchant invoice create|list|cancel`, `halyard payment-request create|list|cancel|remind`
 * and `halyard merchant receive` through the CLI (runCli, in process) against the sandbox on
 * 127.0.0.1 (issue 23 deliverable 5; spec 4.3, 4.10, 5.4, 6.1); and bad input, refused by name
 * with nothing sent (a capture server counts what reaches it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.ts';
import { openJournal } from '../src/journal/journal.ts';
import { CallbackStore } from '../src/merchant/callbacks/callback-store.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { merchantPlugin } from '../src/sandbox/money/merchant/plugin.ts';
import { paymentRequestPlugin } from '../src/sandbox/money/payment-request/plugin.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { startCaptureServer } from './support/capture-server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { waitFor } from './bot-harness.ts';

const MERCHANT_KEY = 'hsbxMerchantKey000000000000000000000000000000000000000000000002';
const MERCHANT_SECRET = 'hsbxMerchantSecret0000000000000000000000000000000000000000000002';
const defer = closeAfterEach();

async function cli(args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal, onOut?: (t: string) => void) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env,
    out: (t) => {
      out.push(t);
      onOut?.(t);
    },
    err: (t) => err.push(t),
    ...(signal ? { signal } : {}),
    tty: { out: false, err: false },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function sandbox(): Promise<{ s: SandboxHandle; env: NodeJS.ProcessEnv }> {
  const s = await startSandbox({ config: { admin: { enabled: true } }, plugins: [merchantPlugin({ retryDelaysMs: [10] }), paymentRequestPlugin()] });
  defer(() => s.close());
  s.accounts.createKey({ accountId: DEMO_UID, apiKey: MERCHANT_KEY, secret: MERCHANT_SECRET, merchant: true, createdAt: Date.now() });
  return { s, env: { HALYARD_BASE_URL: s.baseUrl, HALYARD_MERCHANT_KEY: MERCHANT_KEY, HALYARD_MERCHANT_SECRET: MERCHANT_SECRET, HALYARD_API_KEY: s.apiKey, HALYARD_API_SECRET: s.apiSecret } };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-merchant-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('halyard merchant invoice', () => {
  it('creates, lists and cancels an invoice; a rerun of the same create makes no second invoice', async () => {
    const { env } = await sandbox();
    const created = await cli(['merchant', 'invoice', 'create', '--amount', '100.50', '--currency', 'php', '--collectors', 'service_peso_wallet,CEBL', '--expires', '2h'], env);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const inv = JSON.parse(created.out) as Record<string, unknown>;
    expect(inv).toMatchObject({ amount: '100.5', currency: 'PHP', status: 'pending', supported_payment_collectors: '["service_peso_wallet","CEBL"]', expires_in_seconds: 7200 });
    expect(inv['external_transaction_id']).toMatch(/^hy-inv-\d{8}-[0-9a-f]{12}$/);

    const again = await cli(['merchant', 'invoice', 'create', '--amount', '100.50', '--currency', 'PHP', '--collectors', 'service_peso_wallet,CEBL', '--expires', '2h'], env);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`--external-id: the venue refused ${String(inv['external_transaction_id'])}`);

    const second = JSON.parse((await cli(['merchant', 'invoice', 'create', '--amount', '5', '--currency', 'PHP', '--external-id', 'order-77'], env)).out) as Record<string, unknown>;
    expect(second).toMatchObject({ external_transaction_id: 'order-77', supported_payment_collectors: '["service_peso_wallet"]' });

    const one = JSON.parse((await cli(['merchant', 'invoice', 'list', '--id', String(inv['id'])], env)).out) as Record<string, unknown>[];
    expect(one.map((i) => i['id'])).toEqual([inv['id']]);
    const all = JSON.parse((await cli(['merchant', 'invoice', 'list', '--from', new Date(Date.now() - 60_000).toISOString(), '--limit', '10'], env)).out) as Record<string, unknown>[];
    expect(all.map((i) => i['id'])).toEqual([inv['id'], second['id']]);
    const none = JSON.parse((await cli(['merchant', 'invoice', 'list', '--to', '2020-01-01'], env)).out) as unknown[];
    expect(none).toEqual([]);

    const canceled = await cli(['merchant', 'invoice', 'cancel', '--id', String(inv['id'])], env);
    expect(canceled.code).toBe(0);
    expect(JSON.parse(canceled.out)).toMatchObject({ id: inv['id'], status: 'canceled' });
    const twice = await cli(['merchant', 'invoice', 'cancel', '--id', String(inv['id'])], env);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/canceled/);
  });
  it('a create whose answer is lost (5xx) is looked up by its external id, never sent again', async () => {
    const { s, env } = await sandbox();
    const args = ['merchant', 'invoice', 'create', '--amount', '12', '--currency', 'PHP'];
    s.faults.add({ kind: 'error-after', endpoint: 'merchant.createInvoice', count: 1 });
    const lost = await cli(args, env);
    expect(lost.code).toBe(0);
    expect(lost.err).toMatch(/^note: the create's answer was lost; invoice \d+ carries external_transaction_id hy-inv-/);
    const found = JSON.parse(lost.out) as { id: string };
    expect(s.services.invoices!.list(DEMO_UID, Date.now()).map((i) => i.id)).toEqual([found.id]);

    s.faults.add({ kind: 'error-before', endpoint: 'merchant.createInvoice', count: 1 });
    const other = ['merchant', 'invoice', 'create', '--amount', '13', '--currency', 'PHP'];
    const refused = await cli(other, env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/outcome is unknown .* no invoice with external_transaction_id hy-inv-\S+ was found; it was not sent again/);
    expect(s.services.invoices!.list(DEMO_UID, Date.now())).toHaveLength(1);
    // Run again: the same derived id, now created once.
    expect((await cli(other, env)).code).toBe(0);
    expect(s.services.invoices!.list(DEMO_UID, Date.now())).toHaveLength(2);
  });
});

describe('halyard payment-request', () => {
  it('creates, lists, reminds and cancels a payment request', async () => {
    const { env } = await sandbox();
    const created = await cli(['payment-request', 'create', '--payer', 'payer@example.com', '--account', 'PHP', '--amount', '250', '--message', 'March rent', '--expires', '3d'], env);
    expect(created.err).toBe('');
    const pr = JSON.parse(created.out) as Record<string, unknown>;
    expect(pr).toMatchObject({ status: 'pending', amount: '250', currency: 'PHP', payer_contact_info: 'payer@example.com', message: 'March rent' });
    const id = String(pr['id']);
    expect((JSON.parse((await cli(['payment-request', 'list', '--id', id], env)).out) as Record<string, unknown>[]).map((r) => r['id'])).toEqual([id]);
    expect((JSON.parse((await cli(['payment-request', 'list', '--limit', '5'], env)).out) as Record<string, unknown>[]).map((r) => r['id'])).toEqual([id]);
    expect(JSON.parse((await cli(['payment-request', 'remind', '--id', id], env)).out)).toEqual({ id, reminded: true });
    expect(JSON.parse((await cli(['payment-request', 'cancel', '--id', id], env)).out)).toMatchObject({ id, status: 'canceled' });
    const late = await cli(['payment-request', 'remind', '--id', id], env);
    expect(late.code).toBe(1);
  });
});

describe('halyard merchant receive', () => {
  it('journals the callbacks of an invoice paid while it runs, and stops cleanly on the signal', async () => {
    const { s, env } = await sandbox();
    const journal = join(tempDir(), 'merchant.db');
    const stop = new AbortController();
    let url: string | undefined;
    const running = cli(['merchant', 'receive', '--listen', '127.0.0.1:0', '--journal', journal, '--log-level', 'silent'], env, stop.signal, (t) => {
      url = /at (http:\S+)/.exec(t)?.[1];
    });
    await waitFor(() => url !== undefined, 10_000, 'the receiver to listen');
    // The venue's callback address is set by its partner support (spec 6.1); here, the sandbox's config.
    s.config.merchant.callbackUrl = `${url}hooks`;
    const inv = JSON.parse((await cli(['merchant', 'invoice', 'create', '--amount', '30', '--currency', 'PHP', '--external-id', 'cli-1'], env)).out) as { id: string };
    const paid = await fetch(`${s.baseUrl}${s.config.admin.prefix}/invoices/${inv.id}/pay`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(paid.status).toBe(200);
    await s.services.invoices!.callbacks.idle();
    expect(s.services.invoices!.callbacks.records().map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    stop.abort();
    const done = await running;
    expect(done.code).toBe(0);
    const j = openJournal(journal, { readonly: true });
    try {
      const store = new CallbackStore(j.db, journal);
      expect(store.invoice(inv.id)).toMatchObject({ status: 'fully_paid', amountReceived: '30', externalTransactionId: 'cli-1' });
      expect(store.events(inv.id).map((e) => e.event)).toEqual(['invoice.created', 'invoice.payment_reference_number_generated', 'invoice.updated', 'invoice.fully_paid']);
    } finally {
      j.close();
    }
    const shown = await cli(['merchant', 'history', '--journal', journal], env);
    expect(shown.code).toBe(0);
    expect(shown.out.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^invoice ${inv.id}  fully_paid  30/30 PHP  external id cli-1  \\(4 events, 4 deliveries\\)$`)),
      expect.stringMatching(/ new -> pending 0 {2}by callback invoice\.created$/),
      expect.stringMatching(/ pending 0 -> pending 30 {2}by callback invoice\.updated$/),
      expect.stringMatching(/ pending 30 -> fully_paid 30 {2}by (callback invoice\.fully_paid|query \(no callback came\))$/),
    ]);
    const json = JSON.parse((await cli(['merchant', 'history', '--journal', journal, '--id', inv.id, '--json'], env)).out) as { invoiceId: string; transitions: unknown[] }[];
    expect(json.map((i) => [i.invoiceId, i.transitions.length])).toEqual([[inv.id, 3]]);
    const unknown = await cli(['merchant', 'history', '--journal', journal, '--id', '42'], env);
    expect([unknown.code, unknown.err]).toEqual([2, `error: --id: no invoice 42 in ${journal}`]);
  });
});

describe('bad input: named with the reason, nothing sent', () => {
  it('refuses each bad option before any request leaves', async () => {
    const server = await startCaptureServer();
    defer(() => server.close());
    const env = { HALYARD_BASE_URL: server.baseUrl, HALYARD_MERCHANT_KEY: MERCHANT_KEY, HALYARD_MERCHANT_SECRET: MERCHANT_SECRET, HALYARD_API_KEY: 'k'.repeat(32), HALYARD_API_SECRET: 's'.repeat(32) };
    const inv = ['merchant', 'invoice', 'create', '--currency', 'PHP'];
    const cases: [string[], RegExp][] = [
      [[...inv], /--amount is required/],
      [[...inv, '--amount', '0'], /--amount: 0 is not above 0/],
      [[...inv, '--amount', '-5'], /--amount: '-5' is not a plain decimal number/],
      [[...inv, '--amount', '1e3'], /--amount: '1e3' is not a plain decimal number/],
      [[...inv, '--amount', 'ten'], /--amount: 'ten'/],
      [['merchant', 'invoice', 'create', '--amount', '1', '--currency', 'P$P'], /--currency: 'P\$P' is not a currency code/],
      [[...inv, '--amount', '1', '--collectors', 'VISA'], /--collectors: 'VISA' is not a payment collector code/],
      [[...inv, '--amount', '1', '--collectors', 'CEBL,,MLH'], /--collectors: .* has an empty entry/],
      [[...inv, '--amount', '1', '--collectors', 'CEBL,CEBL'], /--collectors: 'CEBL' is listed twice/],
      [[...inv, '--amount', '1', '--expires', 'next week'], /--expires: 'next week' is not an ISO 8601/],
      [[...inv, '--amount', '1', '--expires', '0h'], /--expires: '0h' is no time at all/],
      [[...inv, '--amount', '1', '--expires', '2025-02-30T10:00:00Z'], /--expires: .* is not a real date/],
      [[...inv, '--amount', '1', '--id', '5'], /--id is not an option of `merchant invoice create` \(it belongs to merchant invoice list, merchant invoice cancel, merchant history\)/],
      [['merchant', 'invoice', 'list', '--id', '5', '--limit', '3'], /--id names one invoice; --limit would be ignored/],
      [['merchant', 'invoice', 'list', '--from', '2025-02-01', '--to', '2025-01-01'], /--from \(2025-02-01T00:00:00.000Z\) is after --to/],
      [['merchant', 'invoice', 'list', '--from', 'yesterday'], /--from: 'yesterday' is not a time/],
      [['merchant', 'invoice', 'list', '--limit', '1001'], /--limit: '1001' is not a whole number from 1 to 1000/],
      [['merchant', 'invoice', 'cancel'], /--id is required/],
      [['merchant', 'invoice', 'cancel', '--id', '12 34'], /--id: '12 34' is not an id/],
      [['merchant', 'invoice', 'pay', '--id', '1'], /'pay' is not an action: create, list or cancel/],
      [['merchant', 'invoices'], /'invoices' is not a subject/],
      [['merchant', 'history', '--journal', '/nonexistent/merchant.db'], /no journal at \/nonexistent\/merchant.db/],
      [['merchant', 'history', '--listen', '127.0.0.1:1'], /--listen is not an option of `merchant history`/],
      [['merchant', 'invoice', 'list', '--json'], /--json is not an option of `merchant invoice list` \(it belongs to merchant history\)/],
      [['merchant', 'receive'], /--listen is required/],
      [['merchant', 'receive', '--listen', 'localhost'], /--listen: 'localhost' is not HOST:PORT/],
      [['merchant', 'receive', '--listen', '127.0.0.1:70000'], /--listen: port 70000 is above 65535/],
      [['merchant', 'receive', '--listen', '300.1.1.1:80'], /--listen: '300.1.1.1' is not an IPv4 address/],
      [['merchant', 'receive', '--listen', '127.0.0.1:0', '--quiet-minutes', '0'], /--quiet-minutes: expected a whole number >= 1/],
      [['merchant', 'receive', '--listen', '127.0.0.1:0', '--amount', '1'], /--amount is not an option of `merchant receive`/],
      [['payment-request', 'create', '--account', 'PHP', '--amount', '1', '--message', 'm'], /--payer is required/],
      [['payment-request', 'create', '--payer', 'bob', '--account', 'PHP', '--amount', '1', '--message', 'm'], /--payer: 'bob' is neither an email address nor a phone number/],
      [['payment-request', 'create', '--payer', 'a@b.co', '--account', 'PHP', '--amount', '1'], /--message is required/],
      [['payment-request', 'create', '--payer', 'a@b.co', '--account', 'PHP', '--amount', '0.0', '--message', 'm'], /--amount: 0.0 is not above 0/],
      [['payment-request', 'create', '--payer', 'a@b.co', '--account', 'P H P', '--amount', '1', '--message', 'm'], /--account: 'P H P' is not a token or a balance id/],
      [['payment-request', 'remind'], /--id is required/],
      [['payment-request', 'cancel', '--id', '1', '--message', 'x'], /--message is not an option of `payment-request cancel`/],
      [['payment-request', 'send'], /'send' is not an action: create, list, cancel or remind/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args, env);
      expect(r.err, args.join(' ')).toMatch(message);
      expect(r.code, args.join(' ')).toBe(2);
    }
    const port = new URL(server.baseUrl).port;
    const taken = await cli(['merchant', 'receive', '--listen', `127.0.0.1:${port}`, '--journal', join(tempDir(), 'j.db'), '--log-level', 'silent'], env);
    expect(taken.err).toMatch(new RegExp(`--listen 127.0.0.1:${port}: the address is in use`));
    expect(taken.code).toBe(2);
    const noKeys = await cli(['merchant', 'receive', '--listen', '127.0.0.1:0'], { HALYARD_BASE_URL: server.baseUrl });
    expect(noKeys.code).toBe(2);
    expect(noKeys.err).toMatch(/HALYARD_MERCHANT_KEY is not set/);
    expect(noKeys.err).toMatch(/HALYARD_MERCHANT_SECRET is not set/);
    const noSecret = await cli(['merchant', 'invoice', 'list'], { HALYARD_BASE_URL: server.baseUrl, HALYARD_MERCHANT_KEY: MERCHANT_KEY });
    expect(noSecret.code).toBe(2);
    expect(noSecret.err).toMatch(/HALYARD_MERCHANT_SECRET/);
    expect(server.requests.filter((r) => r.path.startsWith('/merchant-api') || r.path.includes('payment-request'))).toEqual([]);
  });
});
