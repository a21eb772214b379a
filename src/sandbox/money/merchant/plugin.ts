/**
 * The sandbox's merchant invoicing area (issue "Sandbox exchange", deliverable 8; spec 2.13, 4.10,
 * 5.4, 6.1): `startSandbox({ plugins: [merchantPlugin()] })`; invoices are `services.invoices`,
 * callbacks go to `config.merchant.callbackUrl` (callbacks.ts). Admin routes (relative to the
 * admin prefix):
 *
 *   POST /invoices/:id/pay     {amount?}  a payment of `amount` (default: all that is due; more is
 *        refused) -> the invoice (wire shape). The merchant's account is credited; callbacks
 *        invoice.payment_reference_number_generated (first payment), invoice.updated and, once
 *        paid in full, invoice.fully_paid. 404 unknown, 409 not pending, 400 bad amount.
 *   GET  /invoices/callbacks   every callback event with its delivery state (pending, delivered,
 *        failed, skipped), attempts and last HTTP status or error.
 */
import { z } from 'zod';
import { D, toWire } from '../../../core/money/decimal.ts';
import { zPositiveAdminAmount } from '../../admin/admin-amount.ts';
import { AdminError, defineAdminRoute } from '../../admin/admin-registry.ts';
import type { SandboxPlugin } from '../../http/plugin.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { CALLBACKS_STATE, CallbackDispatcher } from './callbacks.ts';
import { merchantHandlers } from './handlers.ts';
import { INVOICES_STATE, InvoiceBook, invoiceView } from './invoice-book.ts';

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    invoices?: InvoiceBook;
  }
}

export interface MerchantPluginOptions {
  /** Callback retry delays in wall ms (default callbacks.ts DEFAULT_RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
  /** Per-attempt timeout in wall ms. */
  timeoutMs?: number;
}

const payBody = z.strictObject({ amount: zPositiveAdminAmount.optional() });

export function merchantPlugin(options: MerchantPluginOptions = {}): SandboxPlugin {
  let dispatcher: CallbackDispatcher | undefined;
  return {
    name: 'merchant',
    setup({ state, registerHandlers }) {
      dispatcher = new CallbackDispatcher({ url: () => state.config.merchant.callbackUrl, retryDelaysMs: options.retryDelaysMs, timeoutMs: options.timeoutMs, log: state.log });
      const book = new InvoiceBook(state, dispatcher);
      state.services.invoices = book;
      const parts = persistentPartsOf(state.services);
      parts.register('merchant.invoices', INVOICES_STATE, book);
      parts.register('merchant.callbacks', CALLBACKS_STATE, dispatcher);
      registerHandlers(merchantHandlers(book));
    },
    adminRoutes: [
      defineAdminRoute({
        method: 'POST',
        path: '/invoices/:id/pay',
        summary: 'Simulate a (partial or full) payment of a pending invoice',
        body: payBody,
        handler: ({ body, params, sandbox }) => {
          const book = sandbox.services.invoices;
          if (!book) throw new AdminError(503, 'the merchant area is not attached');
          const now = sandbox.clock.now();
          const inv = book.get(params['id'] ?? '', undefined, now);
          if (!inv) throw new AdminError(404, `no invoice ${params['id']}`);
          if (inv.status !== 'pending') throw new AdminError(409, `the invoice is ${inv.status}`);
          const due = new D(inv.amount).minus(inv.received);
          const amount = body.amount === undefined ? due : new D(body.amount);
          if (amount.gt(due)) throw new AdminError(400, `the invoice has ${toWire(due)} ${inv.currency} due`);
          book.pay(inv, toWire(amount), now);
          return invoiceView(inv, now);
        },
      }),
      defineAdminRoute({
        method: 'GET',
        path: '/invoices/callbacks',
        summary: 'Invoice callback events and their delivery state',
        handler: ({ sandbox }) => sandbox.services.invoices?.callbacks.records() ?? [],
      }),
    ],
    async close() {
      dispatcher?.close();
      await dispatcher?.idle();
    },
  };
}
