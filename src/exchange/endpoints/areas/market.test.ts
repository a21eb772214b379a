import { isSafeNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { zPriceTicker } from '../../codecs/market.ts';
import type { WeightSpec } from '../types.ts';
import { depthWeight, KLINE_INTERVALS, marketEndpoints, ticker24hrWeight, tickerListWeight } from './market.ts';

const parseLossless = (t: string) => parse(t, null, (v) => (isSafeNumber(v) ? Number(v) : v));

const charge = (w: WeightSpec, params: Record<string, unknown>) =>
  typeof w === 'function' ? w(params) : typeof w === 'number' ? [{ pool: 'IP', weight: w }] : w;
const ipWeight = (n: number) => [{ pool: 'IP', weight: n }];
const symbolsOf = (n: number) => Array.from({ length: n }, (_, i) => `S${i}PHP`);

describe('market endpoint rows', () => {
  const rows = Object.entries(marketEndpoints);

  it.each(rows)('%s: key, id, area and name agree; public and GET', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`market.${key}`);
    expect(e.area).toBe('market');
    expect(e.security).toBe('NONE');
    expect(e.method).toBe('GET');
    expect(e.idempotent).toBe(true);
  });

  it('ticker endpoints refuse symbol together with symbols', () => {
    for (const e of [marketEndpoints.ticker24hr, marketEndpoints.tickerPrice, marketEndpoints.bookTicker]) {
      expect(e.rules).toContainEqual({ kind: 'notBoth', params: ['symbol', 'symbols'] });
      expect(e.params.symbols.kind).toBe('LIST');
    }
  });

  it('kline interval enum is the spec 2.1 list', () => {
    expect(marketEndpoints.klines.params.interval.values).toEqual(KLINE_INTERVALS);
    expect(KLINE_INTERVALS).toHaveLength(15);
  });
});

describe('market decoding', () => {
  it('keeps trade ids above 2^53 exact from a raw body', () => {
    const body = '[{"id":1640734866998845445,"price":"73247.3","qty":"0.0066912","quoteQty":"0.0066912","time":1710326837836,"isBuyerMaker":true,"isBestMatch":true}]';
    const [trade] = marketEndpoints.trades.response.parse(parseLossless(body));
    expect(trade?.id).toBe('1640734866998845445');
    expect(trade?.time).toBe(1710326837836);
  });

  it('normalises the real trade sample of notes 5.2 (numbers as strings)', () => {
    const [trade] = marketEndpoints.trades.response.parse(marketEndpoints.trades.example.response);
    expect(trade).toMatchObject({ id: '1640734866998845445', time: 1710326837836, price: '73247.300000000000000000' });
  });

  it('decodes depth levels to decimal strings and a big lastUpdateId exactly', () => {
    const body = '{"lastUpdateId":9007199254740993,"bids":[["3425000.00","0.5"]],"asks":[[3425300.5,"0.004100"]]}';
    const d = marketEndpoints.depth.response.parse(parseLossless(body));
    expect(d.lastUpdateId).toBe('9007199254740993');
    expect(d.bids).toEqual([['3425000.00', '0.5']]);
    expect(d.asks).toEqual([['3425300.5', '0.004100']]);
  });

  it('decodes an 11-item kline row with numeric times and decimal-string prices', () => {
    const [k] = marketEndpoints.klines.response.parse(marketEndpoints.klines.example.response);
    expect(k).toEqual({
      openTime: 1538323200000,
      open: '3420000.00',
      high: '3425000.00',
      low: '3419500.00',
      close: '3424100.00',
      volume: '0.532100',
      closeTime: 1538323259999,
      quoteVolume: '1821240.35',
      trades: 42,
      takerBuyBaseVolume: '0.301000',
      takerBuyQuoteVolume: '1030520.10',
    });
  });

  it('accepts a 12th trailing kline item and string times', () => {
    const body = '[["1538323200000","1","2","0.5","1.5","10","1538323259999","15","7","4","6","0"]]';
    const [k] = marketEndpoints.klines.response.parse(parseLossless(body));
    expect(k).toMatchObject({ openTime: 1538323200000, closeTime: 1538323259999, trades: 7, takerBuyQuoteVolume: '6' });
    expect(Object.keys(k ?? {})).toHaveLength(11);
  });

  it('decodes a 24hr ticker with stringly times and exact trade ids', () => {
    const t = marketEndpoints.ticker24hr.response.parse(marketEndpoints.ticker24hr.example.response);
    expect(Array.isArray(t)).toBe(false);
    expect(t).toMatchObject({ openTime: 1538236800000, count: 3568, firstId: '1640734866998845445', priceChangePercent: '0.0144' });
  });

  it('takes one ticker object or an array', () => {
    const many = marketEndpoints.tickerPrice.response.parse(marketEndpoints.tickerPrice.example.response);
    expect(many).toEqual([
      { symbol: 'BTCPHP', price: '3425000.00' },
      { symbol: 'ETHPHP', price: '181250.50' },
    ]);
    expect(marketEndpoints.tickerPrice.response.parse({ symbol: 'BTCPHP', price: 1.5 })).toEqual({ symbol: 'BTCPHP', price: '1.5' });
  });

  it('fails a malformed price with an error naming the path', () => {
    const result = zPriceTicker.safeParse({ symbol: 'BTCPHP', price: {} });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['price']);
  });

  it('fails a malformed kline cell with an error naming row and position', () => {
    const row = [1538323200000, {}, '2', '0.5', '1.5', '10', 1538323259999, '15', 7, '4', '6'];
    const result = marketEndpoints.klines.response.safeParse([row]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([0, 1]);
  });

  it('rejects a kline row that is too short', () => {
    expect(marketEndpoints.klines.response.safeParse([[1538323200000, '1', '2']]).success).toBe(false);
  });
});

