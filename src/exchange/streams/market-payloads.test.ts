/**
 * The market-stream decoders (protocol notes 4) on samples with every field the notes list, read
 * from raw text through the lossless parse; ids beyond 2^53, numbers as strings (notes 5.2),
 * wrong types and missing fields; and `decodeMarketEvent`'s choice of decoder (by `e`, by stream
 * name for bookTicker and the `@arr` arrays).
 */
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { DecodeError } from './decode-error.ts';
import {
  decodeAggTrade,
  decodeBookTicker,
  decodeDepthUpdate,
  decodeKline,
  decodeMarketEvent,
  decodeMiniTicker,
  decodePartialDepth,
  decodeTicker,
  decodeTrade,
} from './market-payloads.ts';

const TRADE = '{"e":"trade","E":1710326837840,"s":"BTCPHP","t":1640734866998845445,"p":"73247.300000000000000000","q":"0.006691200000000000","b":1202289462787244800,"a":1202289462787244801,"T":1710326837836,"m":true,"M":true}';
const AGG = '{"e":"aggTrade","E":1710326837840,"s":"BTCPHP","a":12345,"p":"3500000.00","q":"0.0012","f":1640734866998845445,"l":1640734866998845447,"T":1710326837836,"m":false,"M":true}';
const KLINE =
  '{"e":"kline","E":1710326837840,"s":"BTCPHP","k":{"t":1710326820000,"T":1710326879999,"s":"BTCPHP","i":"1m","f":100,"L":200,"o":"3500000","c":"3501000.5","h":"3502000","l":"3499000","v":"1.5","n":101,"x":false,"q":"5250000","V":"0.7","Q":"2450000","B":"0"}}';
const MINI = '{"e":"24hrMiniTicker","E":1710326837840,"s":"BTCPHP","c":"3501000","o":"3450000","h":"3510000","l":"3440000","v":"12.5","q":"43750000"}';
const TICKER =
  '{"e":"24hrTicker","E":1710326837840,"s":"BTCPHP","p":"-51000","P":"-0.0144","w":"3480000.12","x":"3552000","c":"3501000","Q":"0.01","b":"3500900","B":"0.2","a":"3501100","A":"0.3","o":"3552000","h":"3560000","l":"3440000","v":"12.5","q":"43500000","O":1710240420000,"C":1710326837840,"F":1640734866998845445,"L":1640734866998846445,"n":1001}';
const BOOK = '{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}';
const DEPTH5 = '{"s":"BTCPHP","e":"depth","E":1710326837840,"lastUpdateId":160,"bids":[["0.0024","10"]],"asks":[["0.0026","100"],["0.0027","0.5"]]}';
const DIFF = '{"e":"depthUpdate","E":1710326837840,"s":"BNBBTC","U":157,"u":160,"b":[["0.0024","10"]],"a":[["0.0026","100"],["0.0025","0"]]}';

const parsed = (raw: string) => parseJsonLossless(raw) as Record<string, unknown>;

function failure(f: () => unknown): DecodeError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DecodeError);
    return err as DecodeError;
  }
  throw new Error('decoded without an error');
}

