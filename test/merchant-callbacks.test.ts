/**
 * The invoice callback receiver end to end (issue 23 deliverable 5 and its "Callbacks" acceptance;
 * spec 4.10, 6.1, 3.2): the sandbox on 127.0.0.1 sends its callbacks over HTTP to the receiver on
 * 127.0.0.1 (both on ephemeral ports); the receiver journals them and asks get-invoices with the
 * project's client (merchant signature, spec 5.4). Sandbox time is a VirtualClock; the receiver's
 * quiet check runs on an RxJS VirtualTimeScheduler.
 */
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { migration008 } from '../src/journal/migrations/008-merchant-callbacks.ts';
import { CallbackStore } from '../src/merchant/callbacks/callback-store.ts';
import type { InvoiceReader } from '../src/merchant/callbacks/reconcile-invoices.ts';
import { startReceiver, type Receiver } from '../src/merchant/callbacks/receiver.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { merchantPlugin } from '../src/sandbox/money/merchant/plugin.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const START = Date.UTC(2025, 0, 15, 12, 0, 0);
const MERCHANT_KEY = 'hsbxMerchantKey000000000000000000000000000000000000000000000001';
const MERCHANT_SECRET = 'hsbxMerchantSecret0000000000000000000000000000000000000000000001';
const defer = closeAfterEach();

interface World {
  s: SandboxHandle;
  c: ClientHandle['client'];
  clock: VirtualClock;
  vt: VirtualTime;
  store: CallbackStore;
  db: Sqlite.Database;
  port: number;
  receiver: Receiver | undefined;
  /** Start (again) the receiver on the world's port and store. */
  start(): Promise<Receiver>;
  stop(): Promise<void>;
}

function memoryStore(): { db: Sqlite.Database; store: CallbackStore } {
  const db = new Sqlite(':memory:');
  db.exec(migration008.sql);
  defer(() => {
    db.close();
  });
  return { db, store: new CallbackStore(db, ':memory:') };
}

async function world(opts: { quietMs?: number } = {}): Promise<World> {
  const clock = new VirtualClock(START);
  const vt = new VirtualTime(START);
  const { db, store } = memoryStore();
  // The receiver asks the sandbox through this client; the sandbox needs the receiver's URL first.
  const late: { client?: ClientHandle['client'] } = {};
  const reader: InvoiceReader = { getInvoices: (p) => (late.client as ClientHandle['client']).merchant.getInvoices(p) };
  const w: World = {
    s: undefined as unknown as SandboxHandle,
    c: undefined as unknown as ClientHandle['client'],
    clock,
    vt,
    store,
    db,
    port: 0,
    receiver: undefined,
    async start() {
      const r = await startReceiver({ host: '127.0.0.1', port: w.port, store, reader, merchantKeys: [MERCHANT_KEY], now: () => clock.now(), scheduler: vt.scheduler, quietMs: opts.quietMs, checkEveryMs: 60_000 });
      w.port = r.port;
      w.receiver = r;
      return r;
    },
    async stop() {
      await w.receiver?.close();
      w.receiver = undefined;
    },
  };
  defer(() => w.stop());
  await w.start();
  const s = await startSandbox({ config: { admin: { enabled: true }, merchant: { callbackUrl: `http://127.0.0.1:${w.port}/hooks/invoices` } }, clock, plugins: [merchantPlugin({ retryDelaysMs: [10, 10] })] });
  defer(() => s.close());
  s.accounts.createKey({ accountId: DEMO_UID, apiKey: MERCHANT_KEY, secret: MERCHANT_SECRET, merchant: true, createdAt: clock.now() });
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { merchantKey: MERCHANT_KEY, merchantSecret: MERCHANT_SECRET }, clock });
  defer(() => handle.close());
  late.client = handle.client;
  w.s = s;
  w.c = handle.client;
  return w;
}

/** Every callback sent so far delivered or given up, and the receiver's follow-up queries done. */
async function settled(w: World): Promise<void> {
  await w.s.services.invoices!.callbacks.idle();
  await w.receiver?.idle();
}

