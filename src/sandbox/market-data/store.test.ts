import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { stringifyWire } from '../wire-json.ts';
import { MarketDataStore } from './store.ts';
import type { BookSource } from './types.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
let nextId = 1375445991893797391n;

function fill(store: MarketDataStore, time: number, price: string, qty: string, buyerIsMaker = false, symbol = 'BTCPHP') {
  const id = String(nextId++);
  return store.trade(symbol, { id, price, qty, buyerOrderId: '11', sellerOrderId: '12', time, buyerIsMaker, aggregateId: id });
}

const book: BookSource = {
  depth: () => ({ lastUpdateId: 7, bids: [['99', '2']], asks: [['101', '3']] }),
};

describe('MarketDataStore klines', () => {
  it('aggregates OHLC, volumes, taker-buy volumes, counts and trade ids per period', () => {
    const store = new MarketDataStore(new VirtualClock(T0));
    const a = fill(store, T0 + 1_000, '100', '1', false); // taker buy
    fill(store, T0 + 2_000, '105.5', '2', true); // taker sell
    const c = fill(store, T0 + 59_999, '98', '0.5', false); // taker buy, same minute
    fill(store, T0 + 60_000, '99', '1'); // next minute
    const rows = store.klines('btcphp', '1m');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual([T0, '100', '105.5', '98', '98', '3.5', T0 + 59_999, '360', 3, '1.5', '149']);
    expect(rows[1]?.[0]).toBe(T0 + 60_000);
    const k = store.kline('BTCPHP', '1m', T0);
    expect([k?.firstId, k?.lastId]).toEqual([a.id, c.id]);
    // The hour holds all four.
    expect(store.klines('BTCPHP', '1h')).toEqual([[T0, '100', '105.5', '98', '99', '4.5', T0 + 3_599_999, '459', 4, '2.5', '248']]);
  });

  it('places a late trade into its own period and keeps rows sorted', () => {
    const store = new MarketDataStore(new VirtualClock(T0));
    fill(store, T0 + 120_000, '1', '1');
    fill(store, T0, '2', '1');
    expect(store.klines('BTCPHP', '1m').map((r) => r[0])).toEqual([T0, T0 + 120_000]);
  });

  it('answers startTime/endTime/limit queries oldest first, the most recent without times', () => {
    const store = new MarketDataStore(new VirtualClock(T0));
    for (let i = 0; i < 10; i++) fill(store, T0 + i * 60_000, String(100 + i), '1');
    const open = (r: unknown[]) => r[0];
    expect(store.klines('BTCPHP', '1m', { limit: 3 }).map(open)).toEqual([7, 8, 9].map((i) => T0 + i * 60_000));
    expect(store.klines('BTCPHP', '1m', { startTime: T0 + 60_000, limit: 2 }).map(open)).toEqual([T0 + 60_000, T0 + 120_000]);
    expect(store.klines('BTCPHP', '1m', { startTime: T0 + 1, endTime: T0 + 180_000 }).map(open)).toEqual([1, 2, 3].map((i) => T0 + i * 60_000));
    expect(store.klines('BTCPHP', '1m', { endTime: T0 + 120_000, limit: 2 }).map(open)).toEqual([T0 + 60_000, T0 + 120_000]);
    expect(store.klines('BTCPHP', '1m')).toHaveLength(10);
    expect(store.klines('NOPE', '1m')).toEqual([]);
  });

  it('seeds history and aggregates trades on top', () => {
    const store = new MarketDataStore(new VirtualClock(T0));
    store.seedKlines('BTCPHP', '1h', [[T0, '10', '12', '9', '11', '5', T0 + 3_599_999, '55', 7, '2', '22']]);
    fill(store, T0 + 10, '13', '1');
    expect(store.klines('BTCPHP', '1h')).toEqual([[T0, '10', '13', '9', '13', '6', T0 + 3_599_999, '68', 8, '3', '35']]);
  });
});

