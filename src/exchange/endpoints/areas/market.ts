/** Spec 4.4 Market data: order book, recent trades, klines, tickers, average price, pairs (public, NONE). */
import { z } from 'zod';
import { zAvgPrice, zBookTicker, zDepth, zKline, zPair, zPriceTicker, zRecentTrade, zTicker24hr, oneOrMany } from '../../codecs/market.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';
import type { WeightCharge } from '../types.ts';

/** Spec 2.1 kline intervals (m minutes, h hours, d days, w weeks, M months). */
import { KLINE_INTERVALS, type KlineInterval } from '../../../core/market/intervals.ts';

export { KLINE_INTERVALS, type KlineInterval };

const ip = (weight: number): readonly WeightCharge[] => [{ pool: 'IP', weight }];

/** Empty values count as absent (notes 2.1: the official collection sends `orderId=`). */
const isSent = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** A count parameter as code passes it (number) or as the sandbox reads it off the wire (text). */
function numberParam(v: unknown): number | undefined {
  if (!isSent(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Entries of a `symbols` list: an array in code; JSON-array text or a comma list on the wire (notes 2.1). */
function listLength(v: unknown): number | undefined {
  if (Array.isArray(v)) return v.length;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const text = v.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.length;
    } catch {
      // Not JSON after all: count it as a comma list below.
    }
  }
  return text.replace(/^\[|\]$/g, '').split(',').filter((s) => s.trim() !== '').length;
}

/** Depth: limits up to 100 cost 1, 200 costs 5. `limit=0` answers 200 levels, so it costs 5 too. */
export function depthWeight(params: Readonly<Record<string, unknown>>): readonly WeightCharge[] {
  const limit = numberParam(params['limit']) ?? 100;
  // Sizes between the listed ones are charged as the next listed size.
  return ip(limit <= 0 || limit > 100 ? 5 : 1);
}

/** 24hr ticker: one symbol 1; `symbols` 1-20 -> 1, 21-100 -> 20, 101+ -> 40; neither (all symbols) 40. */
export function ticker24hrWeight(params: Readonly<Record<string, unknown>>): readonly WeightCharge[] {
  if (isSent(params['symbol'])) return ip(1);
  const n = listLength(params['symbols']);
  if (n === undefined || n === 0) return ip(40);
  return ip(n <= 20 ? 1 : n <= 100 ? 20 : 40);
}

/** Price and book tickers: one symbol 1; anything else (a `symbols` list, or all) 2. */
export function tickerListWeight(params: Readonly<Record<string, unknown>>): readonly WeightCharge[] {
  return ip(isSent(params['symbol']) ? 1 : 2);
}

const tickerParams = {
  symbol: p.string({ doc: 'one symbol; answers one object' }),
  symbols: p.list({ caseInsensitive: true, doc: 'several symbols, sent as JSON-array text ["BTCPHP","ETHPHP"]' }),
};
const tickerRules = [{ kind: 'notBoth', params: ['symbol', 'symbols'] }] as const;

export const depth = defineEndpoint({
  id: 'market.depth',
  area: 'market',
  name: 'depth',
  summary: 'Order book snapshot',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/depth',
  security: 'NONE',
  weight: depthWeight,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string().req(),
    limit: p.int({ min: 0, max: 200, defaultValue: 100, doc: 'levels per side: 5, 10, 20, 50, 100 or 200 (0 answers 200)' }),
  },
  response: zDepth,
  example: {
    params: { symbol: 'BTCPHP', limit: 5 },
    response: {
      lastUpdateId: 1027024,
      bids: [
        ['3425000.00', '0.015230'],
        ['3424800.00', '0.100000'],
      ],
      asks: [
        ['3425300.00', '0.004100'],
        ['3425900.00', '0.250000'],
      ],
    },
  },
});

export const trades = defineEndpoint({
  id: 'market.trades',
  area: 'market',
  name: 'trades',
  summary: 'Recent trades',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/trades',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string().req(),
    // No min/max: the venue answers 1000 rows for limit <= 0 or > 1000 rather than rejecting it.
    limit: p.int({ defaultValue: 500, doc: 'rows, up to 1000 (out-of-range values answer 1000)' }),
  },
  response: z.array(zRecentTrade),
  example: {
    params: { symbol: 'BTCUSDT', limit: 1 },
    // The real-service sample of notes 5.2: id and time as strings, quoteQty equal to qty.
    response: [
      {
        price: '73247.300000000000000000',
        id: '1640734866998845445',
        qty: '0.006691200000000000',
        quoteQty: '0.006691200000000000',
        time: '1710326837836',
        isBuyerMaker: true,
        isBestMatch: true,
      },
    ],
  },
});