async function pay(s: SandboxHandle, id: string, amount?: string): Promise<void> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}/invoices/${id}/pay`, { method: 'POST', body: JSON.stringify(amount === undefined ? {} : { amount }), headers: { 'content-type': 'application/json' } });
  expect(r.status).toBe(200);
}

async function post(w: World, body: unknown, authorization?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers['authorization'] = authorization;
  const r = await fetch(`http://127.0.0.1:${w.port}/hooks/invoices`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const invoice = (w: World, ext: string, amount = '100') => w.c.merchant.createInvoice({ amount, currency: 'PHP', supported_payment_collectors: ['service_peso_wallet'], external_transaction_id: ext }).then((r) => r.invoice);
const counts = (w: World) => ({
  events: (w.db.prepare('SELECT count(*) AS n FROM merchant_invoice_events').get() as { n: number }).n,
  invoices: (w.db.prepare('SELECT count(*) AS n FROM merchant_invoices').get() as { n: number }).n,
  transitions: (w.db.prepare('SELECT count(*) AS n FROM merchant_invoice_transitions').get() as { n: number }).n,
});

describe('merchant callback receiver against the sandbox', () => {
  it('journals the callbacks of an invoice paid in two parts, each event once', async () => {
    const w = await world();
    const inv = await invoice(w, 'order-1');
    await settled(w);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'pending', amountReceived: '0', amount: '100', currency: 'PHP', externalTransactionId: 'order-1' });
    await pay(w.s, inv.id, '40');
    await settled(w);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'pending', amountReceived: '40' });
    await pay(w.s, inv.id);
    await settled(w);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'fully_paid', amountReceived: '100' });
    expect(w.store.events(inv.id).map((e) => [e.event, e.amountReceived, e.deliveries])).toEqual([
      ['invoice.created', '0', 1],
      ['invoice.payment_reference_number_generated', '0', 1],
      ['invoice.updated', '40', 1],
      ['invoice.updated', '100', 1],
      ['invoice.fully_paid', '100', 1],
    ]);
    expect(w.store.transitions(inv.id).map((t) => [t.fromStatus, t.toStatus, t.toReceived])).toEqual([
      [null, 'pending', '0'],
      ['pending', 'pending', '40'],
      ['pending', 'pending', '100'],
      ['pending', 'fully_paid', '100'],
    ]);
    expect(w.s.services.invoices!.callbacks.records().every((r) => r.status === 'delivered')).toBe(true);
  });

  it('refuses forged callbacks (no, wrong or malformed authentication) and changes nothing', async () => {
    const w = await world();
    const inv = await invoice(w, 'order-f');
    await settled(w);
    const before = counts(w);
    expect(before).toEqual({ events: 1, invoices: 1, transitions: 1 });
    const forged = { event: { name: 'invoice.fully_paid', data: { id: inv.id, currency: 'PHP', amount: '100', amount_received: '100', external_transaction_id: 'order-f' } } };
    const other = { event: { name: 'invoice.created', data: { id: '999', currency: 'PHP', amount: '5', amount_received: '0', external_transaction_id: 'x' } } };
    for (const auth of [undefined, '', 'Token wrong-key', `Bearer ${MERCHANT_KEY}`, `Token ${MERCHANT_KEY}x`, `Token ${MERCHANT_KEY.slice(0, -1)}`, MERCHANT_KEY]) {
      for (const body of [forged, other]) {
        const r = await post(w, body, auth);
        expect(r.status, `Authorization ${String(auth)}`).toBe(401);
      }
    }
    await w.receiver!.idle();
    expect(counts(w)).toEqual(before);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'pending', amountReceived: '0' });
    // The same body with the key is taken: the refusals above were the authentication's.
    expect((await post(w, other, `Token ${MERCHANT_KEY}`)).status).toBe(200);
    expect(counts(w).events).toBe(before.events + 1);
  });

  it('applies an event delivered twice once; a malformed body is refused by field', async () => {
    const w = await world();
    const inv = await invoice(w, 'order-d');
    await pay(w.s, inv.id, '30');
    await settled(w);
    const before = counts(w);
    const updated = w.s.services.invoices!.callbacks.records().find((r) => r.event === 'invoice.updated')!.body;
    const again = await post(w, updated, `Token ${MERCHANT_KEY}`);
    expect(again).toEqual({ status: 200, body: { received: true, applied: false } });
    await w.receiver!.idle();
    expect(counts(w)).toEqual(before);
    expect(w.store.events(inv.id).find((e) => e.event === 'invoice.updated')?.deliveries).toBe(2);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'pending', amountReceived: '30' });

    const bad = await post(w, { event: { name: 'invoice.updated', data: { ...updated.event.data, amount_received: '-5' } } }, `Token ${MERCHANT_KEY}`);
    expect(bad.status).toBe(400);
    expect(bad.body['error']).toMatch(/^event\.data\.amount_received: /);
    expect((await post(w, '{not json', `Token ${MERCHANT_KEY}`)).status).toBe(400);
    expect(counts(w)).toEqual(before);
  });

  it('learns a cancel whose callback body equals the earlier payment callback by asking the venue', async () => {
    const w = await world();
    const inv = await invoice(w, 'order-c');
    await pay(w.s, inv.id, '25');
    await settled(w);
    await w.c.merchant.cancelInvoice({ invoice_id: inv.id });
    await settled(w);
    const updates = w.s.services.invoices!.callbacks.records().filter((r) => r.event === 'invoice.updated');
    expect(updates).toHaveLength(2);
    expect(updates[1]!.body).toEqual(updates[0]!.body);
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'canceled', amountReceived: '25' });
    expect(w.store.transitions(inv.id).at(-1)).toMatchObject({ source: 'query', fromStatus: 'pending', toStatus: 'canceled' });
  });

  it('recovers by querying what happened while the receiver was down', async () => {
    const w = await world();
    const paid = await invoice(w, 'order-p');
    const canceled = await invoice(w, 'order-x');
    await settled(w);
    await w.stop();
    await pay(w.s, paid.id);
    await w.c.merchant.cancelInvoice({ invoice_id: canceled.id });
    const unseen = await invoice(w, 'order-new', '7.5');
    await pay(w.s, unseen.id, '2.5');
    await settled(w);
    // Every delivery while down gave up (the sandbox's retries are short here).
    expect(w.s.services.invoices!.callbacks.records().filter((r) => r.status === 'failed').length).toBeGreaterThanOrEqual(6);
    expect(w.store.invoice(paid.id)?.status).toBe('pending');
    expect(w.store.invoice(unseen.id)).toBeUndefined();

    await w.start();
    await w.receiver!.idle();
    expect(w.store.invoice(paid.id)).toMatchObject({ status: 'fully_paid', amountReceived: '100' });
    expect(w.store.invoice(canceled.id)).toMatchObject({ status: 'canceled', amountReceived: '0' });
    expect(w.store.invoice(unseen.id)).toMatchObject({ status: 'pending', amount: '7.5', amountReceived: '2.5', externalTransactionId: 'order-new' });
    const recovered = w.store.transitions().filter((t) => t.source === 'query');
    expect(recovered.map((t) => [t.invoiceId, t.toStatus, t.toReceived])).toEqual([
      [paid.id, 'fully_paid', '100'],
      [canceled.id, 'canceled', '0'],
      [unseen.id, 'pending', '2.5'],
    ]);
    // Asking again finds nothing new.
    expect((await w.receiver!.reconcile()).transitions).toEqual([]);
  });

  it('asks the venue when callbacks stop arriving while invoices are pending (virtual time)', async () => {
    const w = await world({ quietMs: 5 * 60_000 });
    const inv = await invoice(w, 'order-q');
    await settled(w);
    // The venue stops sending (its callback address removed): the payment's callbacks never come.
    w.s.config.merchant.callbackUrl = undefined;
    await pay(w.s, inv.id);
    const unseen = await invoice(w, 'order-q2', '9');
    await settled(w);
    expect(w.store.invoice(inv.id)?.status).toBe('pending');
    expect(w.store.invoice(unseen.id)).toBeUndefined();
    await w.vt.advance(4 * 60_000);
    await w.receiver!.idle();
    expect(w.store.invoice(inv.id)?.status).toBe('pending');
    await w.vt.advance(2 * 60_000);
    await w.receiver!.idle();
    expect(w.store.invoice(inv.id)).toMatchObject({ status: 'fully_paid', amountReceived: '100' });
    expect(w.store.transitions(inv.id).at(-1)).toMatchObject({ source: 'query', toStatus: 'fully_paid' });
    expect(w.store.invoice(unseen.id)).toMatchObject({ status: 'pending', amount: '9' });
  });
});