describe('MarketDataStore trades, tickers and avgPrice', () => {
  it('serves recent trades oldest first with quoteQty = price x qty (variant: qty), ids as bare numbers', () => {
    const store = new MarketDataStore(new VirtualClock(T0), undefined, { recentTrades: 3 });
    const first = fill(store, T0, '2.5', '4');
    for (let i = 0; i < 3; i++) fill(store, T0 + i, '3', '1');
    const trades = store.recentTrades('btcphp');
    expect(trades).toHaveLength(3);
    expect(trades.map((t) => t.id)).not.toContain(BigInt(first.id));
    const one = new MarketDataStore(new VirtualClock(T0));
    const t = fill(one, T0, '2.5', '4', true);
    expect(stringifyWire(one.recentTrades('BTCPHP', 1))).toBe(
      `[{"id":${t.id},"price":"2.5","qty":"4","quoteQty":"10","time":${T0},"isBuyerMaker":true,"isBestMatch":true}]`,
    );
    const variant = new MarketDataStore(new VirtualClock(T0), undefined, { variants: { tradeQuoteQtyIsQty: true, numbersAsStrings: true } });
    fill(variant, T0, '2.5', '4');
    expect(variant.recentTrades('BTCPHP')[0]).toMatchObject({ quoteQty: '4', time: String(T0) });
  });

  it('floors the 24 h window start to the minute and reports a fraction change', async () => {
    const clock = new VirtualClock(T0);
    const store = new MarketDataStore(clock, book);
    // Before the window: 24 h + 90 s before "now" (now = T0 + 1 day + 30 s).
    fill(store, T0 - 60_000, '80', '1');
    fill(store, T0 + 10_000, '100', '1'); // inside: window starts at T0 (floored from T0 + 30 s)
    fill(store, T0 + 20_000, '110', '3');
    await clock.set(T0 + 86_400_000 + 30_000);
    const t = store.ticker24hr('btcphp');
    expect(t).toMatchObject({
      symbol: 'BTCPHP',
      openTime: T0,
      closeTime: T0 + 86_430_000,
      openPrice: '100',
      highPrice: '110',
      lowPrice: '100',
      lastPrice: '110',
      lastQty: '3',
      prevClosePrice: '80',
      priceChange: '10',
      priceChangePercent: '0.1',
      weightedAvgPrice: '107.5',
      volume: '4',
      quoteVolume: '430',
      count: 2,
      bidPrice: '99',
      askQty: '3',
    });
    // 31 s later the window starts a minute later and the T0 minute drops out.
    await clock.advance(31_000);
    expect(store.ticker24hr('BTCPHP')).toMatchObject({ count: 0, volume: '0', lastPrice: '110', firstId: -1n });
    const pct = new MarketDataStore(clock, book, { variants: { priceChangeInPercent: true } });
    fill(pct, clock.now() - 1000, '200', '1');
    fill(pct, clock.now() - 500, '201', '1');
    expect(pct.ticker24hr('BTCPHP').priceChangePercent).toBe('0.5');
  });

  it('averages the last avgPriceMins minutes by volume, falling back to the last price', async () => {
    const clock = new VirtualClock(T0);
    const store = new MarketDataStore(clock, book, { avgPriceMins: 5 });
    expect(store.avgPrice('BTCPHP')).toEqual({ mins: 5, price: '0' });
    fill(store, T0 - 301_000, '1000', '100'); // outside the window
    fill(store, T0 - 200_000, '10', '1');
    fill(store, T0 - 100_000, '20', '3');
    expect(store.avgPrice('BTCPHP')).toEqual({ mins: 5, price: '17.5' });
    await clock.advance(300_000);
    expect(store.avgPrice('btcphp')).toEqual({ mins: 5, price: '20' });
    expect(store.priceTicker('btcphp')).toEqual({ symbol: 'BTCPHP', price: '20' });
    expect(store.bookTicker('btcphp')).toEqual({ symbol: 'BTCPHP', bidPrice: '99', bidQty: '2', askPrice: '101', askQty: '3' });
  });
});