describe('market payloads (notes 4)', () => {
  it('trade: ids beyond 2^53 exact, amounts as sent, M ignored', () => {
    expect(decodeTrade(parsed(TRADE))).toEqual({
      eventType: 'trade',
      eventTime: 1710326837840,
      symbol: 'BTCPHP',
      tradeId: '1640734866998845445',
      price: '73247.300000000000000000',
      quantity: '0.006691200000000000',
      buyerOrderId: '1202289462787244800',
      sellerOrderId: '1202289462787244801',
      tradeTime: 1710326837836,
      buyerIsMaker: true,
    });
  });

  it('aggTrade', () => {
    expect(decodeAggTrade(parsed(AGG))).toEqual({
      eventType: 'aggTrade',
      eventTime: 1710326837840,
      symbol: 'BTCPHP',
      aggregateId: '12345',
      price: '3500000.00',
      quantity: '0.0012',
      firstTradeId: '1640734866998845445',
      lastTradeId: '1640734866998845447',
      tradeTime: 1710326837836,
      buyerIsMaker: false,
    });
  });

  it('kline: the k object, B ignored; a bad k field is named by its path', () => {
    expect(decodeKline(parsed(KLINE))).toEqual({
      eventType: 'kline',
      eventTime: 1710326837840,
      symbol: 'BTCPHP',
      kline: {
        openTime: 1710326820000,
        closeTime: 1710326879999,
        symbol: 'BTCPHP',
        interval: '1m',
        firstTradeId: '100',
        lastTradeId: '200',
        open: '3500000',
        close: '3501000.5',
        high: '3502000',
        low: '3499000',
        volume: '1.5',
        trades: 101,
        closed: false,
        quoteVolume: '5250000',
        takerBuyVolume: '0.7',
        takerBuyQuoteVolume: '2450000',
      },
    });
    expect(failure(() => decodeKline(parsed(KLINE.replace('"n":101', '"n":"many"')))).message).toBe('kline.k.n: expected an integer (time in ms or count), got "many"');
    expect(failure(() => decodeKline(parsed(KLINE.replace(/"k":\{.*\}\}$/, '"k":3}')))).message).toBe('kline.k: expected an object, got 3');
    // The sandbox sends -1 for a bar without trades.
    expect(decodeKline(parsed(KLINE.replace('"f":100,"L":200', '"f":-1,"L":-1'))).kline).toMatchObject({ firstTradeId: '-1', lastTradeId: '-1' });
  });

  it('miniTicker and ticker (P a signed fraction, kept as sent)', () => {
    expect(decodeMiniTicker(parsed(MINI))).toEqual({ eventType: '24hrMiniTicker', eventTime: 1710326837840, symbol: 'BTCPHP', close: '3501000', open: '3450000', high: '3510000', low: '3440000', volume: '12.5', quoteVolume: '43750000' });
    expect(decodeTicker(parsed(TICKER))).toEqual({
      eventType: '24hrTicker',
      eventTime: 1710326837840,
      symbol: 'BTCPHP',
      priceChange: '-51000',
      priceChangePercent: '-0.0144',
      weightedAvgPrice: '3480000.12',
      prevClosePrice: '3552000',
      lastPrice: '3501000',
      lastQty: '0.01',
      bidPrice: '3500900',
      bidQty: '0.2',
      askPrice: '3501100',
      askQty: '0.3',
      open: '3552000',
      high: '3560000',
      low: '3440000',
      volume: '12.5',
      quoteVolume: '43500000',
      openTime: 1710240420000,
      closeTime: 1710326837840,
      firstTradeId: '1640734866998845445',
      lastTradeId: '1640734866998846445',
      count: 1001,
    });
  });

  it('numbers as strings (notes 5.2): times, counts and ids as text, amounts as numbers', () => {
    const t = decodeTicker({ ...parsed(TICKER), O: '1710240420000', C: '1710326837840', F: '1640734866998845445', n: '1001', c: 3501000, Q: 0.01 });
    expect(t).toMatchObject({ openTime: 1710240420000, closeTime: 1710326837840, firstTradeId: '1640734866998845445', count: 1001, lastPrice: '3501000', lastQty: '0.01' });
  });

  it('bookTicker (no e/E)', () => {
    expect(decodeBookTicker(parsed(BOOK))).toEqual({ eventType: 'bookTicker', updateId: '400900217', symbol: 'BNBUSDT', bidPrice: '25.35190000', bidQty: '31.21000000', askPrice: '25.36520000', askQty: '40.66000000' });
  });

  it('depth<N> partial snapshot and depthUpdate diff', () => {
    expect(decodePartialDepth(parsed(DEPTH5))).toEqual({
      eventType: 'depth',
      eventTime: 1710326837840,
      symbol: 'BTCPHP',
      lastUpdateId: '160',
      bids: [['0.0024', '10']],
      asks: [
        ['0.0026', '100'],
        ['0.0027', '0.5'],
      ],
    });
    expect(decodeDepthUpdate(parsed(DIFF))).toEqual({
      eventType: 'depthUpdate',
      eventTime: 1710326837840,
      symbol: 'BNBBTC',
      firstUpdateId: '157',
      finalUpdateId: '160',
      bids: [['0.0024', '10']],
      asks: [
        ['0.0026', '100'],
        ['0.0025', '0'],
      ],
    });
    const big = decodeDepthUpdate(parsed(DIFF.replace('"U":157,"u":160', '"U":9007199254740993,"u":9007199254740995')));
    expect([big.firstUpdateId, big.finalUpdateId]).toEqual(['9007199254740993', '9007199254740995']);
  });

  it.each([
    [DIFF.replace('"u":160', '"u":150'), 'depthUpdate.u: final update id 150 is below the first, U 157'],
    [DIFF.replace('[["0.0024","10"]]', '[["0.0024"]]'), 'depthUpdate.b[0]: expected a [price, quantity] pair, got an array of 1'],
    [DIFF.replace('[["0.0024","10"]]', '[["0.0024","-1"]]'), 'depthUpdate.b[0][1]: expected a price or quantity of 0 or more, got "-1"'],
    [DIFF.replace('["0.0025","0"]', '["0.0025",true]'), 'depthUpdate.a[1][1]: expected a plain decimal string, got true'],
    [DIFF.replace('"b":[["0.0024","10"]]', '"b":{}'), 'depthUpdate.b: expected an array, got an object'],
    [DIFF.replace('"U":157,', ''), 'depthUpdate.U: expected an integer id, got nothing (missing)'],
    [DEPTH5.replace('"lastUpdateId":160', '"lastUpdateId":"x"'), 'depth.lastUpdateId: expected an integer id, got "x"'],
    [TRADE.replace('"m":true', '"m":1'), 'trade.m: expected a boolean, got 1'],
    [AGG.replace('"a":12345,', ''), 'aggTrade.a: expected an integer id, got nothing (missing)'],
    [MINI.replace('"v":"12.5"', '"v":"12,5"'), '24hrMiniTicker.v: expected a plain decimal string, got "12,5"'],
    [BOOK.replace('"s":"BNBUSDT"', '"s":null'), 'bookTicker.s: expected a string, got null', 'bnbusdt@bookTicker'],
  ])('refuses %s', (raw, message, stream?: string) => {
    expect(failure(() => decodeMarketEvent(stream, parsed(raw))).message).toBe(message);
  });
});

