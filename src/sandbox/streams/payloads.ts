/**
 * Market stream payloads (protocol notes 4). Ids are `bigint` so `stringifyWire` writes them as
 * bare JSON numbers (they exceed 2^53); times and counts are numbers; amounts decimal strings.
 */
import { toWire } from '../../core/money/decimal.ts';
import type { KlineInterval } from '../../core/market/intervals.ts';
import type { KlineAgg } from '../market-data/kline-series.ts';
import { priceChange, priceChangePercent, weightedAvgPrice, type BookTop, type Ticker24Stats } from '../market-data/ticker.ts';
import type { DepthSnapshot, StoredTrade } from '../market-data/types.ts';

/** An id as a JSON number when it is an integer (the wire's type), else the text as given. */
export function idOut(id: string | number | bigint | undefined): bigint | string {
  if (id === undefined) return -1n;
  if (typeof id !== 'string') return BigInt(id);
  return /^-?\d+$/.test(id) ? BigInt(id) : id;
}

export function tradePayload(symbol: string, t: StoredTrade, E: number) {
  return { e: 'trade', E, s: symbol, t: idOut(t.id), p: toWire(t.price), q: toWire(t.qty), b: idOut(t.buyerOrderId), a: idOut(t.sellerOrderId), T: t.time, m: t.buyerIsMaker, M: true };
}

/** Fills of one taker order at one price. */
export interface AggTrade {
  a: bigint;
  price: StoredTrade['price'];
  qty: StoredTrade['qty'];
  firstId: string;
  lastId: string;
  time: number;
  buyerIsMaker: boolean;
}

export function aggTradePayload(symbol: string, g: AggTrade, E: number) {
  return { e: 'aggTrade', E, s: symbol, a: g.a, p: toWire(g.price), q: toWire(g.qty), f: idOut(g.firstId), l: idOut(g.lastId), T: g.time, m: g.buyerIsMaker, M: true };
}

export function klinePayload(symbol: string, interval: KlineInterval, k: KlineAgg, closed: boolean, E: number) {
  return {
    e: 'kline',
    E,
    s: symbol,
    k: {
      t: k.openTime,
      T: k.closeTime,
      s: symbol,
      i: interval,
      f: idOut(k.firstId),
      L: idOut(k.lastId),
      o: toWire(k.open),
      c: toWire(k.close),
      h: toWire(k.high),
      l: toWire(k.low),
      v: toWire(k.volume),
      n: k.trades,
      x: closed,
      q: toWire(k.quoteVolume),
      V: toWire(k.takerBuyVolume),
      Q: toWire(k.takerBuyQuoteVolume),
      B: '0',
    },
  };
}

export function miniTickerPayload(s: Ticker24Stats, E: number) {
  return { e: '24hrMiniTicker', E, s: s.symbol, c: toWire(s.last), o: toWire(s.open), h: toWire(s.high), l: toWire(s.low), v: toWire(s.volume), q: toWire(s.quoteVolume) };
}

export function tickerPayload(s: Ticker24Stats, top: BookTop, E: number, inPercent: boolean) {
  return {
    e: '24hrTicker',
    E,
    s: s.symbol,
    p: toWire(priceChange(s)),
    P: priceChangePercent(s, inPercent),
    w: weightedAvgPrice(s),
    x: toWire(s.prevClose),
    c: toWire(s.last),
    Q: toWire(s.lastQty),
    b: top.bid[0],
    B: top.bid[1],
    a: top.ask[0],
    A: top.ask[1],
    o: toWire(s.open),
    h: toWire(s.high),
    l: toWire(s.low),
    v: toWire(s.volume),
    q: toWire(s.quoteVolume),
    O: s.openTime,
    C: s.closeTime,
    F: idOut(s.firstId),
    L: idOut(s.lastId),
    n: s.count,
  };
}

/** Notes 4: bookTicker has no e/E. */
export function bookTickerPayload(symbol: string, top: BookTop) {
  return { u: top.updateId, s: symbol, b: top.bid[0], B: top.bid[1], a: top.ask[0], A: top.ask[1] };
}

export function depthPayload(symbol: string, d: DepthSnapshot, E: number) {
  return { s: symbol, e: 'depth', E, lastUpdateId: idOut(d.lastUpdateId), bids: d.bids, asks: d.asks };
}

/** A payload's content without its event time, to tell "changed" pushes from repeats. */
export function signature(payload: Record<string, unknown>, ignore: readonly string[] = ['E']): string {
  const copy: Record<string, unknown> = { ...payload };
  for (const k of ignore) delete copy[k];
  return JSON.stringify(copy, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
