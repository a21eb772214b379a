/**
 * `halyard payment-request create|list|cancel|remind` (spec 4.3, SIGNED USER_DATA with the API
 * key; shapes of spec 2.13). Each option is read before anything is sent (input.ts). A create
 * carries no client id the venue would look up (spec 4.3 shows none), so a create whose outcome is
 * unknown is reported as such and not sent again: `payment-request list` shows whether it exists.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { PaymentRequest } from '../../exchange/endpoints/areas/payment-request.ts';
import { UsageError } from '../../cli/errors.ts';
import { collectors, expiry, limitOption, positiveAmount, recordId, requiredText, timeOption, timeRange } from '../input.ts';

export type PaymentRequestApi = ExchangeClient['paymentRequest'];

export interface RequestCreateArgs {
  payer?: unknown;
  account?: unknown;
  amount?: unknown;
  message?: unknown;
  collectors?: unknown;
  expires?: unknown;
}

export interface RequestCreate {
  payer_contact_info: string;
  receiving_account: string;
  amount: string;
  message: string;
  supported_payment_collectors?: string[];
  expires_at?: string;
}

export function requestCreate(args: RequestCreateArgs): RequestCreate {
  const payer = requiredText('--payer', args.payer, "the payer's contact (an email or a phone number) the request is sent to").trim();
  if (!/^\S+@\S+\.\S+$/.test(payer) && !/^\+?\d{7,15}$/.test(payer)) throw new UsageError(`--payer: '${payer}' is neither an email address nor a phone number`);
  const account = requiredText('--account', args.account, 'the receiving account: a token such as PHP, or a balance id from crypto-accounts').trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(account)) throw new UsageError(`--account: '${account}' is not a token or a balance id`);
  const amount = positiveAmount('--amount', args.amount);
  const message = requiredText('--message', args.message, 'the message the payer reads (spec 4.3 requires one)');
  const codes = collectors('--collectors', args.collectors, undefined);
  const expiresAt = expiry('--expires', args.expires);
  return {
    payer_contact_info: payer,
    receiving_account: /^[a-z]+$/.test(account) ? account.toUpperCase() : account,
    amount,
    message,
    ...(codes !== undefined ? { supported_payment_collectors: codes } : {}),
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
  };
}

export interface RequestListArgs {
  id?: unknown;
  from?: unknown;
  to?: unknown;
  limit?: unknown;
}

export type RequestListQuery = { id: string } | { start_time?: number; end_time?: number; limit?: number };

export function requestListQuery(args: RequestListArgs): RequestListQuery {
  if (args.id !== undefined) {
    const other = (['from', 'to', 'limit'] as const).filter((k) => args[k] !== undefined);
    if (other.length > 0) throw new UsageError(`--id names one payment request; ${other.map((k) => `--${k}`).join(', ')} would be ignored by the venue: give one or the other`);
    return { id: recordId('--id', args.id) };
  }
  const from = timeOption('--from', args.from);
  const to = timeOption('--to', args.to);
  timeRange(from, to);
  const limit = limitOption('--limit', args.limit);
  return { ...(from !== undefined ? { start_time: from } : {}), ...(to !== undefined ? { end_time: to } : {}), ...(limit !== undefined ? { limit } : {}) };
}

export async function createRequest(api: PaymentRequestApi, req: RequestCreate): Promise<PaymentRequest> {
  return (await api.createPaymentRequest(req))['payment-request'];
}

/** One or many: the venue wraps either under `payment-request` (spec 2.13); always a list here. */
export async function listRequests(api: PaymentRequestApi, q: RequestListQuery): Promise<PaymentRequest[]> {
  const r = (await api.getPaymentRequests(q))['payment-request'];
  return Array.isArray(r) ? r : [r];
}

export async function cancelRequest(api: PaymentRequestApi, id: string): Promise<PaymentRequest> {
  return (await api.deletePaymentRequest({ id }))['payment-request'];
}

export async function remindRequest(api: PaymentRequestApi, id: string): Promise<boolean> {
  return api.paymentRequestReminder({ id });
}
