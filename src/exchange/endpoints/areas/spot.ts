/**
 * Spec 4.5 Spot trading: place, test, query and cancel orders; open and historical orders; account
 * trades; trade fees. Plus notes 6 cancelReplace.
 *
 * Order calls travel in the query string (spec 5.2.3 recommends it for spot trading). Order and
 * trade ids are `p.id()`: decimal strings in code, never numbers (they exceed 2^53).
 */
import { z } from 'zod';
import { zEmpty } from '../../codecs/common.ts';
import {
  NEW_ORDER_RESP_TYPES,
  ORDER_SIDES,
  ORDER_TYPES,
  STP_FLAGS,
  TIME_IN_FORCE,
  zAccountTrade,
  zCanceledOrder,
  zCancelReplaceResult,
  zNewOrderResponse,
  zOrder,
  zTradeFee,
} from '../../codecs/order.ts';
import type { OrderType } from '../../codecs/order.ts';
import { p } from '../../params/dsl.ts';
import type { ParamRule } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';
import type { ClientIdTerms, WeightCharge } from '../types.ts';

/** Empty values count as absent (notes 2.1: the official collection sends `orderId=`). */
const isSent = (values: Readonly<Record<string, unknown>>, name: string): boolean => {
  const v = values[name];
  return v !== undefined && v !== null && v !== '';
};

/**
 * newClientOrderId (spec 4.5: "unique among open orders; generated if omitted"): the client always
 * sends one, generating it when the caller does not, so an unknown outcome can be reconciled by
 * querying with origClientOrderId. No length is published: 36 characters of [A-Za-z0-9_-], as the
 * order manager's ids (core/orders/client-order-id.ts).
 */
const ORDER_CLIENT_ID: ClientIdTerms = { param: 'newClientOrderId', maxLength: 36, charset: 'token' };

/** Spec 4.5 "Mandatory parameters by order type": all of `all`, and exactly one of `oneOf`. */
const MANDATORY_BY_TYPE: Readonly<Record<OrderType, { all: readonly string[]; oneOf?: readonly [string, string] }>> = {
  LIMIT: { all: ['quantity', 'price'] },
  MARKET: { all: [], oneOf: ['quantity', 'quoteOrderQty'] },
  STOP_LOSS: { all: ['stopPrice'], oneOf: ['quantity', 'quoteOrderQty'] },
  STOP_LOSS_LIMIT: { all: ['quantity', 'price', 'stopPrice'] },
  TAKE_PROFIT: { all: ['stopPrice'], oneOf: ['quantity', 'quoteOrderQty'] },
  TAKE_PROFIT_LIMIT: { all: ['quantity', 'price', 'stopPrice'] },
  LIMIT_MAKER: { all: ['quantity', 'price'] },
};

const STOP_TYPES: readonly string[] = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

/** The type table as rules, shared by new order, test order and cancelReplace ("type rules as New order"). */
export const orderTypeRules: readonly ParamRule[] = [
  {
    kind: 'check',
    description: 'mandatory parameters by order type (spec 4.5)',
    test: (values) => {
      const type = values['type'];
      // An unknown type is the enum check's business, not this rule's.
      if (typeof type !== 'string' || !Object.hasOwn(MANDATORY_BY_TYPE, type)) return undefined;
      const need = MANDATORY_BY_TYPE[type as OrderType];
      if (need.oneOf) {
        const [a, b] = need.oneOf;
        if (!isSent(values, a) && !isSent(values, b)) {
          return { param: a, reason: 'missing', message: `${type} needs ${a} or ${b}` };
        }
        if (isSent(values, a) && isSent(values, b)) {
          return { param: b, reason: 'conflict', message: `${type} takes ${a} or ${b}, not both` };
        }
      }
      const missing = need.all.find((name) => !isSent(values, name));
      return missing === undefined ? undefined : { param: missing, reason: 'missing', message: `${type} needs ${missing}` };
    },
  },
  {
    kind: 'check',
    description: 'stopPrice only for STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT, TAKE_PROFIT_LIMIT',
    test: (values) => {
      const type = values['type'];
      if (!isSent(values, 'stopPrice') || typeof type !== 'string' || STOP_TYPES.includes(type)) return undefined;
      return { param: 'stopPrice', reason: 'not-allowed', message: `stopPrice is not taken by ${type} orders` };
    },
  },
];

