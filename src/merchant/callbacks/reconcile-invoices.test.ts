/** reconcile-invoices.ts on a fake get-invoices: paging, where the range starts, invoices seen only through callbacks. */
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Invoice } from '../../exchange/endpoints/areas/merchant.ts';
import { migration008 } from '../../journal/migrations/008-merchant-callbacks.ts';
import { readCallback } from './callback-event.ts';
import { CallbackStore } from './callback-store.ts';
import { reconcileInvoices, type InvoiceReader } from './reconcile-invoices.ts';

const dbs: Sqlite.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function store(): CallbackStore {
  const db = new Sqlite(':memory:');
  db.exec(migration008.sql);
  dbs.push(db);
  return new CallbackStore(db, ':memory:');
}

const inv = (id: number, createdAt: number, status: Invoice['status'] = 'pending', due = '10'): Invoice => ({
  id: String(id),
  amount: '10',
  amount_due: due,
  currency: 'PHP',
  status,
  external_transaction_id: `e${id}`,
  created_at: createdAt,
  updated_at: createdAt,
  expires_at: createdAt + 1000,
  supported_payment_collectors: '["service_peso_wallet"]',
  payment_url: '',
  expires_in_seconds: 0,
  incoming_address: '',
});

/** The sandbox's reading: by id, else created in [start, end], oldest first, at most limit. */
function venue(all: Invoice[]): InvoiceReader & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    getInvoices: async (p = {}) => {
      calls.push({ ...p });
      if (p.invoice_id !== undefined) return { invoice: all.filter((i) => i.id === p.invoice_id) };
      const from = p.start_time ?? 0;
      const to = p.end_time ?? Number.MAX_SAFE_INTEGER;
      return { invoice: all.filter((i) => i.created_at >= from && i.created_at <= to).slice(0, p.limit ?? 500) };
    },
  };
}

describe('reconcileInvoices', () => {
  it('pages through more than one answer (1000 each) and records every invoice once', async () => {
    const all = Array.from({ length: 2500 }, (_, k) => inv(k + 1, 1_000 + k));
    const s = store();
    const v = venue(all);
    const report = await reconcileInvoices(v, s, () => 5);
    expect(report.seen).toBe(2500);
    expect(report.transitions).toHaveLength(2500);
    expect(s.invoices('open')).toHaveLength(2500);
    expect(v.calls.map((c) => c['start_time'])).toEqual([undefined, 1_999, 2_998]);
    expect((await reconcileInvoices(v, s, () => 6)).transitions).toEqual([]);
  });

  it('starts at the oldest pending invoice it knows, and asks by id for one seen only through callbacks', async () => {
    const s = store();
    const first = await reconcileInvoices(venue([inv(1, 100), inv(2, 200, 'fully_paid', '0'), inv(3, 300)]), s, () => 1);
    expect(first.transitions.map((t) => [t.invoiceId, t.toStatus])).toEqual([['1', 'pending'], ['2', 'fully_paid'], ['3', 'pending']]);
    const seen = readCallback({ event: { name: 'invoice.created', data: { id: '9', currency: 'PHP', amount: '10', amount_received: '0', external_transaction_id: 'e9' } } });
    if (!seen.ok) throw new Error(seen.reason);
    s.applyEvent(seen.event, 2);
    // Since: 1 paid; 9 (created long before, its creation time unknown here) canceled.
    const v = venue([inv(1, 100, 'fully_paid', '0'), inv(2, 200, 'fully_paid', '0'), inv(3, 300), { ...inv(9, 50, 'canceled'), external_transaction_id: 'e9' }]);
    const later = await reconcileInvoices(v, s, () => 3);
    expect(v.calls).toEqual([{ start_time: 100, limit: 1000 }, { invoice_id: '9' }]);
    expect(later.transitions.map((t) => [t.invoiceId, t.fromStatus, t.toStatus, t.source])).toEqual([
      ['1', 'pending', 'fully_paid', 'query'],
      ['9', 'pending', 'canceled', 'query'],
    ]);
  });
});
