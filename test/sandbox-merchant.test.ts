/**
 * The sandbox's merchant invoicing (with spec 6.1 callbacks) and payment requests end to end
 * (issue "Sandbox exchange", deliverable 8; spec 2.13, 4.3, 4.10, 5.4, 6.1): a real server on
 * 127.0.0.1, the project's client signing with merchant credentials, and a callback receiver
 * (node:http, 127.0.0.1, ephemeral port) standing in for the merchant's server.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { VenueRejectedError } from '../src/exchange/errors/errors.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { merchantPlugin } from '../src/sandbox/money/merchant/plugin.ts';
import { paymentRequestPlugin } from '../src/sandbox/money/payment-request/plugin.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { startCaptureServer, type CaptureServer } from './support/capture-server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const START = Date.UTC(2025, 0, 15, 12, 0, 0);
const MERCHANT_KEY = 'hsbxMerchantKey000000000000000000000000000000000000000000000001';
const MERCHANT_SECRET = 'hsbxMerchantSecret0000000000000000000000000000000000000000000001';
const defer = closeAfterEach();

interface Env {
  s: SandboxHandle;
  c: ClientHandle['client'];
  clock: VirtualClock;
  receiver: CaptureServer;
  client(merchantSecret: string): ClientHandle['client'];
}

async function setup(retryDelaysMs: number[] = [20, 20]): Promise<Env> {
  const receiver = await startCaptureServer();
  defer(() => receiver.close());
  const clock = new VirtualClock(START);
  const s = await startSandbox({
    config: { admin: { enabled: true }, merchant: { callbackUrl: `${receiver.baseUrl}/hooks/invoices` } },
    clock,
    plugins: [merchantPlugin({ retryDelaysMs }), paymentRequestPlugin()],
  });
  defer(() => s.close());
  s.accounts.createKey({ accountId: DEMO_UID, apiKey: MERCHANT_KEY, secret: MERCHANT_SECRET, merchant: true, createdAt: clock.now() });
  const client = (merchantSecret: string) => {
    const handle = createClient({
      baseUrl: s.baseUrl,
      exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange,
      secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret, merchantKey: MERCHANT_KEY, merchantSecret },
      clock,
    });
    defer(() => handle.close());
    return handle.client;
  };
  return { s, c: client(MERCHANT_SECRET), clock, receiver, client };
}

async function pay(s: SandboxHandle, id: string, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}/${id}/pay`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

async function venueCode(call: Promise<unknown>): Promise<number | undefined> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VenueRejectedError);
  return (e as VenueRejectedError).venueCode;
}

const events = (r: CaptureServer) => r.requests.map((q) => JSON.parse(q.body) as { event: { name: string; data: Record<string, string> } });
const free = (s: SandboxHandle, asset: string) => s.services.balances!.get(DEMO_UID, asset).free;
const invoiceBody = (id: string) => ({ amount: '100', currency: 'PHP', supported_payment_collectors: ['service_peso_wallet'], external_transaction_id: id });

describe('sandbox merchant invoices (spec 4.10, 6.1)', () => {
  it('creates, reads and pays an invoice; callbacks reach the merchant with its key', async () => {
    const { s, c, receiver } = await setup();
    const created = (await c.merchant.createInvoice(invoiceBody('order-1'))).invoice;
    expect(created).toMatchObject({ amount: '100', amount_due: '100', currency: 'PHP', status: 'pending', external_transaction_id: 'order-1', created_at: START, expires_at: START + 7 * 86_400_000, expires_in_seconds: 604_800, supported_payment_collectors: '["service_peso_wallet"]', incoming_address: '' });
    expect(created.payment_url).toBe(`${s.baseUrl}/invoice/${created.id}`);

    expect((await c.merchant.getInvoices({ invoice_id: created.id })).invoice.map((i) => i.id)).toEqual([created.id]);
    expect((await c.merchant.getInvoices({ invoice_id: '1' })).invoice).toEqual([]);
    expect((await c.merchant.getInvoices()).invoice).toHaveLength(1);
    expect((await c.merchant.getInvoices({ start_time: START + 1 })).invoice).toHaveLength(0);

    expect((await pay(s, `invoices/${created.id}`, { amount: '40' })).body).toMatchObject({ status: 'pending', amount_due: '60' });
    expect((await pay(s, `invoices/${created.id}`, { amount: '61' })).status).toBe(400);
    expect((await pay(s, `invoices/${created.id}`)).body).toMatchObject({ status: 'fully_paid', amount_due: '0', expires_in_seconds: '0' });
    expect((await pay(s, `invoices/${created.id}`)).status).toBe(409);
    expect(free(s, 'PHP')).toBe('100100');
    expect((await c.merchant.getInvoices({ invoice_id: created.id })).invoice[0]?.status).toBe('fully_paid');

    await s.services.invoices!.callbacks.idle();
    expect(receiver.requests.every((r) => r.method === 'POST' && r.path === '/hooks/invoices' && r.headers['authorization'] === `Token ${MERCHANT_KEY}` && r.headers['content-type'] === 'application/json')).toBe(true);
    expect(events(receiver).map((e) => [e.event.name, e.event.data['amount_received']])).toEqual([
      ['invoice.created', '0'],
      ['invoice.payment_reference_number_generated', '0'],
      ['invoice.updated', '40'],
      ['invoice.updated', '100'],
      ['invoice.fully_paid', '100'],
    ]);
    expect(events(receiver).at(-1)?.event.data).toEqual({ id: created.id, currency: 'PHP', amount: '100', amount_received: '100', external_transaction_id: 'order-1' });
  });

  it('retries a failed callback delivery with backoff without holding the request', async () => {
    const { s, c, receiver } = await setup();
    let calls = 0;
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    // The first delivery hangs until released, then fails; the create call must not wait for it.
    receiver.setHandler(async () => (++calls === 1 ? (await gate, { status: 500 }) : { status: 200 }));
    const inv = (await c.merchant.createInvoice(invoiceBody('order-r'))).invoice;
    expect(s.services.invoices!.callbacks.records()[0]?.status).toBe('pending');
    release();
    await s.services.invoices!.callbacks.idle();
    const [record] = s.services.invoices!.callbacks.records();
    expect(record).toMatchObject({ event: 'invoice.created', invoiceId: inv.id, status: 'delivered', attempts: 2, lastHttpStatus: 200 });
    receiver.setHandler(() => ({ status: 503 }));
    await c.merchant.cancelInvoice({ invoice_id: inv.id });
    await s.services.invoices!.callbacks.idle();
    expect(s.services.invoices!.callbacks.records()[1]).toMatchObject({ event: 'invoice.updated', status: 'failed', attempts: 3, lastHttpStatus: 503 });
    const viaAdmin = await fetch(`${s.baseUrl}${s.config.admin.prefix}/invoices/callbacks`);
    expect(((await viaAdmin.json()) as unknown[]).length).toBe(2);
  });

  it('cancels, expires, refuses duplicates and bad signatures', async () => {
    const { s, c, clock, client } = await setup();
    const inv = (await c.merchant.createInvoice({ ...invoiceBody('order-2'), expires_at: '2h' })).invoice;
    expect(inv.expires_in_seconds).toBe(7200);
    expect(await venueCode(c.merchant.createInvoice(invoiceBody('order-2')))).toBe(-1025);
    expect(await venueCode(c.merchant.createInvoice({ ...invoiceBody('order-3'), supported_payment_collectors: ['VISA'] }))).toBe(-1025);
    const canceled = (await c.merchant.cancelInvoice({ invoice_id: inv.id })).invoice;
    expect(canceled).toMatchObject({ status: 'canceled', expires_in_seconds: 0 });
    expect(await venueCode(c.merchant.cancelInvoice({ invoice_id: inv.id }))).toBe(-1010);
    expect(await venueCode(c.merchant.cancelInvoice({ invoice_id: '42' }))).toBe(-1025);

    const btc = (await c.merchant.createInvoice({ ...invoiceBody('order-4'), currency: 'BTC', amount: '0.001', expires_at: '30m' })).invoice;
    expect(btc.incoming_address).toMatch(/^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}$/);
    await clock.advance(31 * 60_000);
    expect((await c.merchant.getInvoices({ invoice_id: btc.id })).invoice[0]?.status).toBe('expired');
    expect((await pay(s, `invoices/${btc.id}`)).status).toBe(409);

    expect(await venueCode(client('wrong-secret-0000000000').merchant.getInvoices())).toBe(-1150);
  });
});

describe('sandbox payment requests (spec 4.3)', () => {
  it('creates, reads, reminds, cancels, pays and expires payment requests', async () => {
    const { s, c, clock } = await setup();
    const created = (
      await c.paymentRequest.createPaymentRequest({ payer_contact_info: 'payer@example.com', receiving_account: 'PHP', amount: '20', message: 'Dinner split', supported_payment_collectors: ['service_peso_wallet'] })
    )['payment-request'];
    expect(created).toMatchObject({ status: 'pending', amount: '20', currency: 'PHP', invoice: created.id, created_at: START, expires_at: START + 7 * 86_400_000, supported_payment_collectors: '["service_peso_wallet"]', payer_contact_info: 'payer@example.com', message: 'Dinner split' });

    expect(await c.paymentRequest.paymentRequestReminder({ id: created.id })).toBe(true);
    expect((await c.paymentRequest.getPaymentRequests({ id: created.id }))['payment-request']).toMatchObject({ id: created.id });
    const second = (await c.paymentRequest.createPaymentRequest({ payer_contact_info: '+639171234567', receiving_account: 'usdt', amount: '5', message: 'Coffee', expires_at: '1h' }))['payment-request'];
    expect(second).toMatchObject({ currency: 'USDT', expires_at: START + 3_600_000 });
    const list = (await c.paymentRequest.getPaymentRequests({ start_time: START, limit: 10 }))['payment-request'];
    expect(Array.isArray(list) && list.map((r) => r.id)).toEqual([created.id, second.id]);

    // Spec 2.13: timestamps travel as strings of ms (the admin route answers the wire shape).
    expect((await pay(s, `payment-requests/${created.id}`)).body).toMatchObject({ status: 'fully_paid', updated_at: String(START), amount: '20' });
    expect(free(s, 'PHP')).toBe('100020');
    expect(await venueCode(c.paymentRequest.deletePaymentRequest({ id: created.id }))).toBe(-1010);

    await clock.advance(3_600_000);
    expect((await c.paymentRequest.getPaymentRequests({ id: second.id }))['payment-request']).toMatchObject({ status: 'expired' });
    expect(await venueCode(c.paymentRequest.paymentRequestReminder({ id: second.id }))).toBe(-1010);

    const third = (await c.paymentRequest.createPaymentRequest({ payer_contact_info: 'x@example.com', receiving_account: 'PHP', amount: '1', message: 'm' }))['payment-request'];
    expect((await c.paymentRequest.deletePaymentRequest({ id: third.id }))['payment-request']).toMatchObject({ status: 'canceled' });
    expect(await venueCode(c.paymentRequest.getPaymentRequests({ id: '7' }))).toBe(-1025);
    expect(await venueCode(c.paymentRequest.createPaymentRequest({ payer_contact_info: 'x', receiving_account: 'NOPE', amount: '1', message: 'm' }))).toBe(-1025);
    expect(await venueCode(c.paymentRequest.createPaymentRequest({ payer_contact_info: 'x', receiving_account: 'PHP', amount: '0', message: 'm' }))).toBe(-1025);
  });
});
