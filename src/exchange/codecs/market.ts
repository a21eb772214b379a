/**
 * Response codecs of the public market data endpoints (spec 2.6, 4.4; notes 5).
 *
 * Prices, quantities and volumes decode to decimal strings, times and counts to numbers, trade and
 * update ids to exact decimal strings (notes 5.1: trade ids exceed 2^53). Numeric fields may arrive
 * as strings on the real service (notes 5.2); the shared codecs accept both.
 */
import { z } from 'zod';
import { zBool, zDec, zId, zNum, obj } from './common.ts';

/** One book level `[PRICE, QTY]`; extra trailing items, if the service ever adds some, are dropped. */
export const zBookLevel = z
  .tuple([zDec, zDec])
  .rest(z.unknown())
  .transform(([price, qty]): readonly [price: string, qty: string] => [price, qty]);

export const zDepth = obj({
  // An id, kept exact: compare with BigInt when syncing a local book against stream `U`/`u`.
  lastUpdateId: zId,
  bids: z.array(zBookLevel),
  asks: z.array(zBookLevel),
});
export type Depth = z.infer<typeof zDepth>;

export const zRecentTrade = obj({
  id: zId,
  price: zDec,
  qty: zDec,
  // Notes 5.4: the real service sends the base quantity here; compute quote as price x qty.
  quoteQty: zDec,
  time: zNum,
  isBuyerMaker: zBool,
  isBestMatch: zBool,
});
export type RecentTrade = z.infer<typeof zRecentTrade>;

/**
 * A kline row: 11 positional items (spec 2.6). The real service may append a 12th (ignored), so
 * the tuple takes a rest. Decoded to named members: positions are easy to get wrong downstream.
 */
export const zKline = z
  .tuple([zNum, zDec, zDec, zDec, zDec, zDec, zNum, zDec, zNum, zDec, zDec])
  .rest(z.unknown())
  .transform(([openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyBaseVolume, takerBuyQuoteVolume]) => ({
    openTime,
    open,
    high,
    low,
    close,
    volume,
    closeTime,
    quoteVolume,
    trades,
    takerBuyBaseVolume,
    takerBuyQuoteVolume,
  }));
export type Kline = z.infer<typeof zKline>;

export const zTicker24hr = obj({
  symbol: z.string(),
  priceChange: zDec,
  // Notes 5.3: a fraction on the real service ("0.0144" = 1.44 %).
  priceChangePercent: zDec,
  weightedAvgPrice: zDec,
  prevClosePrice: zDec,
  lastPrice: zDec,
  lastQty: zDec,
  bidPrice: zDec,
  bidQty: zDec,
  askPrice: zDec,
  askQty: zDec,
  openPrice: zDec,
  highPrice: zDec,
  lowPrice: zDec,
  volume: zDec,
  quoteVolume: zDec,
  openTime: zNum,
  closeTime: zNum,
  // Trade ids: may exceed 2^53 like any trade id.
  firstId: zId,
  lastId: zId,
  count: zNum,
});
export type Ticker24hr = z.infer<typeof zTicker24hr>;

export const zPriceTicker = obj({ symbol: z.string(), price: zDec });
export type PriceTicker = z.infer<typeof zPriceTicker>;

export const zBookTicker = obj({ symbol: z.string(), bidPrice: zDec, bidQty: zDec, askPrice: zDec, askQty: zDec });
export type BookTicker = z.infer<typeof zBookTicker>;

export const zAvgPrice = obj({ mins: zNum, price: zDec });
export type AvgPrice = z.infer<typeof zAvgPrice>;

/** Notes 5.6: the sample swaps base and quote; take the base/quote split from exchangeInfo. */
export const zPair = obj({ symbol: z.string(), quoteToken: z.string(), baseToken: z.string() });
export type Pair = z.infer<typeof zPair>;

/** Ticker endpoints answer one object for `symbol`, an array otherwise (spec 4.4). */
export const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);
