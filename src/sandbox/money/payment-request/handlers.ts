/**
 * Spec 4.3 payment-request endpoints on the sandbox (form bodies, signed; bare JSON answers):
 *
 *   payment-requests          create: receiving_account is an asset code or one of the caller's
 *                             crypto-account ids (account/crypto-accounts.ts), amount > 0, collectors JSON array text,
 *                             expires_at ISO 8601 or a delta (default 7d) -> {'payment-request': {...}}
 *   get-payment-request       by id -> {'payment-request': {...}}; otherwise the caller's requests
 *                             created within start_time..end_time, oldest first, at most `limit`
 *                             -> {'payment-request': [...]}
 *   delete-payment-request    pending -> canceled, the updated request
 *   payment-request-reminder  pending -> `true` (nothing is sent from a sandbox)
 *
 * An unknown id is -1025 naming `id`; deleting or reminding a request that is no longer pending is
 * -1010 saying its status.
 */
import { venueErrors } from '../../http/error-codes.ts';
import { assetOfAccountParam } from '../account/crypto-accounts.ts';
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { requestView, type PaymentRequestBook, type PaymentRequestRecord } from './request-book.ts';
import { collectorsText, expiryOf, positiveAmount, publicBase } from './shared-params.ts';

function owner(ctx: HandlerContext): string {
  if (!ctx.account) throw venueErrors.unknown();
  return ctx.account.id;
}

function pendingOne(ctx: HandlerContext, book: PaymentRequestBook): PaymentRequestRecord {
  const r = book.get(String(ctx.params['id']), owner(ctx), ctx.now);
  if (!r) throw venueErrors.invalidParam('id', 'no such payment request');
  if (r.status !== 'pending') throw venueErrors.badRequest(`the payment request is ${r.status}`);
  return r;
}

function receivingAsset(ctx: HandlerContext, accountId: string): string {
  const asset = assetOfAccountParam(ctx.sandbox, accountId, String(ctx.params['receiving_account']));
  if (asset === undefined) throw venueErrors.invalidParam('receiving_account', 'not an asset code or a crypto-account id of the caller');
  return asset;
}

export function paymentRequestHandlers(book: PaymentRequestBook) {
  return defineHandlers({
    'paymentRequest.createPaymentRequest': (ctx) => {
      const accountId = owner(ctx);
      const currency = receivingAsset(ctx, accountId);
      const amount = positiveAmount(ctx, 'amount');
      const collectors = collectorsText(ctx, 'supported_payment_collectors');
      const expiresAt = expiryOf(ctx, 'expires_at');
      const id = book.newId();
      const record = book.add({
        id,
        accountId,
        payerContactInfo: String(ctx.params['payer_contact_info']),
        currency,
        amount: amount.toFixed(),
        message: String(ctx.params['message']),
        collectors,
        paymentUrl: `${publicBase(ctx)}/payment/invoice/${id}`,
        status: 'pending',
        createdAt: ctx.now,
        updatedAt: ctx.now,
        expiresAt,
      });
      return { 'payment-request': requestView(record) };
    },

    'paymentRequest.getPaymentRequests': (ctx) => {
      const accountId = owner(ctx);
      const id = ctx.params['id'];
      if (typeof id === 'string' && id !== '') {
        const r = book.get(id, accountId, ctx.now);
        if (!r) throw venueErrors.invalidParam('id', 'no such payment request');
        return { 'payment-request': requestView(r) };
      }
      const { start_time: from, end_time: to } = ctx.params as { start_time?: number; end_time?: number };
      const limit = typeof ctx.params['limit'] === 'number' ? ctx.params['limit'] : 500;
      const rows = book
        .list(accountId, ctx.now)
        .filter((r) => (from === undefined || r.createdAt >= from) && (to === undefined || r.createdAt <= to))
        .slice(0, limit);
      return { 'payment-request': rows.map(requestView) };
    },

    'paymentRequest.deletePaymentRequest': (ctx) => {
      const r = pendingOne(ctx, book);
      book.cancel(r, ctx.now);
      return { 'payment-request': requestView(r) };
    },

    'paymentRequest.paymentRequestReminder': (ctx) => {
      pendingOne(ctx, book);
      return true;
    },
  });
}
