/**
 * `halyard merchant history`: what the receiver journaled (schema 8), per invoice: its known state
 * and each transition with what showed it (a callback event by name, or a query of get-invoices:
 * a transition whose callback never came). Plain data; the text form is for a terminal.
 */
import type { CallbackStore, Transition } from './callback-store.ts';
import type { KnownInvoice } from './invoice-state.ts';

export interface InvoiceHistory extends KnownInvoice {
  readonly transitions: readonly (Transition & { event: string | null })[];
  /** Events journaled for it, and how many deliveries they took in all. */
  readonly events: number;
  readonly deliveries: number;
}

export function invoiceHistory(store: CallbackStore, invoiceId?: string): InvoiceHistory[] {
  const known = invoiceId === undefined ? store.invoices('all') : [store.invoice(invoiceId)].filter((i) => i !== undefined);
  return known.map((inv) => {
    const events = store.events(inv.invoiceId);
    const names = new Map(events.map((e) => [e.id, e.event]));
    return {
      ...inv,
      transitions: store.transitions(inv.invoiceId).map((t) => ({ ...t, event: t.eventId === null ? null : (names.get(t.eventId) ?? null) })),
      events: events.length,
      deliveries: events.reduce((n, e) => n + e.deliveries, 0),
    };
  });
}

export function formatHistory(list: readonly InvoiceHistory[]): string {
  if (list.length === 0) return 'no invoices journaled (merchant receive writes them)';
  const lines: string[] = [];
  for (const inv of list) {
    lines.push(`invoice ${inv.invoiceId}  ${inv.status}  ${inv.amountReceived}/${inv.amount} ${inv.currency}  external id ${inv.externalTransactionId}  (${inv.events} events, ${inv.deliveries} deliveries)`);
    for (const t of inv.transitions) {
      const from = t.fromStatus === null ? 'new' : `${t.fromStatus} ${t.fromReceived ?? ''}`.trim();
      const by = t.source === 'callback' ? `callback ${t.event ?? '?'}` : 'query (no callback came)';
      lines.push(`  ${new Date(t.at).toISOString()}  ${from} -> ${t.toStatus} ${t.toReceived}  by ${by}`);
    }
  }
  return lines.join('\n');
}
