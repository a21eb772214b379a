/**
 * Checked new-order parameters (spec 4.5) -> the engine's request, and the answer shape: the
 * requested newOrderRespType, else FULL for MARKET and LIMIT and ACK for every other type.
 * The parameter layer has already enforced the enums and the mandatory-by-type table.
 *
 * icebergQty is no spec 4.5 parameter and no symbol enables icebergs (exchangeInfo has no such
 * flag), so an order that asks for one gets spec 7.4's "Iceberg orders are not supported for this
 * symbol." rather than resting fully visible as if the parameter had not been sent. Zero asks
 * for no iceberg.
 */
import { ENGINE_MESSAGE } from '../../../core/market/index.ts';
import type { NewOrderRequest, NewOrderRespType, OrderSide, OrderType, StpFlag, TimeInForce } from '../../../core/matching/index.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { rejected, requiredSymbol, str } from './context.ts';

const ZERO = /^0*(\.0*)?$/;

export function orderRequestOf(ctx: HandlerContext): NewOrderRequest {
  const p = ctx.params;
  const symbol = requiredSymbol(ctx);
  const iceberg = str(p['icebergQty']);
  if (iceberg !== undefined && !ZERO.test(iceberg.trim())) throw rejected({ code: -2010, msg: ENGINE_MESSAGE.icebergNotSupported });
  return {
    symbol,
    side: p['side'] as OrderSide,
    type: p['type'] as OrderType,
    timeInForce: str(p['timeInForce']) as TimeInForce | undefined,
    quantity: str(p['quantity']),
    quoteOrderQty: str(p['quoteOrderQty']),
    price: str(p['price']),
    stopPrice: str(p['stopPrice']),
    clientOrderId: str(p['newClientOrderId']),
    stpFlag: str(p['stpFlag']) as StpFlag | undefined,
    newOrderRespType: respTypeOf(p['type'] as OrderType, str(p['newOrderRespType']) as NewOrderRespType | undefined),
  };
}

export function respTypeOf(type: OrderType, requested: NewOrderRespType | undefined): NewOrderRespType {
  return requested ?? (type === 'MARKET' || type === 'LIMIT' ? 'FULL' : 'ACK');
}