describe('market weights', () => {
  it('depth: limits 5-100 and the default cost 1; 200 and 0 (answers 200) cost 5', () => {
    expect(depthWeight({})).toEqual(ipWeight(1));
    for (const limit of [5, 10, 20, 50, 100]) expect(depthWeight({ limit })).toEqual(ipWeight(1));
    expect(depthWeight({ limit: 200 })).toEqual(ipWeight(5));
    expect(depthWeight({ limit: 0 })).toEqual(ipWeight(5));
    // As the sandbox reads them off the wire.
    expect(depthWeight({ limit: '200' })).toEqual(ipWeight(5));
    expect(depthWeight({ limit: '' })).toEqual(ipWeight(1));
    expect(charge(marketEndpoints.depth.weight, { symbol: 'BTCPHP', limit: 200 })).toEqual(ipWeight(5));
  });

  it('ticker24hr: symbol 1, omitted 40, symbols 1-20 -> 1, 21-100 -> 20, 101+ -> 40', () => {
    expect(ticker24hrWeight({ symbol: 'BTCPHP' })).toEqual(ipWeight(1));
    expect(ticker24hrWeight({})).toEqual(ipWeight(40));
    expect(ticker24hrWeight({ symbols: symbolsOf(1) })).toEqual(ipWeight(1));
    expect(ticker24hrWeight({ symbols: symbolsOf(20) })).toEqual(ipWeight(1));
    expect(ticker24hrWeight({ symbols: symbolsOf(21) })).toEqual(ipWeight(20));
    expect(ticker24hrWeight({ symbols: symbolsOf(100) })).toEqual(ipWeight(20));
    expect(ticker24hrWeight({ symbols: symbolsOf(101) })).toEqual(ipWeight(40));
  });

  it('ticker24hr counts wire lists: JSON-array text and comma lists', () => {
    expect(ticker24hrWeight({ symbols: JSON.stringify(symbolsOf(21)) })).toEqual(ipWeight(20));
    expect(ticker24hrWeight({ symbols: symbolsOf(101).join(',') })).toEqual(ipWeight(40));
    expect(ticker24hrWeight({ symbols: '["BTCPHP","ETHPHP"]' })).toEqual(ipWeight(1));
  });

  it('tickerPrice and bookTicker: symbol 1, omitted 2, symbols 2', () => {
    for (const e of [marketEndpoints.tickerPrice, marketEndpoints.bookTicker]) {
      expect(charge(e.weight, { symbol: 'BTCPHP' })).toEqual(ipWeight(1));
      expect(charge(e.weight, {})).toEqual(ipWeight(2));
      expect(charge(e.weight, { symbols: ['BTCPHP'] })).toEqual(ipWeight(2));
    }
    expect(tickerListWeight({ symbols: symbolsOf(150) })).toEqual(ipWeight(2));
  });

  it('the other market endpoints cost 1', () => {
    for (const e of [marketEndpoints.trades, marketEndpoints.klines, marketEndpoints.avgPrice, marketEndpoints.pairs]) {
      expect(charge(e.weight, {})).toEqual(ipWeight(1));
    }
  });
});
