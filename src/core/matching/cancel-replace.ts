/**
 * cancelReplace (protocol notes 6): cancel one order, then place a new one, as two engine
 * operations. STOP_ON_FAILURE places nothing when the cancel fails; ALLOW_FAILURE places anyway.
 * With both cancelOrderId and cancelOrigClientOrderId the order is found by id and must carry
 * that client id. cancelRestrictions ONLY_NEW / ONLY_PARTIALLY_FILLED cancel only in that status.
 * Failures: -1132 (nothing done, or both legs failed), -1133 (one leg failed), with `data`.
 * The failing leg's response is {code, msg} with the specific reason (Unknown order sent., a
 * filter failure...) where the notes' samples show generic texts.
 */
import { ENGINE_MESSAGE } from '../market/index.ts';
import type { EngineCore } from './engine-core.ts';
import type { EngineEvent, Fill, NewOrderRequest, OrderSnapshot } from './types.ts';

export interface CancelReplaceRequest extends NewOrderRequest {
  readonly cancelReplaceMode: 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';
  readonly cancelOrderId?: string | undefined;
  readonly cancelOrigClientOrderId?: string | undefined;
  /** Default ALL. */
  readonly cancelRestrictions?: 'ALL' | 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED' | undefined;
}

export type LegResult = 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
export interface LegError {
  readonly code: number;
  readonly msg: string;
}
export interface NewOrderLeg {
  readonly order: OrderSnapshot;
  readonly fills: Fill[];
}

export interface CancelReplaceData {
  readonly cancelResult: LegResult;
  readonly newOrderResult: LegResult;
  readonly cancelResponse: OrderSnapshot | LegError;
  readonly newOrderResponse: NewOrderLeg | LegError | null;
}

export type CancelReplaceResult =
  | ({ readonly ok: true; readonly events: EngineEvent[] } & CancelReplaceData & { readonly cancelResponse: OrderSnapshot; readonly newOrderResponse: NewOrderLeg })
  | { readonly ok: false; readonly code: number; readonly msg: string; readonly data?: CancelReplaceData; readonly events: EngineEvent[] };

export const CANCEL_REPLACE_FAILED = { code: -1132, msg: 'Order cancel-replace failed.' } as const;
export const CANCEL_REPLACE_PARTIAL = { code: -1133, msg: 'Order cancel-replace partially failed.' } as const;
export const CANCEL_RESTRICTED = 'Order was not canceled due to cancel restrictions.';

const given = (v: string | undefined): v is string => v !== undefined && v !== '';

function cancelLeg(core: EngineCore, accountId: string, req: CancelReplaceRequest, now: number): { ok: true; order: OrderSnapshot; events: EngineEvent[] } | LegError {
  const sb = core.books.get(req.symbol);
  const unknown = { code: -2011, msg: ENGINE_MESSAGE.unknownOrder };
  if (sb === undefined) return unknown;
  const ref = given(req.cancelOrderId) ? { orderId: req.cancelOrderId } : { clientOrderId: req.cancelOrigClientOrderId };
  const o = core.find(accountId, sb, ref)[0];
  if (o === undefined || !o.isOpen) return unknown;
  if (given(req.cancelOrderId) && given(req.cancelOrigClientOrderId) && o.clientOrderId !== req.cancelOrigClientOrderId) return unknown;
  const restriction = req.cancelRestrictions ?? 'ALL';
  if ((restriction === 'ONLY_NEW' && o.status !== 'NEW') || (restriction === 'ONLY_PARTIALLY_FILLED' && o.status !== 'PARTIALLY_FILLED')) {
    return { code: -2011, msg: CANCEL_RESTRICTED };
  }
  const r = core.cancelOrder(accountId, req.symbol, { orderId: o.id }, now);
  return r.ok ? r : { code: r.code, msg: r.msg };
}

export function cancelReplace(core: EngineCore, accountId: string, req: CancelReplaceRequest, now: number): CancelReplaceResult {
  if (!given(req.cancelOrderId) && !given(req.cancelOrigClientOrderId)) {
    return { ok: false, code: -1108, msg: 'cancelOrigClientOrderId or cancelOrderId must be provided', events: [] };
  }
  if (req.cancelReplaceMode !== 'STOP_ON_FAILURE' && req.cancelReplaceMode !== 'ALLOW_FAILURE') {
    return { ok: false, code: -1025, msg: "parameter 'cancelReplaceMode' is not valid", events: [] };
  }
  const canceled = cancelLeg(core, accountId, req, now);
  const cancelOk = 'ok' in canceled;
  const events: EngineEvent[] = cancelOk ? [...canceled.events] : [];
  const cancelResponse = cancelOk ? canceled.order : canceled;
  if (!cancelOk && req.cancelReplaceMode === 'STOP_ON_FAILURE') {
    return { ...CANCEL_REPLACE_FAILED, ok: false, events, data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse, newOrderResponse: null } };
  }
  const { cancelReplaceMode: _m, cancelOrderId: _i, cancelOrigClientOrderId: _c, cancelRestrictions: _r, ...newOrder } = req;
  const placed = core.placeOrder(accountId, newOrder, now);
  if (placed.ok) events.push(...placed.events);
  const newOrderResponse = placed.ok ? { order: placed.order, fills: placed.fills } : { code: placed.code, msg: placed.msg };
  const cancelResult: LegResult = cancelOk ? 'SUCCESS' : 'FAILURE';
  const newOrderResult: LegResult = placed.ok ? 'SUCCESS' : 'FAILURE';
  if (cancelOk && placed.ok) return { ok: true, cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', cancelResponse: canceled.order, newOrderResponse: { order: placed.order, fills: placed.fills }, events };
  const failure = !cancelOk && !placed.ok ? CANCEL_REPLACE_FAILED : CANCEL_REPLACE_PARTIAL;
  return { ...failure, ok: false, events, data: { cancelResult, newOrderResult, cancelResponse, newOrderResponse } };
}
