/**
 * Checked new-order parameters (spec 4.5) -> the engine's request, and the answer shape: the
 * requested newOrderRespType, else FULL for MARKET and LIMIT and ACK for every other type.
 * The parameter layer has already enforced the enums and the mandatory-by-type table.
 */
import type { NewOrderRequest, NewOrderRespType, OrderSide, OrderType, StpFlag, TimeInForce } from '../../../core/matching/index.ts';
import type { HandlerContext } from '../../http/route-types.ts';
import { requiredSymbol, str } from './context.ts';

export function orderRequestOf(ctx: HandlerContext): NewOrderRequest {
  const p = ctx.params;
  return {
    symbol: requiredSymbol(ctx),
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