const orderParams = {
  symbol: p.string().req(),
  side: p.enum(ORDER_SIDES).req(),
  type: p.enum(ORDER_TYPES).req(),
  timeInForce: p.enum(TIME_IN_FORCE),
  quantity: p.decimal({ doc: 'base asset amount' }),
  quoteOrderQty: p.decimal({ doc: 'quote asset amount to spend or receive (MARKET, STOP_LOSS, TAKE_PROFIT)' }),
  price: p.decimal(),
  newClientOrderId: p.string({ doc: 'unique among open orders; the client generates one when omitted' }),
  stopPrice: p.decimal({ doc: 'trigger price of stop-loss and take-profit types' }),
  newOrderRespType: p.enum(NEW_ORDER_RESP_TYPES, { doc: 'MARKET and LIMIT default to FULL, other types to ACK' }),
  stpFlag: p.enum(STP_FLAGS, { defaultValue: 'CB', doc: 'self-trade prevention: CB both, CN new, CO old order canceled' }),
};

/** The first official signing example (notes 3). */
const limitOrderExample = {
  symbol: 'BTCPHP',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '1',
  price: '0.1',
} as const;

/**
 * One order through the examples: placed and partly filled at once (FULL), queried, canceled,
 * found in history; its id exceeds 2^53, so it is written as a string.
 */
const orderExample = {
  symbol: 'BTCPHP',
  orderId: '1375445991893797391',
  clientOrderId: 'hy-1538323200000-1',
  price: '3425000',
  origQty: '0.001',
  executedQty: '0.0004',
  cummulativeQuoteQty: '1370',
  status: 'PARTIALLY_FILLED',
  timeInForce: 'GTC',
  type: 'LIMIT',
  side: 'BUY',
  stopPrice: '0',
  origQuoteOrderQty: '0',
} as const;
const canceledExample = { ...orderExample, status: 'CANCELED' } as const;

/** historyOrders: 10 with a symbol, 40 without (spec 4.5 keeps the 40 although symbol is listed req). */
export function historyOrdersWeight(params: Readonly<Record<string, unknown>>): readonly WeightCharge[] {
  return [{ pool: 'IP', weight: isSent(params, 'symbol') ? 10 : 40 }];
}

export const newOrder = defineEndpoint({
  id: 'spot.newOrder',
  area: 'spot',
  name: 'newOrder',
  summary: 'Place an order; answers ACK, RESULT or FULL per newOrderRespType',
  spec: '4.5',
  method: 'POST',
  path: '/openapi/v1/order',
  security: 'TRADE',
  weight: 1,
  countsAsOrder: true,
  envelope: 'bare',
  encoding: 'query',
  idempotent: false,
  clientId: ORDER_CLIENT_ID,
  params: orderParams,
  rules: orderTypeRules,
  response: zNewOrderResponse,
  example: {
    params: { ...limitOrderExample, price: '3425000', quantity: '0.001', newClientOrderId: 'hy-1538323200000-1', newOrderRespType: 'FULL' },
    response: {
      ...orderExample,
      transactTime: 1538323200012,
      fills: [
        { price: '3425000', qty: '0.0003', commission: '0.0000003', commissionAsset: 'BTC', tradeId: '1375445991893797400' },
        { price: '3425000', qty: '0.0001', commission: '0.0000001', commissionAsset: 'BTC', tradeId: '1375445991893797401' },
      ],
    },
  },
});

export const testOrder = defineEndpoint({
  id: 'spot.testOrder',
  area: 'spot',
  name: 'testOrder',
  summary: 'Validate an order, signature and recvWindow without sending it to the matching engine',
  spec: '4.5',
  method: 'POST',
  path: '/openapi/v1/order/test',
  security: 'TRADE',
  weight: 1,
  countsAsOrder: true,
  envelope: 'bare',
  encoding: 'query',
  // Nothing reaches the matching engine, so a resend after a timeout cannot double anything.
  idempotent: true,
  params: orderParams,
  rules: orderTypeRules,
  response: zEmpty,
  example: { params: limitOrderExample, response: {} },
});