describe('decodeMarketEvent', () => {
  it('picks the decoder by e', () => {
    for (const [raw, type] of [
      [TRADE, 'trade'],
      [AGG, 'aggTrade'],
      [KLINE, 'kline'],
      [MINI, '24hrMiniTicker'],
      [TICKER, '24hrTicker'],
      [DEPTH5, 'depth'],
      [DIFF, 'depthUpdate'],
    ] as const) {
      expect(decodeMarketEvent(undefined, parsed(raw)).eventType).toBe(type);
    }
  });

  it('bookTicker by its stream name, or by its keys when bare', () => {
    expect(decodeMarketEvent('bnbusdt@bookTicker', parsed(BOOK)).eventType).toBe('bookTicker');
    expect(decodeMarketEvent('!bookTicker', parsed(BOOK)).eventType).toBe('bookTicker');
    expect(decodeMarketEvent(undefined, parsed(BOOK)).eventType).toBe('bookTicker');
    expect(failure(() => decodeMarketEvent('bnbusdt@trade', parsed(BOOK))).message).toBe('event.e: missing: only bookTicker events come without `e`, and stream bnbusdt@trade is not one');
    expect(failure(() => decodeMarketEvent(undefined, { s: 'X' })).message).toBe('event.e: missing: only bookTicker events come without `e`');
  });

  it('!miniTicker@arr and !ticker@arr: by stream name, or by the first item; each item checked', () => {
    const minis = decodeMarketEvent('!miniTicker@arr', parseJsonLossless(`[${MINI},${MINI.replace('BTCPHP', 'ETHPHP')}]`));
    expect(minis.eventType).toBe('miniTickerArray');
    expect(minis.eventType === 'miniTickerArray' && minis.tickers.map((t) => t.symbol)).toEqual(['BTCPHP', 'ETHPHP']);
    expect(decodeMarketEvent(undefined, parseJsonLossless(`[${TICKER}]`))).toMatchObject({ eventType: 'tickerArray', tickers: [{ symbol: 'BTCPHP', count: 1001 }] });
    expect(decodeMarketEvent('!ticker@arr', [])).toEqual({ eventType: 'tickerArray', tickers: [] });
    expect(decodeMarketEvent('!miniTicker@arr', [])).toEqual({ eventType: 'miniTickerArray', tickers: [] });
    expect(failure(() => decodeMarketEvent(undefined, [])).message).toBe('event.(payload): an empty array from an unnamed stream: pass the stream name (!miniTicker@arr or !ticker@arr)');
    expect(failure(() => decodeMarketEvent('!miniTicker@arr', parseJsonLossless(`[${MINI},${TICKER}]`))).message).toBe('24hrMiniTicker.[1].e: expected "24hrMiniTicker" in this array, got "24hrTicker"');
    expect(failure(() => decodeMarketEvent('!ticker@arr', parseJsonLossless(`[${TICKER.replace('"n":1001', '"n":"x"')}]`))).message).toBe('24hrTicker.[0].n: expected an integer (time in ms or count), got "x"');
    expect(failure(() => decodeMarketEvent(undefined, [{ e: 'depth' }])).message).toBe('event.[0].e: unknown array event type "depth"');
  });

  it('an unknown event type, and a payload that is no event, are DecodeErrors saying so', () => {
    expect(failure(() => decodeMarketEvent('btcphp@all-order', { e: 'allOrder', E: 1 })).message).toBe('event.e: unknown market event type "allOrder" on stream btcphp@all-order');
    expect(failure(() => decodeMarketEvent(undefined, { e: 'executionReport' })).message).toBe('event.e: unknown market event type "executionReport"');
    expect(failure(() => decodeMarketEvent(undefined, 'pong')).message).toBe('event.(payload): expected a market event object or array, got string');
    expect(failure(() => decodeMarketEvent(undefined, null)).message).toBe('event.(payload): expected a market event object or array, got null');
  });
});
