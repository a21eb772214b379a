/**
 * The sandbox's payment-request area (issue "Sandbox exchange", deliverable 8; spec 2.13, 3.2,
 * 4.3): `startSandbox({ plugins: [paymentRequestPlugin()] })`; the book is
 * `services.paymentRequests`. Admin route (relative to the admin prefix):
 *
 *   POST /payment-requests/:id/pay   {}  the payer paid: pending -> fully_paid, the requester's
 *        receiving asset is credited (balanceUpdate P2P_TRANSFER) -> the request (wire shape).
 *        404 unknown, 409 not pending (expired ones included).
 *
 * Expiry needs no route: a pending request reads as expired once `expires_at` of sandbox time
 * has passed (admin `POST /clock` to jump).
 */
import { z } from 'zod';
import { AdminError, defineAdminRoute } from '../../admin/admin-registry.ts';
import type { SandboxPlugin } from '../../http/plugin.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { paymentRequestHandlers } from './handlers.ts';
import { PAYMENT_REQUESTS_STATE, PaymentRequestBook, requestView } from './request-book.ts';

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    paymentRequests?: PaymentRequestBook;
  }
}

export function paymentRequestPlugin(): SandboxPlugin {
  return {
    name: 'payment-request',
    setup({ state, registerHandlers }) {
      const book = new PaymentRequestBook(state);
      state.services.paymentRequests = book;
      persistentPartsOf(state.services).register('payment-requests', PAYMENT_REQUESTS_STATE, book);
      registerHandlers(paymentRequestHandlers(book));
    },
    adminRoutes: [
      defineAdminRoute({
        method: 'POST',
        path: '/payment-requests/:id/pay',
        summary: 'Mark a pending payment request paid (credits the receiving account)',
        body: z.strictObject({}),
        handler: ({ params, sandbox }) => {
          const book = sandbox.services.paymentRequests;
          if (!book) throw new AdminError(503, 'the payment-request area is not attached');
          const now = sandbox.clock.now();
          const r = book.get(params['id'] ?? '', undefined, now);
          if (!r) throw new AdminError(404, `no payment request ${params['id']}`);
          if (r.status !== 'pending') throw new AdminError(409, `the payment request is ${r.status}`);
          book.pay(r, now);
          return requestView(r);
        },
      }),
    ],
  };
}