export const queryOrder = defineEndpoint({
  id: 'spot.queryOrder',
  area: 'spot',
  name: 'queryOrder',
  summary: 'One order by id, or an array when several share the client order id',
  spec: '4.5',
  method: 'GET',
  path: '/openapi/v1/order',
  security: 'USER_DATA',
  weight: 2,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    orderId: p.id({ doc: 'takes precedence over origClientOrderId' }),
    origClientOrderId: p.string(),
  },
  rules: [{ kind: 'atLeastOne', params: ['orderId', 'origClientOrderId'] }],
  response: z.union([zOrder, z.array(zOrder)]),
  example: {
    params: { orderId: '1375445991893797391' },
    response: { ...orderExample, time: 1538323200012, updateTime: 1538323200012, isWorking: true },
  },
});

export const cancelOrder = defineEndpoint({
  id: 'spot.cancelOrder',
  area: 'spot',
  name: 'cancelOrder',
  summary: 'Cancel one order; answers it with status CANCELED and what had filled',
  spec: '4.5',
  method: 'DELETE',
  path: '/openapi/v1/order',
  security: 'TRADE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: false,
  params: {
    orderId: p.id({ doc: 'takes precedence over origClientOrderId' }),
    origClientOrderId: p.string(),
  },
  rules: [{ kind: 'atLeastOne', params: ['orderId', 'origClientOrderId'] }],
  response: zCanceledOrder,
  example: { params: { origClientOrderId: 'hy-1538323200000-1' }, response: canceledExample },
});

export const cancelOpenOrders = defineEndpoint({
  id: 'spot.cancelOpenOrders',
  area: 'spot',
  name: 'cancelOpenOrders',
  summary: 'Cancel every open order on a symbol',
  spec: '4.5',
  method: 'DELETE',
  path: '/openapi/v1/openOrders',
  security: 'TRADE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: false,
  params: { symbol: p.string().req() },
  response: z.array(zCanceledOrder),
  example: { params: { symbol: 'BTCPHP' }, response: [canceledExample] },
});

export const openOrders = defineEndpoint({
  id: 'spot.openOrders',
  area: 'spot',
  name: 'openOrders',
  summary: 'Open orders of one symbol, or of all (use care without a symbol)',
  spec: '4.5',
  method: 'GET',
  path: '/openapi/v1/openOrders',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { symbol: p.string() },
  response: z.array(zOrder),
  example: {
    params: { symbol: 'BTCPHP' },
    response: [
      {
        ...orderExample,
        // A safe-sized id may arrive as a bare number; it decodes to the same string form.
        orderId: 1375445991893797,
        clientOrderId: 'hy-1538323100000-7',
        price: '3300000',
        origQty: '0.002',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        status: 'NEW',
        time: 1538323100004,
        updateTime: 1538323100004,
        isWorking: true,
      },
    ],
  },
});

export const historyOrders = defineEndpoint({
  id: 'spot.historyOrders',
  area: 'spot',
  name: 'historyOrders',
  summary: 'Canceled, filled or rejected orders; from orderId upwards, else the most recent',
  spec: '4.5',
  method: 'GET',
  path: '/openapi/v1/historyOrders',
  security: 'USER_DATA',
  weight: historyOrdersWeight,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string().req(),
    orderId: p.id({ doc: 'orders with id >= this' }),
    startTime: p.long({ doc: 'ms' }),
    endTime: p.long({ doc: 'ms' }),
    limit: p.int({ max: 1000, defaultValue: 500 }),
  },
  response: z.array(zOrder),
  example: {
    params: { symbol: 'BTCPHP', limit: 1 },
    response: [{ ...canceledExample, time: 1538323200012, updateTime: 1538323260311, isWorking: false }],
  },
});

