/**
 * The receiver's journal tables (schema 8, migrations/008-merchant-callbacks.ts): events applied
 * once, the known state of each invoice, and its transitions. `applyEvent` and `applyQuery` each
 * run in one transaction, so an event row never exists without the change it made.
 */
import type { Database, Statement } from 'better-sqlite3';
import { guardWrite } from '../../journal/write-guard.ts';
import type { CallbackEvent } from './callback-event.ts';
import { advance, isTransition, type InvoiceState, type KnownInvoice, type Observation } from './invoice-state.ts';

export interface StoredEvent {
  id: number;
  invoiceId: string;
  event: string;
  amountReceived: string;
  receivedAt: number;
  deliveries: number;
  body: unknown;
}

export interface Transition {
  id: number;
  invoiceId: string;
  at: number;
  source: 'callback' | 'query';
  eventId: number | null;
  fromStatus: InvoiceState | null;
  toStatus: InvoiceState;
  fromReceived: string | null;
  toReceived: string;
}

export type ApplyResult =
  | { kind: 'applied'; eventId: number; transition: Transition | undefined; invoice: KnownInvoice }
  | { kind: 'duplicate'; eventId: number; deliveries: number; invoice: KnownInvoice | undefined };

interface InvoiceRow {
  invoice_id: string;
  currency: string;
  amount: string;
  amount_received: string;
  status: InvoiceState;
  external_transaction_id: string;
  created_at: number | null;
}

interface TransitionRow {
  id: number;
  invoice_id: string;
  at: number;
  source: 'callback' | 'query';
  event_id: number | null;
  from_status: InvoiceState | null;
  to_status: InvoiceState;
  from_received: string | null;
  to_received: string;
}

const toKnown = (r: InvoiceRow): KnownInvoice => ({
  invoiceId: r.invoice_id,
  currency: r.currency,
  amount: r.amount,
  amountReceived: r.amount_received,
  status: r.status,
  externalTransactionId: r.external_transaction_id,
  createdAt: r.created_at,
});

const toTransition = (r: TransitionRow): Transition => ({
  id: r.id,
  invoiceId: r.invoice_id,
  at: r.at,
  source: r.source,
  eventId: r.event_id,
  fromStatus: r.from_status,
  toStatus: r.to_status,
  fromReceived: r.from_received,
  toReceived: r.to_received,
});

export class CallbackStore {
  private readonly s: Record<'findEvent' | 'bumpEvent' | 'insertEvent' | 'getInvoice' | 'upsertInvoice' | 'insertTransition' | 'getTransition' | 'openInvoices' | 'allInvoices' | 'transitions' | 'events' | 'latestCreated', Statement>;

  constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {
    this.s = {
      findEvent: db.prepare('SELECT id, deliveries FROM merchant_invoice_events WHERE invoice_id = ? AND event = ? AND amount_received = ?'),
      bumpEvent: db.prepare('UPDATE merchant_invoice_events SET deliveries = deliveries + 1, last_delivery_at = ? WHERE id = ?'),
      insertEvent: db.prepare('INSERT INTO merchant_invoice_events (invoice_id, event, amount_received, body, received_at, last_delivery_at) VALUES (?, ?, ?, ?, ?, ?)'),
      getInvoice: db.prepare('SELECT * FROM merchant_invoices WHERE invoice_id = ?'),
      upsertInvoice: db.prepare(`
        INSERT INTO merchant_invoices (invoice_id, currency, amount, amount_received, status, external_transaction_id, created_at, updated_at)
        VALUES (@invoiceId, @currency, @amount, @amountReceived, @status, @externalTransactionId, @createdAt, @now)
        ON CONFLICT (invoice_id) DO UPDATE SET amount_received = excluded.amount_received, status = excluded.status,
          created_at = coalesce(merchant_invoices.created_at, excluded.created_at), updated_at = excluded.updated_at`),
      insertTransition: db.prepare(`
        INSERT INTO merchant_invoice_transitions (invoice_id, at, source, event_id, from_status, to_status, from_received, to_received)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      getTransition: db.prepare('SELECT * FROM merchant_invoice_transitions WHERE id = ?'),
      openInvoices: db.prepare("SELECT * FROM merchant_invoices WHERE status = 'pending' ORDER BY invoice_id"),
      allInvoices: db.prepare('SELECT * FROM merchant_invoices ORDER BY invoice_id'),
      transitions: db.prepare('SELECT * FROM merchant_invoice_transitions WHERE (@invoiceId IS NULL OR invoice_id = @invoiceId) ORDER BY id'),
      events: db.prepare('SELECT * FROM merchant_invoice_events WHERE (@invoiceId IS NULL OR invoice_id = @invoiceId) ORDER BY id'),
      latestCreated: db.prepare('SELECT max(created_at) AS t FROM merchant_invoices'),
    };
  }

  /** Apply an authenticated event once: a repeat (same invoice, event and amount received) only counts a delivery. */
  applyEvent(ev: CallbackEvent, now: number): ApplyResult {
    return guardWrite(this.file, () => `callback ${ev.name} of invoice ${ev.invoiceId}`, () =>
      this.db.transaction((): ApplyResult => {
        const seen = this.s.findEvent.get(ev.invoiceId, ev.name, ev.amountReceived) as { id: number; deliveries: number } | undefined;
        if (seen) {
          this.s.bumpEvent.run(now, seen.id);
          return { kind: 'duplicate', eventId: seen.id, deliveries: seen.deliveries + 1, invoice: this.invoice(ev.invoiceId) };
        }
        const eventId = Number(this.s.insertEvent.run(ev.invoiceId, ev.name, ev.amountReceived, JSON.stringify(ev.body), now, now).lastInsertRowid);
        const { transition, invoice } = this.observe(ev.observation, now, 'callback', eventId);
        return { kind: 'applied', eventId, transition, invoice };
      }).immediate(),
    );
  }

  /** What a query of the venue showed; the transition when it changed the knowledge. */
  applyQuery(obs: Observation, now: number): Transition | undefined {
    return guardWrite(this.file, () => `invoice ${obs.invoiceId} as queried`, () => this.db.transaction(() => this.observe(obs, now, 'query', null).transition).immediate());
  }

  invoice(invoiceId: string): KnownInvoice | undefined {
    const row = this.s.getInvoice.get(invoiceId) as InvoiceRow | undefined;
    return row && toKnown(row);
  }

  invoices(which: 'open' | 'all' = 'all'): KnownInvoice[] {
    return ((which === 'open' ? this.s.openInvoices : this.s.allInvoices).all() as InvoiceRow[]).map(toKnown);
  }

  transitions(invoiceId?: string): Transition[] {
    return (this.s.transitions.all({ invoiceId: invoiceId ?? null }) as TransitionRow[]).map(toTransition);
  }

  events(invoiceId?: string): StoredEvent[] {
    return (this.s.events.all({ invoiceId: invoiceId ?? null }) as { id: number; invoice_id: string; event: string; amount_received: string; received_at: number; deliveries: number; body: string }[]).map((r) => ({
      id: r.id,
      invoiceId: r.invoice_id,
      event: r.event,
      amountReceived: r.amount_received,
      receivedAt: r.received_at,
      deliveries: r.deliveries,
      body: JSON.parse(r.body) as unknown,
    }));
  }

  /** The latest venue creation time known (where a range query may start), or undefined. */
  latestCreatedAt(): number | undefined {
    const r = this.s.latestCreated.get() as { t: number | null };
    return r.t ?? undefined;
  }

  private observe(obs: Observation, now: number, source: 'callback' | 'query', eventId: number | null): { transition: Transition | undefined; invoice: KnownInvoice } {
    const prev = this.invoice(obs.invoiceId);
    const next = advance(prev, obs);
    if (next === undefined) return { transition: undefined, invoice: prev as KnownInvoice };
    this.s.upsertInvoice.run({ ...next, now });
    if (!isTransition(prev, next)) return { transition: undefined, invoice: next };
    const id = Number(this.s.insertTransition.run(obs.invoiceId, now, source, eventId, prev?.status ?? null, next.status, prev?.amountReceived ?? null, next.amountReceived).lastInsertRowid);
    return { transition: toTransition(this.s.getTransition.get(id) as TransitionRow), invoice: next };
  }
}
