/**
 * The sandbox's fiat cash-out area (issue "Sandbox exchange", deliverable 8; spec 2.11, 4.8, 7.6):
 * `startSandbox({ plugins: [fiatPlugin()] })`; orders are `services.fiatDesk`. Admin route
 * (relative to the admin prefix):
 *
 *   POST /fiat/orders/:internalOrderId   {status: SUCCEEDED|FAILED|CANCEL, accountId?}
 *        ends a PENDING cash-out now; FAILED / CANCEL refund amount + fee. -> the order (details
 *        shape). 404 unknown, 409 not PENDING, 400 when several accounts use the id and no
 *        accountId picks one.
 *
 * Without the admin, orders settle to SUCCEEDED after their channel's delay of sandbox time
 * (INSTAPAY 1 minute; PESONET 2 hours, 24 hours from 50,000 PHP).
 */
import { z } from 'zod';
import { AdminError, defineAdminRoute } from '../../admin/admin-registry.ts';
import type { SandboxPlugin } from '../../http/plugin.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { FIAT_STATE, FiatDesk } from './fiat-desk.ts';
import { fiatHandlers } from './handlers.ts';
import { orderView } from './views.ts';

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    fiatDesk?: FiatDesk;
  }
}

export function fiatPlugin(): SandboxPlugin {
  return {
    name: 'fiat',
    setup({ state, registerHandlers }) {
      const desk = new FiatDesk(state);
      state.services.fiatDesk = desk;
      persistentPartsOf(state.services).register('fiat.orders', FIAT_STATE, desk);
      registerHandlers(fiatHandlers(desk));
    },
    adminRoutes: [
      defineAdminRoute({
        method: 'POST',
        path: '/fiat/orders/:internalOrderId',
        summary: 'End a PENDING fiat cash-out: SUCCEEDED, FAILED or CANCEL (the last two refund)',
        body: z.strictObject({ status: z.enum(['SUCCEEDED', 'FAILED', 'CANCEL']), accountId: z.string().optional() }),
        handler: ({ body, params, sandbox }) => {
          const d = sandbox.services.fiatDesk;
          if (!d) throw new AdminError(503, 'the fiat area is not attached');
          const now = sandbox.clock.now();
          d.settle(now);
          const found = d.findAny(params['internalOrderId'] ?? '').filter((o) => body.accountId === undefined || o.accountId === body.accountId);
          if (found.length === 0) throw new AdminError(404, `no fiat order ${params['internalOrderId']}`);
          if (found.length > 1) throw new AdminError(400, 'several accounts use this internalOrderId: pass accountId');
          const order = found[0]!;
          if (order.status !== 'PENDING') throw new AdminError(409, `the order is already ${order.status}`);
          d.finish(order, body.status, now);
          return orderView(order);
        },
      }),
    ],
  };
}
