/**
 * Spec 4.5 POST order and order/test, notes 6 POST order/cancelReplace.
 *
 * - newOrder answers ACK, RESULT or FULL (order-request.ts picks the default per type).
 * - testOrder runs every check a new order gets, balances included, and answers `{}`.
 * - cancelReplace answers `{cancelResult, newOrderResult, cancelResponse, newOrderResponse}`; on
 *   failure the same object is the `data` of -1132 (nothing done, or both legs failed) or -1133
 *   (one leg failed), HTTP 400 (the venue's status is unknown, notes 10). A failed leg is
 *   `{code, msg}` with the engine's specific reason; a leg not attempted is null.
 * - A frozen account places nothing: -2010 "This action disabled is on this account." (spec 7.4).
 */
import { ENGINE_MESSAGE } from '../../../core/market/index.ts';
import type { CancelReplaceData, CancelReplaceRequest, NewOrderRequest, NewOrderRespType } from '../../../core/matching/index.ts';
import { defineHandlers, type HandlerContext } from '../../http/route-types.ts';
import { accountIdOf, engineOf, rejected, str } from './context.ts';
import { dryRunOrder } from './dry-run.ts';
import { orderRequestOf } from './order-request.ts';
import { canceledBody, newOrderBody } from './wire.ts';

/** The account placing an order, refused while it is frozen or SPOT is switched off (check-sys-status). */
function tradingAccount(ctx: HandlerContext): string {
  if (ctx.account?.frozen === true) throw rejected({ code: -2010, msg: ENGINE_MESSAGE.actionDisabled });
  // Cancels stay allowed in maintenance; new orders are refused as on a closed market.
  if (ctx.sandbox.config.systemStatus.SPOT === 'off') throw rejected({ code: -2010, msg: ENGINE_MESSAGE.marketClosed });
  return accountIdOf(ctx);
}

function respType(req: NewOrderRequest): NewOrderRespType {
  return req.newOrderRespType ?? 'FULL';
}

/** The cancelReplace body: legs as wire shapes, errors and null as they are. */
function cancelReplaceBody(d: CancelReplaceData, respType: NewOrderRespType, now: number) {
  const c = d.cancelResponse;
  const n = d.newOrderResponse;
  return {
    cancelResult: d.cancelResult,
    newOrderResult: d.newOrderResult,
    cancelResponse: 'orderId' in c ? canceledBody(c, now) : { code: c.code, msg: c.msg },
    newOrderResponse: n === null ? null : 'order' in n ? newOrderBody(n.order, n.fills, respType, now) : { code: n.code, msg: n.msg },
  };
}

export const orderHandlers = defineHandlers({
  'spot.newOrder': (ctx) => {
    const accountId = tradingAccount(ctx);
    const req = orderRequestOf(ctx);
    const r = engineOf(ctx).placeOrder(accountId, req, ctx.now);
    if (!r.ok) throw rejected(r);
    return newOrderBody(r.order, r.fills, respType(req), ctx.now);
  },

  'spot.testOrder': (ctx) => {
    const failed = dryRunOrder(engineOf(ctx), tradingAccount(ctx), orderRequestOf(ctx), ctx.now);
    if (failed) throw rejected(failed);
    return {};
  },

  'spot.cancelReplace': (ctx) => {
    const accountId = tradingAccount(ctx);
    const base = orderRequestOf(ctx);
    const req: CancelReplaceRequest = {
      ...base,
      cancelReplaceMode: ctx.params['cancelReplaceMode'] as CancelReplaceRequest['cancelReplaceMode'],
      cancelOrderId: str(ctx.params['cancelOrderId']),
      cancelOrigClientOrderId: str(ctx.params['cancelOrigClientOrderId']),
      cancelRestrictions: str(ctx.params['cancelRestrictions']) as CancelReplaceRequest['cancelRestrictions'],
    };
    const r = engineOf(ctx).cancelReplace(accountId, req, ctx.now);
    if (r.ok) return cancelReplaceBody(r, respType(base), ctx.now);
    throw rejected(r, r.data === undefined ? undefined : cancelReplaceBody(r.data, respType(base), ctx.now));
  },
});
