/** Spec 4.1 General: connectivity, server time, caller IP, exchange rules. Plus notes 6 check-sys-status. */
import { z } from 'zod';
import { zNum, obj, zEmpty } from '../../codecs/common.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

/** A filter object (spec 2.3): `filterType` plus its fields, kept loosely; `core/market` interprets it. */
export const zFilter = z.looseObject({ filterType: z.string() });

export const zSymbolInfo = obj({
  symbol: z.string(),
  status: z.string(),
  baseAsset: z.string(),
  baseAssetPrecision: zNum,
  quoteAsset: z.string(),
  quoteAssetPrecision: zNum,
  orderTypes: z.array(z.string()).optional(),
  filters: z.array(zFilter),
});

export const zExchangeInfo = obj({
  timezone: z.string(),
  serverTime: zNum,
  exchangeFilters: z.array(z.unknown()).optional(),
  symbols: z.array(zSymbolInfo),
});
export type ExchangeInfo = z.infer<typeof zExchangeInfo>;
export type SymbolInfo = z.infer<typeof zSymbolInfo>;

export const ping = defineEndpoint({
  id: 'general.ping',
  area: 'general',
  name: 'ping',
  summary: 'Test connectivity',
  spec: '4.1',
  method: 'GET',
  path: '/openapi/v1/ping',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: zEmpty,
  example: { params: {}, response: {} },
});

export const time = defineEndpoint({
  id: 'general.time',
  area: 'general',
  name: 'time',
  summary: 'Server time in ms',
  spec: '4.1',
  method: 'GET',
  path: '/openapi/v1/time',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: obj({ serverTime: zNum }),
  example: { params: {}, response: { serverTime: 1538323200000 } },
});

export const userIp = defineEndpoint({
  id: 'general.userIp',
  area: 'general',
  name: 'userIp',
  summary: "The caller's IP as the service sees it",
  spec: '4.1',
  method: 'GET',
  path: '/openapi/v1/user/ip',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: obj({ ip: z.string() }),
  example: { params: {}, response: { ip: '127.0.0.1' } },
});

export const exchangeInfo = defineEndpoint({
  id: 'general.exchangeInfo',
  area: 'general',
  name: 'exchangeInfo',
  summary: 'Exchange rules: symbols and filters',
  spec: '4.1',
  method: 'GET',
  path: '/openapi/v1/exchangeInfo',
  security: 'NONE',
  weight: 1,
  weightReal: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string({ doc: 'one symbol' }),
    symbols: p.string({ doc: 'comma-separated list of symbols' }),
  },
  rules: [{ kind: 'notBoth', params: ['symbol', 'symbols'] }],
  response: zExchangeInfo,
  example: {
    params: { symbol: 'BTCPHP' },
    response: {
      timezone: 'UTC',
      serverTime: 1538323200000,
      exchangeFilters: [],
      symbols: [
        {
          symbol: 'BTCPHP',
          status: 'TRADING',
          baseAsset: 'BTC',
          baseAssetPrecision: '8',
          quoteAsset: 'PHP',
          quoteAssetPrecision: '2',
          orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
          filters: [
            { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
            { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '1000', stepSize: '0.000001' },
            { filterType: 'NOTIONAL', minNotional: '100', maxNotional: '10000000' },
            { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
            { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
          ],
        },
      ],
    },
  },
});

export const checkSysStatus = defineEndpoint({
  id: 'general.checkSysStatus',
  area: 'general',
  name: 'checkSysStatus',
  summary: 'Business status of SPOT and CONVERT (protocol notes 6; signed by clients)',
  spec: 'notes 6',
  method: 'GET',
  path: '/openapi/v1/check-sys-status',
  security: 'USER_DATA',
  weight: [{ pool: 'UID', weight: 2 }],
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { businessType: p.enum(['SPOT', 'CONVERT']) },
  response: z.array(obj({ businessType: z.string(), businessStatus: z.string() })),
  example: {
    params: {},
    response: [
      { businessType: 'SPOT', businessStatus: 'on' },
      { businessType: 'CONVERT', businessStatus: 'on' },
    ],
  },
});

export const generalEndpoints = { ping, time, userIp, exchangeInfo, checkSysStatus } as const;