export const myTrades = defineEndpoint({
  id: 'spot.myTrades',
  area: 'spot',
  name: 'myTrades',
  summary: 'Account trades; from fromId upwards, else the most recent',
  spec: '4.5',
  method: 'GET',
  path: '/openapi/v1/myTrades',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string().req(),
    orderId: p.id({ doc: 'only together with symbol' }),
    startTime: p.long({ doc: 'ms' }),
    endTime: p.long({ doc: 'ms' }),
    fromId: p.id({ doc: 'trades with id >= this' }),
    limit: p.int({ max: 1000, defaultValue: 500 }),
  },
  rules: [{ kind: 'requires', param: 'orderId', requires: 'symbol' }],
  response: z.array(zAccountTrade),
  example: {
    params: { symbol: 'BTCPHP', orderId: '1375445991893797391' },
    response: [
      {
        symbol: 'BTCPHP',
        id: '1375445991893797400',
        orderId: '1375445991893797391',
        price: '3425000',
        qty: '0.0003',
        quoteQty: '1027.5',
        commission: '0.0000003',
        commissionAsset: 'BTC',
        time: 1538323200012,
        isBuyer: true,
        isMaker: false,
        isBestMatch: true,
      },
    ],
  },
});

export const tradeFee = defineEndpoint({
  id: 'spot.tradeFee',
  area: 'spot',
  name: 'tradeFee',
  summary: 'Maker and taker commission rates',
  spec: '4.5',
  method: 'GET',
  path: '/openapi/v1/asset/tradeFee',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { symbol: p.string() },
  response: z.array(zTradeFee),
  example: { params: { symbol: 'BTCPHP' }, response: [{ symbol: 'BTCPHP', makerCommission: '0.0025', takerCommission: '0.003' }] },
});

export const cancelReplace = defineEndpoint({
  id: 'spot.cancelReplace',
  area: 'spot',
  name: 'cancelReplace',
  summary: 'Cancel an order and place a new one in one call',
  spec: 'notes 6',
  method: 'POST',
  path: '/openapi/v1/order/cancelReplace',
  security: 'TRADE',
  weight: 1,
  countsAsOrder: true,
  envelope: 'bare',
  encoding: 'query',
  idempotent: false,
  clientId: ORDER_CLIENT_ID,
  params: {
    ...orderParams,
    cancelReplaceMode: p.enum(['STOP_ON_FAILURE', 'ALLOW_FAILURE'], { doc: 'STOP_ON_FAILURE: no new order if the cancel fails' }).req(),
    cancelOrderId: p.id({ doc: 'with both ids, found by this and must carry cancelOrigClientOrderId' }),
    cancelOrigClientOrderId: p.string(),
    cancelRestrictions: p.enum(['ALL', 'ONLY_NEW', 'ONLY_PARTIALLY_FILLED'], { defaultValue: 'ALL', doc: 'cancel only in that status' }),
  },
  rules: [
    {
      kind: 'atLeastOne',
      params: ['cancelOrigClientOrderId', 'cancelOrderId'],
      code: -1108,
      message: 'cancelOrigClientOrderId or cancelOrderId must be provided',
    },
    ...orderTypeRules,
  ],
  response: zCancelReplaceResult,
  example: {
    params: {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '10',
      price: '2',
      cancelReplaceMode: 'STOP_ON_FAILURE',
      cancelOrigClientOrderId: 'oldClientOrderId',
      newClientOrderId: 'newClientOrderId',
      newOrderRespType: 'ACK',
    },
    // Notes 6 sample; its ids exceed 2^53, so they are written as strings here.
    response: {
      cancelResult: 'SUCCESS',
      newOrderResult: 'SUCCESS',
      cancelResponse: {
        symbol: 'BTCUSDT',
        orderId: '1205324142243592448',
        clientOrderId: 'oldClientOrderId',
        transactTime: 1658307188627,
        price: '2',
        origQty: '10',
        executedQty: '8',
        origQuoteOrderQty: '0',
        cummulativeQuoteQty: '16',
        status: 'CANCELED',
        timeInForce: 'GTC',
        type: 'LIMIT',
        side: 'SELL',
        stpFlag: 'CB',
        stopPrice: '0',
      },
      newOrderResponse: { symbol: 'BTCUSDT', orderId: '1205324142243592555', clientOrderId: 'newClientOrderId', transactTime: 1658307188800 },
    },
  },
});

export const spotEndpoints = {
  newOrder,
  testOrder,
  queryOrder,
  cancelOrder,
  cancelOpenOrders,
  openOrders,
  historyOrders,
  myTrades,
  tradeFee,
  cancelReplace,
} as const;
