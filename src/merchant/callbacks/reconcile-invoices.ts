/**
 * Finding the invoices' real states by asking the venue (spec 4.10 get-invoices), for when
 * callbacks stop arriving or the receiver was down (spec 6.1 shows no retry or delivery guarantee):
 * whatever the answers show that the journal did not know is recorded as a transition with
 * source `query`. Read-only at the venue; applying an answer twice changes nothing
 * (invoice-state.ts), so overlapping queries are harmless.
 */
import { D, toWire } from '../../core/money/decimal.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Invoice } from '../../exchange/endpoints/areas/merchant.ts';
import type { CallbackStore, Transition } from './callback-store.ts';
import type { Observation } from './invoice-state.ts';

export type InvoiceReader = Pick<ExchangeClient['merchant'], 'getInvoices'>;

/** get-invoices' page size (spec 4.10: max 1000). */
const PAGE = 1000;

/** What an invoice record shows: spec 2.13 has `amount_due`, not the amount received. */
export function observationOf(inv: Invoice): Observation {
  const due = new D(inv.amount_due);
  return {
    invoiceId: inv.id,
    currency: inv.currency,
    amount: inv.amount,
    amountReceived: toWire(D.max(0, new D(inv.amount).minus(due))),
    status: inv.status,
    externalTransactionId: inv.external_transaction_id,
    createdAt: inv.created_at,
  };
}

/** One invoice by id; the transition it showed, if any. Unknown to the venue: nothing changes. */
export async function refreshInvoice(reader: InvoiceReader, store: CallbackStore, invoiceId: string, now: () => number): Promise<Transition | undefined> {
  const { invoice } = await reader.getInvoices({ invoice_id: invoiceId });
  const found = invoice.find((i) => i.id === invoiceId);
  return found ? store.applyQuery(observationOf(found), now()) : undefined;
}

export interface ReconcileReport {
  /** Invoices the answers held. */
  readonly seen: number;
  /** Transitions the journal lacked, now recorded. */
  readonly transitions: Transition[];
}

/**
 * Every invoice the journal knows as pending, and every invoice created since the latest one it
 * knows (an invoice whose every callback was missed): a range query from the earliest of those
 * creation times (without one, the venue's default of the last 90 days), page by page, then one
 * query per pending invoice the range did not cover (seen only through callbacks, so its creation
 * time is unknown).
 */
export async function reconcileInvoices(reader: InvoiceReader, store: CallbackStore, now: () => number): Promise<ReconcileReport> {
  const transitions: Transition[] = [];
  const seen = new Set<string>();
  const open = store.invoices('open');
  const starts = [store.latestCreatedAt(), ...open.map((i) => i.createdAt ?? undefined)].filter((t): t is number => t !== undefined);
  let start: number | undefined = starts.length > 0 ? Math.min(...starts) : undefined;
  for (;;) {
    const { invoice } = await reader.getInvoices(start === undefined ? { limit: PAGE } : { start_time: start, limit: PAGE });
    for (const inv of invoice) {
      seen.add(inv.id);
      const t = store.applyQuery(observationOf(inv), now());
      if (t) transitions.push(t);
    }
    if (invoice.length < PAGE) break;
    // Oldest first (spec leaves the order unshown; the sandbox's): go on after the last creation
    // time; when a whole page shares it, step past it rather than ask the same page forever.
    const last = Math.max(...invoice.map((i) => i.created_at));
    start = start !== undefined && last <= start ? start + 1 : last;
  }
  for (const inv of open) {
    if (seen.has(inv.invoiceId)) continue;
    seen.add(inv.invoiceId);
    const t = await refreshInvoice(reader, store, inv.invoiceId, now);
    if (t) transitions.push(t);
  }
  return { seen: seen.size, transitions };
}