export const klines = defineEndpoint({
  id: 'market.klines',
  area: 'market',
  name: 'klines',
  summary: 'Candlesticks, identified by open time; the most recent without startTime/endTime',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/klines',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    symbol: p.string().req(),
    interval: p.enum(KLINE_INTERVALS).req(),
    startTime: p.long({ doc: 'ms' }),
    endTime: p.long({ doc: 'ms' }),
    limit: p.int({ max: 1000, defaultValue: 500 }),
  },
  response: z.array(zKline),
  example: {
    params: { symbol: 'BTCPHP', interval: '1m', limit: 2 },
    response: [
      [1538323200000, '3420000.00', '3425000.00', '3419500.00', '3424100.00', '0.532100', 1538323259999, '1821240.35', 42, '0.301000', '1030520.10'],
      [1538323260000, '3424100.00', '3426000.00', '3423800.00', '3425000.00', '0.120400', 1538323319999, '412403.88', 11, '0.050000', '171250.00'],
    ],
  },
});

export const ticker24hr = defineEndpoint({
  id: 'market.ticker24hr',
  area: 'market',
  name: 'ticker24hr',
  summary: 'Rolling 24 h statistics: one object for `symbol`, else an array',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/ticker/24hr',
  security: 'NONE',
  weight: ticker24hrWeight,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: tickerParams,
  rules: tickerRules,
  response: oneOrMany(zTicker24hr),
  example: {
    params: { symbol: 'BTCPHP' },
    response: {
      symbol: 'BTCPHP',
      priceChange: '49100.00',
      priceChangePercent: '0.0144',
      weightedAvgPrice: '3401235.12',
      prevClosePrice: '3375900.00',
      lastPrice: '3425000.00',
      lastQty: '0.001200',
      bidPrice: '3424800.00',
      bidQty: '0.100000',
      askPrice: '3425300.00',
      askQty: '0.004100',
      openPrice: '3375900.00',
      highPrice: '3440000.00',
      lowPrice: '3360100.00',
      volume: '12.503300',
      quoteVolume: '42526481.77',
      openTime: '1538236800000',
      closeTime: '1538323200000',
      firstId: '1640734866998845445',
      lastId: '1640734866998849012',
      count: '3568',
    },
  },
});

export const tickerPrice = defineEndpoint({
  id: 'market.tickerPrice',
  area: 'market',
  name: 'tickerPrice',
  summary: 'Last price: one object for `symbol`, else an array',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/ticker/price',
  security: 'NONE',
  weight: tickerListWeight,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: tickerParams,
  rules: tickerRules,
  response: oneOrMany(zPriceTicker),
  example: {
    params: { symbols: ['BTCPHP', 'ETHPHP'] },
    response: [
      { symbol: 'BTCPHP', price: '3425000.00' },
      { symbol: 'ETHPHP', price: '181250.50' },
    ],
  },
});

export const bookTicker = defineEndpoint({
  id: 'market.bookTicker',
  area: 'market',
  name: 'bookTicker',
  summary: 'Best bid and ask: one object for `symbol`, else an array',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/ticker/bookTicker',
  security: 'NONE',
  weight: tickerListWeight,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: tickerParams,
  rules: tickerRules,
  response: oneOrMany(zBookTicker),
  example: {
    params: { symbol: 'BTCPHP' },
    response: { symbol: 'BTCPHP', bidPrice: '3424800.00', bidQty: '0.100000', askPrice: '3425300.00', askQty: '0.004100' },
  },
});

export const avgPrice = defineEndpoint({
  id: 'market.avgPrice',
  area: 'market',
  name: 'avgPrice',
  summary: 'Average price over the last `mins` minutes',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/quote/v1/avgPrice',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { symbol: p.string({ caseInsensitive: true }).req() },
  response: zAvgPrice,
  example: { params: { symbol: 'btcphp' }, response: { mins: 5, price: '3423871.46' } },
});

export const pairs = defineEndpoint({
  id: 'market.pairs',
  area: 'market',
  name: 'pairs',
  summary: 'Trading pairs (base/quote may be swapped, notes 5.6: prefer exchangeInfo)',
  spec: '4.4',
  method: 'GET',
  path: '/openapi/v1/pairs',
  security: 'NONE',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: z.array(zPair),
  example: {
    params: {},
    response: [
      { symbol: 'BTCPHP', quoteToken: 'BTC', baseToken: 'PHP' },
      { symbol: 'ETHPHP', quoteToken: 'ETH', baseToken: 'PHP' },
    ],
  },
});

export const marketEndpoints = { depth, trades, klines, ticker24hr, tickerPrice, bookTicker, avgPrice, pairs } as const;
