/**
 * What the receiver knows of an invoice, and how an observation (a callback event, or the answer
 * of get-invoices) moves it (spec 2.13, 3.2, 6.1). Pure.
 *
 * Spec 6.1 leaves ordering and retries of callbacks unshown, so observations may come late, twice
 * or out of order. The knowledge only moves forward: the status leaves `pending` once, for one of
 * the final states of spec 3.2 (fully_paid, expired, canceled), and never moves again; the
 * amount received never decreases. A stale observation therefore changes nothing.
 */
import { D, toWire } from '../../core/money/decimal.ts';

export const INVOICE_STATES = ['pending', 'fully_paid', 'expired', 'canceled'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

export interface KnownInvoice {
  readonly invoiceId: string;
  readonly currency: string;
  /** Decimal text. */
  readonly amount: string;
  /** Decimal text. */
  readonly amountReceived: string;
  readonly status: InvoiceState;
  readonly externalTransactionId: string;
  readonly createdAt: number | null;
}

export interface Observation {
  readonly invoiceId: string;
  readonly currency: string;
  readonly amount: string;
  readonly amountReceived: string;
  /** Undefined when the observation does not say (invoice.updated carries no status). */
  readonly status: InvoiceState | undefined;
  readonly externalTransactionId: string;
  readonly createdAt?: number | undefined;
}

export function isFinal(status: InvoiceState): boolean {
  return status !== 'pending';
}

/**
 * The knowledge after `obs`, or undefined when it changes nothing that matters (status, amount
 * received). A first observation without a status reads as pending: an invoice taking payments is
 * pending unless a final state is shown, and the receiver then asks (receiver.ts).
 */
export function advance(prev: KnownInvoice | undefined, obs: Observation): KnownInvoice | undefined {
  if (prev === undefined) {
    return {
      invoiceId: obs.invoiceId,
      currency: obs.currency,
      amount: toWire(obs.amount),
      amountReceived: toWire(obs.amountReceived),
      status: obs.status ?? 'pending',
      externalTransactionId: obs.externalTransactionId,
      createdAt: obs.createdAt ?? null,
    };
  }
  const received = D.max(prev.amountReceived, obs.amountReceived);
  const status = isFinal(prev.status) || obs.status === undefined ? prev.status : obs.status;
  const createdAt = prev.createdAt ?? obs.createdAt ?? null;
  const changed = status !== prev.status || !received.eq(prev.amountReceived);
  if (!changed) return createdAt !== prev.createdAt ? { ...prev, createdAt } : undefined;
  return { ...prev, status, amountReceived: toWire(received), createdAt };
}

/** Whether `next` differs from `prev` in status or amount received (a transition to record). */
export function isTransition(prev: KnownInvoice | undefined, next: KnownInvoice): boolean {
  return prev === undefined || prev.status !== next.status || !new D(prev.amountReceived).eq(next.amountReceived);
}
