/**
 * Shapes shared by the market-data store and the streams: what they need from the matching engine
 * (a `BookSource`), the trade as the store keeps it, and the store's options (spec 2.6, 4.4;
 * protocol notes 4 and 5).
 */
import type { Dec } from '../../core/money/decimal.ts';

/** A price level `[price, qty]` as decimal strings. */
export type Level = [string, string];

/** A top-of-book snapshot. `lastUpdateId` counts every change of the book (spec 2.6). */
export interface DepthSnapshot {
  lastUpdateId: number | bigint | string;
  bids: Level[];
  asks: Level[];
}

/**
 * What the store and streams read from the matching engine. Contract: when the engine calls
 * `SandboxEventSink.bookChanged(symbol, ...)` the source already shows that change and its
 * `lastUpdateId` has grown by at least one, so diff-depth `U`/`u` match the REST snapshot.
 */
export interface BookSource {
  /** Best `limit` levels per side, bids descending, asks ascending. */
  depth(symbol: string, limit: number): DepthSnapshot;
  /** Current update id; optional fast path (else read from `depth(symbol, 1)`). */
  lastUpdateId?(symbol: string): number | bigint | string;
}

/** One public trade (one fill), parsed once. */
export interface StoredTrade {
  id: string;
  price: Dec;
  qty: Dec;
  /** price x qty. */
  quote: Dec;
  time: number;
  buyerIsMaker: boolean;
  buyerOrderId: string;
  sellerOrderId: string;
  aggregateId: string;
}

/** Wire variants of protocol notes 5 (the spec value is the default). */
export interface MarketDataVariants {
  /** Notes 5.4: public trade `quoteQty` carries the base qty, as the real service does. */
  tradeQuoteQtyIsQty?: boolean;
  /** Notes 5.2: trade `id`/`time`, ticker `openTime`/`closeTime`/`firstId`/`lastId`/`count` as strings. */
  numbersAsStrings?: boolean;
  /** Notes 5.3: `priceChangePercent` in percent (1.44) instead of the real fraction (0.0144). */
  priceChangeInPercent?: boolean;
}

export interface MarketDataOptions {
  /** Trades kept per symbol for GET trades (spec 4.4 max 1000). Default 1000. */
  recentTrades?: number;
  /** Klines kept per symbol and interval; at least 1500 keeps a 24 h ticker exact. Default 10000. */
  klineHistory?: number;
  /** avgPrice window in minutes (spec 2.6 `mins`). Default 5. */
  avgPriceMins?: number;
  /**
   * Per upper-case symbol, the avgPriceMins of its PERCENT_PRICE (weighted) and PERCENT_PRICE_SA
   * (simple) filters: the windows `referencePrices` averages over. Symbols without them get none.
   */
  referenceMins?: (symbol: string) => { weighted?: number | undefined; simple?: number | undefined } | undefined;
  variants?: MarketDataVariants;
}

/** Decimal places of derived prices (weighted average, avgPrice); trailing zeros are dropped. */
export const DERIVED_PRICE_PLACES = 8;
