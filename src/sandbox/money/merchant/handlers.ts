/**
 * Spec 4.10 merchant invoicing on the sandbox (merchant signature checked by the auth layer,
 * `auth/merchant-auth.ts`: the X-Merchant-Key names a merchant key, whose account owns the
 * invoices; bare JSON answers):
 *
 *   invoices         create: amount > 0, currency a configured asset, collectors JSON array text,
 *                    external_transaction_id unique per merchant account, expires_at ISO 8601 or a
 *                    delta (default 7d) -> {invoice: {...}} pending; invoice.created follows
 *   get-invoices     invoice_id -> that invoice only ({invoice: []} when unknown); otherwise invoices
 *                    created in start_time..end_time (default the last 90 days), oldest first,
 *                    at most `limit` -> {invoice: [...]}
 *   invoices-cancel  pending -> canceled -> {invoice: {...}}; invoice.updated follows
 *
 * Refusals: -1025 naming the parameter (unknown currency or invoice, reused
 * external_transaction_id); -1010 when canceling an invoice that is no longer pending, or when the
 * merchant's account is frozen.
 */
import { venueErrors } from '../../http/error-codes.ts';
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { VenueError } from '../../http/venue-error.ts';
import { collectorsText, expiryOf, positiveAmount, publicBase } from '../payment-request/shared-params.ts';
import { incomingAddress } from './incoming-address.ts';
import { invoiceView, type InvoiceBook } from './invoice-book.ts';

const NINETY_DAYS_MS = 90 * 86_400_000;

function merchant(ctx: HandlerContext): { accountId: string; merchantKey: string } {
  if (!ctx.account || !ctx.apiKey) throw venueErrors.merchantAuth('no merchant key');
  // Spec 7.4's text for an account with actions disabled.
  if (ctx.account.frozen) throw new VenueError(-1010, 'This action disabled is on this account.');
  return { accountId: ctx.account.id, merchantKey: ctx.apiKey.apiKey };
}

export function merchantHandlers(book: InvoiceBook) {
  return defineHandlers({
    'merchant.createInvoice': (ctx) => {
      const { accountId, merchantKey } = merchant(ctx);
      const amount = positiveAmount(ctx, 'amount');
      const currencyText = String(ctx.params['currency']).toUpperCase();
      const asset = ctx.sandbox.config.assets.find((a) => a.coin === currencyText);
      if (!asset) throw venueErrors.invalidParam('currency', `unknown currency ${currencyText}`);
      const collectors = collectorsText(ctx, 'supported_payment_collectors');
      const externalId = String(ctx.params['external_transaction_id']);
      const taken = book.byExternalId(accountId, externalId);
      if (taken) throw venueErrors.invalidParam('external_transaction_id', `already used by invoice ${taken.id}`);
      const expiresAt = expiryOf(ctx, 'expires_at');
      const id = book.newId();
      const invoice = book.add({
        id,
        accountId,
        merchantKey,
        amount: amount.toFixed(),
        received: '0',
        currency: asset.coin,
        status: 'pending',
        externalTransactionId: externalId,
        collectors,
        paymentUrl: `${publicBase(ctx)}/invoice/${id}`,
        incomingAddress: incomingAddress(asset, id),
        createdAt: ctx.now,
        updatedAt: ctx.now,
        expiresAt,
        referenceNumber: undefined,
      });
      return { invoice: invoiceView(invoice, ctx.now) };
    },

    'merchant.getInvoices': (ctx) => {
      const { accountId } = merchant(ctx);
      const id = ctx.params['invoice_id'];
      if (typeof id === 'string' && id !== '') {
        const one = book.get(id, accountId, ctx.now);
        return { invoice: one ? [invoiceView(one, ctx.now)] : [] };
      }
      const p = ctx.params as { start_time?: number; end_time?: number; limit?: number };
      const from = p.start_time ?? (p.end_time === undefined ? ctx.now - NINETY_DAYS_MS : 0);
      const to = p.end_time ?? Number.MAX_SAFE_INTEGER;
      const rows = book
        .list(accountId, ctx.now)
        .filter((i) => i.createdAt >= from && i.createdAt <= to)
        .slice(0, p.limit ?? 500);
      return { invoice: rows.map((i) => invoiceView(i, ctx.now)) };
    },

    'merchant.cancelInvoice': (ctx) => {
      const { accountId } = merchant(ctx);
      const inv = book.get(String(ctx.params['invoice_id']), accountId, ctx.now);
      if (!inv) throw venueErrors.invalidParam('invoice_id', 'no such invoice');
      if (inv.status !== 'pending') throw venueErrors.badRequest(`the invoice is ${inv.status}`);
      book.cancel(inv, ctx.now);
      return { invoice: invoiceView(inv, ctx.now) };
    },
  });
}
