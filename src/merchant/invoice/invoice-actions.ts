/**
 * `halyard merchant invoice create|list|cancel` (spec 4.10, merchant signature of spec 5.4 done by
 * the typed client): the options read (input.ts), then one call each. A create whose outcome is
 * unknown (a timeout, a 5xx: spec 7.1) is never sent again: it is looked up by its external
 * transaction id among the invoices of the last day, and found or not found is reported.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Invoice } from '../../exchange/endpoints/areas/merchant.ts';
import { UnknownOutcomeError, VenueRejectedError } from '../../exchange/errors/errors.ts';
import { UsageError } from '../../cli/errors.ts';
import { collectors, currencyCode, expiry, limitOption, positiveAmount, recordId, timeOption, timeRange } from '../input.ts';
import { defaultExternalId } from './external-id.ts';

export type MerchantApi = ExchangeClient['merchant'];

export interface InvoiceCreateArgs {
  amount?: unknown;
  currency?: unknown;
  collectors?: unknown;
  externalId?: unknown;
  expires?: unknown;
}

export interface InvoiceCreateRequest {
  amount: string;
  currency: string;
  supported_payment_collectors: string[];
  external_transaction_id: string;
  expires_at?: string;
}

/** The request, or a UsageError naming the first bad option. */
export function invoiceCreateRequest(args: InvoiceCreateArgs, nowMs: number): InvoiceCreateRequest {
  const amount = positiveAmount('--amount', args.amount);
  const currency = currencyCode('--currency', args.currency);
  const codes = collectors('--collectors', args.collectors) as string[];
  const expiresAt = expiry('--expires', args.expires);
  const given = args.externalId === undefined ? undefined : String(args.externalId);
  if (given !== undefined && (given.trim() === '' || given.length > 100)) throw new UsageError(`--external-id: '${given}' must be 1 to 100 characters`);
  const external = given ?? defaultExternalId({ amount, currency, collectors: codes, expiresAt }, nowMs);
  return { amount, currency, supported_payment_collectors: codes, external_transaction_id: external, ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}) };
}

export type CreateOutcome = { outcome: 'created'; invoice: Invoice } | { outcome: 'unknown-found'; invoice: Invoice } | { outcome: 'unknown-not-found'; externalTransactionId: string; error: string };

export async function createInvoice(api: MerchantApi, req: InvoiceCreateRequest, nowMs: () => number): Promise<CreateOutcome> {
  try {
    return { outcome: 'created', invoice: (await api.createInvoice(req)).invoice };
  } catch (e) {
    if (e instanceof VenueRejectedError && e.venueCode === -1025 && /external_transaction_id/.test(`${e.venueMessage ?? ''} ${e.message}`)) {
      throw new UsageError(`--external-id: the venue refused ${req.external_transaction_id} (${e.message}); an invoice with it exists already (find it with \`merchant invoice list\`), or pass another --external-id for a second invoice of the same amount today`);
    }
    if (!(e instanceof UnknownOutcomeError)) throw e;
    // Never resent (spec 7.1): looked up by the id it carried.
    const since = nowMs() - 86_400_000;
    const { invoice } = await api.getInvoices({ start_time: since, limit: 1000 });
    const found = invoice.find((i) => i.external_transaction_id === req.external_transaction_id);
    return found ? { outcome: 'unknown-found', invoice: found } : { outcome: 'unknown-not-found', externalTransactionId: req.external_transaction_id, error: e.message };
  }
}

export interface InvoiceListArgs {
  id?: unknown;
  from?: unknown;
  to?: unknown;
  limit?: unknown;
}

export type InvoiceListQuery = { invoice_id: string } | { start_time?: number; end_time?: number; limit?: number };

export function invoiceListQuery(args: InvoiceListArgs): InvoiceListQuery {
  if (args.id !== undefined) {
    const other = (['from', 'to', 'limit'] as const).filter((k) => args[k] !== undefined);
    if (other.length > 0) throw new UsageError(`--id names one invoice; ${other.map((k) => `--${k}`).join(', ')} would be ignored by the venue: give one or the other`);
    return { invoice_id: recordId('--id', args.id) };
  }
  const from = timeOption('--from', args.from);
  const to = timeOption('--to', args.to);
  timeRange(from, to);
  const limit = limitOption('--limit', args.limit);
  return { ...(from !== undefined ? { start_time: from } : {}), ...(to !== undefined ? { end_time: to } : {}), ...(limit !== undefined ? { limit } : {}) };
}

export async function listInvoices(api: MerchantApi, q: InvoiceListQuery): Promise<Invoice[]> {
  return (await api.getInvoices(q)).invoice;
}

export async function cancelInvoice(api: MerchantApi, id: string): Promise<Invoice> {
  return (await api.cancelInvoice({ invoice_id: id })).invoice;
}
