/**
 * Market stream payloads once decoded (protocol notes 4): readable names, amounts as decimal
 * strings exactly as sent, ids as decimal strings (lossless, notes 5.1), times and counts as
 * numbers. Fields the notes mark "ignore" (`M`, kline `B`) are not kept.
 */
import type { Level } from './wire-fields.ts';

export type { Level };

/** `<symbol>@trade` */
export interface TradeEvent {
  readonly eventType: 'trade';
  readonly eventTime: number;
  readonly symbol: string;
  /** `t` */
  readonly tradeId: string;
  readonly price: string;
  readonly quantity: string;
  /** `b` */
  readonly buyerOrderId: string;
  /** `a` */
  readonly sellerOrderId: string;
  /** `T` */
  readonly tradeTime: number;
  /** `m` */
  readonly buyerIsMaker: boolean;
}

/** `<symbol>@aggTrade`: the fills of one taker order at one price. */
export interface AggTradeEvent {
  readonly eventType: 'aggTrade';
  readonly eventTime: number;
  readonly symbol: string;
  /** `a` */
  readonly aggregateId: string;
  readonly price: string;
  readonly quantity: string;
  /** `f` */
  readonly firstTradeId: string;
  /** `l` */
  readonly lastTradeId: string;
  readonly tradeTime: number;
  readonly buyerIsMaker: boolean;
}

/** The `k` object of a kline event. */
export interface KlineBar {
  readonly openTime: number;
  readonly closeTime: number;
  readonly symbol: string;
  /** `i`: the interval (`1m`, `1h`, ...) */
  readonly interval: string;
  /** `f` / `L`: first / last trade id (the sandbox sends -1 for a bar without trades) */
  readonly firstTradeId: string;
  readonly lastTradeId: string;
  readonly open: string;
  readonly close: string;
  readonly high: string;
  readonly low: string;
  /** `v`: base volume */
  readonly volume: string;
  /** `n` */
  readonly trades: number;
  /** `x` */
  readonly closed: boolean;
  /** `q` */
  readonly quoteVolume: string;
  /** `V` / `Q` */
  readonly takerBuyVolume: string;
  readonly takerBuyQuoteVolume: string;
}

/** `<symbol>@kline_<interval>` */
export interface KlineEvent {
  readonly eventType: 'kline';
  readonly eventTime: number;
  readonly symbol: string;
  readonly kline: KlineBar;
}

/** `<symbol>@miniTicker`, and each item of `!miniTicker@arr` */
export interface MiniTickerEvent {
  readonly eventType: '24hrMiniTicker';
  readonly eventTime: number;
  readonly symbol: string;
  /** `c` */
  readonly close: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  /** `v` / `q`: base / quote volume */
  readonly volume: string;
  readonly quoteVolume: string;
}

/** `<symbol>@ticker`, and each item of `!ticker@arr`. Rolling 24 h window. */
export interface TickerEvent {
  readonly eventType: '24hrTicker';
  readonly eventTime: number;
  readonly symbol: string;
  /** `p` */
  readonly priceChange: string;
  /** `P`: presumably a fraction (`0.0144` = 1.44 %), as REST (notes 5.3); kept as sent */
  readonly priceChangePercent: string;
  /** `w` */
  readonly weightedAvgPrice: string;
  /** `x`: last price before the window */
  readonly prevClosePrice: string;
  /** `c` / `Q` */
  readonly lastPrice: string;
  readonly lastQty: string;
  /** `b` / `B` / `a` / `A` */
  readonly bidPrice: string;
  readonly bidQty: string;
  readonly askPrice: string;
  readonly askQty: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly volume: string;
  readonly quoteVolume: string;
  /** `O` / `C`: window open / close time */
  readonly openTime: number;
  readonly closeTime: number;
  /** `F` / `L` */
  readonly firstTradeId: string;
  readonly lastTradeId: string;
  /** `n` */
  readonly count: number;
}

/** `!miniTicker@arr`: the tickers that changed. */
export interface MiniTickerArrayEvent {
  readonly eventType: 'miniTickerArray';
  readonly tickers: readonly MiniTickerEvent[];
}

/** `!ticker@arr` */
export interface TickerArrayEvent {
  readonly eventType: 'tickerArray';
  readonly tickers: readonly TickerEvent[];
}

/** `<symbol>@bookTicker` / `!bookTicker`: no `e`/`E` on the wire; `eventType` is ours. */
export interface BookTickerEvent {
  readonly eventType: 'bookTicker';
  /** `u`: book update id */
  readonly updateId: string;
  readonly symbol: string;
  readonly bidPrice: string;
  readonly bidQty: string;
  readonly askPrice: string;
  readonly askQty: string;
}

/** `<symbol>@depth<N>[@100ms]`: a top-N snapshot. */
export interface PartialDepthEvent {
  readonly eventType: 'depth';
  readonly eventTime: number;
  readonly symbol: string;
  readonly lastUpdateId: string;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/** `<symbol>@depth[@100ms]`: levels changed since the previous push, quantities absolute. */
export interface DepthUpdateEvent {
  readonly eventType: 'depthUpdate';
  readonly eventTime: number;
  readonly symbol: string;
  /** `U` */
  readonly firstUpdateId: string;
  /** `u` */
  readonly finalUpdateId: string;
  /** `b` / `a`: "0" quantity removes the level */
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

export type MarketStreamEvent =
  | TradeEvent
  | AggTradeEvent
  | KlineEvent
  | MiniTickerEvent
  | MiniTickerArrayEvent
  | TickerEvent
  | TickerArrayEvent
  | BookTickerEvent
  | PartialDepthEvent
  | DepthUpdateEvent;
