/**
 * The body of an invoice callback (spec 6.1): `{event: {name, data: {id, currency, amount,
 * amount_received, external_transaction_id}}}`, all data values strings. Read strictly enough to
 * journal it (amounts are decimal text, the id is not empty); extra fields are kept in the
 * journaled body but not read. Event names beyond the four of spec 6.1 are accepted: they carry no
 * status, so they are applied as what they show (the amount received) and the invoice is asked.
 */
import { z } from 'zod';
import { toWire } from '../../core/money/decimal.ts';
import type { InvoiceState, Observation } from './invoice-state.ts';

export const INVOICE_EVENTS = ['invoice.created', 'invoice.updated', 'invoice.fully_paid', 'invoice.payment_reference_number_generated'] as const;

// Plain notation only (what the venue sends): no sign, no exponent, so the journal's text is exact as read.
const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number >= 0 as plain text');

const zCallbackBody = z.object({
  event: z.object({
    name: z.string().min(1),
    data: z.object({
      id: z.string().regex(/^\S+$/, 'must be a non-empty id without spaces'),
      currency: z.string().min(1),
      amount: decimalText,
      amount_received: decimalText,
      external_transaction_id: z.string(),
    }),
  }),
});

export type CallbackBody = z.infer<typeof zCallbackBody>;

export interface CallbackEvent {
  readonly name: string;
  readonly invoiceId: string;
  readonly amountReceived: string;
  /** What the event shows about the invoice. */
  readonly observation: Observation;
  /** Whether the body leaves the invoice's status unknown (the receiver then asks the venue). */
  readonly statusUnknown: boolean;
  readonly body: CallbackBody;
}

/** What each event says about the status (spec 3.2 rows: created -> pending, fully paid -> fully_paid). */
function statusShown(name: string): InvoiceState | undefined {
  if (name === 'invoice.created') return 'pending';
  if (name === 'invoice.fully_paid') return 'fully_paid';
  return undefined;
}

/** The event, or the reason the body is refused (`field: reason`). */
export function readCallback(raw: unknown): { ok: true; event: CallbackEvent } | { ok: false; reason: string } {
  const parsed = zCallbackBody.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'malformed'}` };
  }
  const { name, data } = parsed.data.event;
  const status = statusShown(name);
  // Part of the event's key: `40.00` and `40` are one amount, so one event.
  const received = toWire(data.amount_received);
  return {
    ok: true,
    event: {
      name,
      invoiceId: data.id,
      amountReceived: received,
      statusUnknown: status === undefined && name !== 'invoice.payment_reference_number_generated',
      body: parsed.data,
      observation: { invoiceId: data.id, currency: data.currency, amount: data.amount, amountReceived: received, status, externalTransactionId: data.external_transaction_id },
    },
  };
}
