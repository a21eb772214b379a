/**
 * Spot trading vocabulary (spec 2.1) and response codecs for orders, fills and account trades
 * (spec 2.4, 2.5, 4.5; notes 5.1, 5.5, notes 6 cancelReplace).
 *
 * Order and trade ids exceed 2^53 on the real service (notes 5.1): they decode to exact decimal
 * strings. Times are numbers (strings before 2022-09-09, still accepted). Enumerated fields such as
 * `status` stay plain strings here: a value the spec does not list must not make a fill undecodable.
 */
import { z } from 'zod';
import { isRecord, zBool, zDec, zId, zNum, zSelect, obj } from './common.ts';

export const ORDER_SIDES = ['BUY', 'SELL'] as const;
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export const NEW_ORDER_RESP_TYPES = ['ACK', 'RESULT', 'FULL'] as const;
export const STP_FLAGS = ['CB', 'CN', 'CO'] as const;
export const ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'EXPIRED'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export type OrderType = (typeof ORDER_TYPES)[number];
export type TimeInForce = (typeof TIME_IN_FORCE)[number];
export type NewOrderRespType = (typeof NEW_ORDER_RESP_TYPES)[number];
export type StpFlag = (typeof STP_FLAGS)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Fill of a FULL new-order response. `tradeId` is documented as a string, seen as a number (notes
 * 5.5). Spec 2.4 lists every fill field as a string: a null `commissionAsset` (only the stream's
 * executionReport `N` may be null, and only before a fill, notes 4.1) is a decode error naming
 * `fills[i].commissionAsset`, not a fill passed through raw.
 */
export const zFill = obj({ price: zDec, qty: zDec, commission: zDec, commissionAsset: z.string(), tradeId: zId });
export type Fill = z.infer<typeof zFill>;

/** ACK: the order was accepted. */
export const zOrderAck = obj({ symbol: z.string(), orderId: zId, clientOrderId: z.string(), transactTime: zNum });
export type OrderAck = z.infer<typeof zOrderAck>;

/** The order fields every non-ACK shape carries (spec 2.4). */
const orderState = {
  symbol: z.string(),
  orderId: zId,
  clientOrderId: z.string(),
  price: zDec,
  origQty: zDec,
  executedQty: zDec,
  cummulativeQuoteQty: zDec,
  status: z.string(),
  timeInForce: z.string(),
  type: z.string(),
  side: z.string(),
  stopPrice: zDec,
  origQuoteOrderQty: zDec,
  stpFlag: z.string().optional(),
};

/** RESULT: ACK plus the order state. */
export const zOrderResult = obj({ ...orderState, transactTime: zNum });
export type OrderResult = z.infer<typeof zOrderResult>;

/** FULL: RESULT plus fills. */
export const zOrderFull = obj({ ...orderState, transactTime: zNum, fills: z.array(zFill) });
export type OrderFull = z.infer<typeof zOrderFull>;

export type NewOrderResponse = OrderFull | OrderResult | OrderAck;

/**
 * New order (spec 4.5): the shape is chosen by the keys present, never by trying each in turn (a
 * loose ACK or RESULT would accept a FULL body whose fills do not decode, leaving them raw): a
 * body with `fills` is FULL and nothing else, one with `status` RESULT, else ACK.
 */
export const zNewOrderResponse: z.ZodType<NewOrderResponse> = zSelect<NewOrderResponse>((body) =>
  isRecord(body) && 'fills' in body ? zOrderFull : isRecord(body) && 'status' in body ? zOrderResult : zOrderAck,
);

/** An order as query, open-orders and history answer it. */
export const zOrder = obj({ ...orderState, time: zNum, updateTime: zNum, isWorking: zBool });
export type Order = z.infer<typeof zOrder>;

/** A canceled order (cancel, cancel-all): the order state; which time fields come along is not shown. */
export const zCanceledOrder = obj({
  ...orderState,
  transactTime: zNum.optional(),
  time: zNum.optional(),
  updateTime: zNum.optional(),
  isWorking: zBool.optional(),
});
export type CanceledOrder = z.infer<typeof zCanceledOrder>;

/** Spec 2.5 account trade (myTrades). */
export const zAccountTrade = obj({
  symbol: z.string(),
  id: zId,
  orderId: zId,
  price: zDec,
  qty: zDec,
  quoteQty: zDec,
  commission: zDec,
  commissionAsset: z.string(),
  time: zNum,
  isBuyer: zBool,
  isMaker: zBool,
  isBestMatch: zBool,
});
export type AccountTrade = z.infer<typeof zAccountTrade>;

/** Spec 2.6 trade fee. */
export const zTradeFee = obj({ symbol: z.string(), makerCommission: zDec, takerCommission: zDec });
export type TradeFee = z.infer<typeof zTradeFee>;

/** A failed leg of cancelReplace (`{"code":-2011,"msg":"CANCEL_REJECTED"}`). */
export const zLegError = obj({ code: z.number().int(), msg: z.string() });

/**
 * Cancel-replace result (notes 6). On success both legs are orders; the same shape is the `data`
 * of a -1132 / -1133 error body, where a leg may be an error object or null (not attempted).
 */
export const zCancelReplaceResult = obj({
  cancelResult: z.string(),
  newOrderResult: z.string(),
  cancelResponse: zSelect<CanceledOrder | z.infer<typeof zLegError>>((leg) => (isLegError(leg) ? zLegError : zCanceledOrder)),
  newOrderResponse: zSelect<NewOrderResponse | z.infer<typeof zLegError> | null>((leg) =>
    leg === null ? z.null() : isLegError(leg) ? zLegError : zNewOrderResponse,
  ),
});

/** A leg answered `{code, msg}` rather than an order. */
function isLegError(leg: unknown): boolean {
  return isRecord(leg) && 'code' in leg && !('orderId' in leg);
}
export type CancelReplaceResult = z.infer<typeof zCancelReplaceResult>;

/**
 * Narrowing for new-order answers. Loose objects carry an index signature, so `'fills' in r` does
 * not narrow the union; these guards do.
 */
export const isFullResponse = (r: NewOrderResponse): r is OrderFull => Array.isArray(r['fills']);
export const hasOrderState = (r: NewOrderResponse): r is OrderResult | OrderFull => typeof r['status'] === 'string';
