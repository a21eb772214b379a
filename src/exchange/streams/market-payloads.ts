/**
 * Decoders of the market streams (protocol notes 4): each turns one parsed frame (see
 * wire-fields.ts for what the lossless parse hands over) into a type of market-payload-types.ts,
 * or throws a DecodeError naming the event type, the field and the reason. Hand-written for the
 * hot path, as user-payloads.ts explains (zod measured ~9x slower on an executionReport).
 *
 * `decodeMarketEvent(stream, payload)` picks the decoder by `e`. The stream name is needed only
 * where the payload does not say what it is: bookTicker has no `e`, and an empty
 * `!miniTicker@arr` / `!ticker@arr` array has no item to look at. Combined frames
 * (`{"stream":...,"data":...}`) are unwrapped by the caller, which passes `stream` along.
 */
import { DecodeError } from './decode-error.ts';
import type {
  AggTradeEvent,
  BookTickerEvent,
  DepthUpdateEvent,
  KlineEvent,
  MarketStreamEvent,
  MiniTickerArrayEvent,
  MiniTickerEvent,
  PartialDepthEvent,
  TickerArrayEvent,
  TickerEvent,
  TradeEvent,
} from './market-payload-types.ts';
import { amount, flag, id, integer, isWireObject, levels, object, shown, text } from './wire-fields.ts';

const TRADE = 'trade';

export function decodeTrade(payload: unknown): TradeEvent {
  const o = object(payload, TRADE, '(payload)');
  return {
    eventType: TRADE,
    eventTime: integer(o.E, TRADE, 'E'),
    symbol: text(o.s, TRADE, 's'),
    tradeId: id(o.t, TRADE, 't'),
    price: amount(o.p, TRADE, 'p'),
    quantity: amount(o.q, TRADE, 'q'),
    buyerOrderId: id(o.b, TRADE, 'b'),
    sellerOrderId: id(o.a, TRADE, 'a'),
    tradeTime: integer(o.T, TRADE, 'T'),
    buyerIsMaker: flag(o.m, TRADE, 'm'),
  };
}

const AGG = 'aggTrade';

export function decodeAggTrade(payload: unknown): AggTradeEvent {
  const o = object(payload, AGG, '(payload)');
  return {
    eventType: AGG,
    eventTime: integer(o.E, AGG, 'E'),
    symbol: text(o.s, AGG, 's'),
    aggregateId: id(o.a, AGG, 'a'),
    price: amount(o.p, AGG, 'p'),
    quantity: amount(o.q, AGG, 'q'),
    firstTradeId: id(o.f, AGG, 'f'),
    lastTradeId: id(o.l, AGG, 'l'),
    tradeTime: integer(o.T, AGG, 'T'),
    buyerIsMaker: flag(o.m, AGG, 'm'),
  };
}

const KLINE = 'kline';

export function decodeKline(payload: unknown): KlineEvent {
  const o = object(payload, KLINE, '(payload)');
  const k = object(o.k, KLINE, 'k');
  return {
    eventType: KLINE,
    eventTime: integer(o.E, KLINE, 'E'),
    symbol: text(o.s, KLINE, 's'),
    kline: {
      openTime: integer(k.t, KLINE, 'k.t'),
      closeTime: integer(k.T, KLINE, 'k.T'),
      symbol: text(k.s, KLINE, 'k.s'),
      interval: text(k.i, KLINE, 'k.i'),
      firstTradeId: id(k.f, KLINE, 'k.f'),
      lastTradeId: id(k.L, KLINE, 'k.L'),
      open: amount(k.o, KLINE, 'k.o'),
      close: amount(k.c, KLINE, 'k.c'),
      high: amount(k.h, KLINE, 'k.h'),
      low: amount(k.l, KLINE, 'k.l'),
      volume: amount(k.v, KLINE, 'k.v'),
      trades: integer(k.n, KLINE, 'k.n'),
      closed: flag(k.x, KLINE, 'k.x'),
      quoteVolume: amount(k.q, KLINE, 'k.q'),
      takerBuyVolume: amount(k.V, KLINE, 'k.V'),
      takerBuyQuoteVolume: amount(k.Q, KLINE, 'k.Q'),
    },
  };
}

const MINI = '24hrMiniTicker';

export function decodeMiniTicker(payload: unknown): MiniTickerEvent {
  const o = object(payload, MINI, '(payload)');
  return {
    eventType: MINI,
    eventTime: integer(o.E, MINI, 'E'),
    symbol: text(o.s, MINI, 's'),
    close: amount(o.c, MINI, 'c'),
    open: amount(o.o, MINI, 'o'),
    high: amount(o.h, MINI, 'h'),
    low: amount(o.l, MINI, 'l'),
    volume: amount(o.v, MINI, 'v'),
    quoteVolume: amount(o.q, MINI, 'q'),
  };
}

const TICKER = '24hrTicker';

export function decodeTicker(payload: unknown): TickerEvent {
  const o = object(payload, TICKER, '(payload)');
  return {
    eventType: TICKER,
    eventTime: integer(o.E, TICKER, 'E'),
    symbol: text(o.s, TICKER, 's'),
    priceChange: amount(o.p, TICKER, 'p'),
    priceChangePercent: amount(o.P, TICKER, 'P'),
    weightedAvgPrice: amount(o.w, TICKER, 'w'),
    prevClosePrice: amount(o.x, TICKER, 'x'),
    lastPrice: amount(o.c, TICKER, 'c'),
    lastQty: amount(o.Q, TICKER, 'Q'),
    bidPrice: amount(o.b, TICKER, 'b'),
    bidQty: amount(o.B, TICKER, 'B'),
    askPrice: amount(o.a, TICKER, 'a'),
    askQty: amount(o.A, TICKER, 'A'),
    open: amount(o.o, TICKER, 'o'),
    high: amount(o.h, TICKER, 'h'),
    low: amount(o.l, TICKER, 'l'),
    volume: amount(o.v, TICKER, 'v'),
    quoteVolume: amount(o.q, TICKER, 'q'),
    openTime: integer(o.O, TICKER, 'O'),
    closeTime: integer(o.C, TICKER, 'C'),
    firstTradeId: id(o.F, TICKER, 'F'),
    lastTradeId: id(o.L, TICKER, 'L'),
    count: integer(o.n, TICKER, 'n'),
  };
}

const BOOK_TICKER = 'bookTicker';

/** Notes 4: `{u, s, b, B, a, A}`, no `e`/`E`. */
export function decodeBookTicker(payload: unknown): BookTickerEvent {
  const o = object(payload, BOOK_TICKER, '(payload)');
  return {
    eventType: BOOK_TICKER,
    updateId: id(o.u, BOOK_TICKER, 'u'),
    symbol: text(o.s, BOOK_TICKER, 's'),
    bidPrice: amount(o.b, BOOK_TICKER, 'b'),
    bidQty: amount(o.B, BOOK_TICKER, 'B'),
    askPrice: amount(o.a, BOOK_TICKER, 'a'),
    askQty: amount(o.A, BOOK_TICKER, 'A'),
  };
}

const DEPTH = 'depth';

/** `<symbol>@depth<N>`: `{s, e:"depth", E, lastUpdateId, bids, asks}`. */
export function decodePartialDepth(payload: unknown): PartialDepthEvent {
  const o = object(payload, DEPTH, '(payload)');
  return {
    eventType: DEPTH,
    eventTime: integer(o.E, DEPTH, 'E'),
    symbol: text(o.s, DEPTH, 's'),
    lastUpdateId: id(o.lastUpdateId, DEPTH, 'lastUpdateId'),
    bids: levels(o.bids, DEPTH, 'bids'),
    asks: levels(o.asks, DEPTH, 'asks'),
  };
}

const DIFF = 'depthUpdate';

/** `<symbol>@depth`: `{e:"depthUpdate", E, s, U, u, b, a}`. */
export function decodeDepthUpdate(payload: unknown): DepthUpdateEvent {
  const o = object(payload, DIFF, '(payload)');
  const U = id(o.U, DIFF, 'U');
  const u = id(o.u, DIFF, 'u');
  // The local book's rules compare these; an event whose range runs backwards is not one.
  if (BigInt(u) < BigInt(U)) throw new DecodeError(DIFF, 'u', `final update id ${u} is below the first, U ${U}`);
  return {
    eventType: DIFF,
    eventTime: integer(o.E, DIFF, 'E'),
    symbol: text(o.s, DIFF, 's'),
    firstUpdateId: U,
    finalUpdateId: u,
    bids: levels(o.b, DIFF, 'b'),
    asks: levels(o.a, DIFF, 'a'),
  };
}

/** `!miniTicker@arr`: an array of miniTicker events (only the changed ones). */
export function decodeMiniTickerArray(payload: unknown): MiniTickerArrayEvent {
  return { eventType: 'miniTickerArray', tickers: items(payload, MINI, decodeMiniTicker) };
}

/** `!ticker@arr` */
export function decodeTickerArray(payload: unknown): TickerArrayEvent {
  return { eventType: 'tickerArray', tickers: items(payload, TICKER, decodeTicker) };
}

function items<T>(payload: unknown, ev: string, decode: (item: unknown) => T): T[] {
  if (!Array.isArray(payload)) throw new DecodeError(ev, '(payload)', `expected an array of ${ev} events, got ${shown(payload)}`);
  const out = new Array<T>(payload.length);
  for (let i = 0; i < payload.length; i++) {
    const item: unknown = payload[i];
    // An item of the other kind would decode into a ticker made of the wrong fields.
    if (isWireObject(item) && item.e !== ev) throw new DecodeError(ev, `[${String(i)}].e`, `expected ${JSON.stringify(ev)} in this array, got ${shown(item.e)}`);
    try {
      out[i] = decode(item);
    } catch (err) {
      if (err instanceof DecodeError) throw new DecodeError(ev, `[${String(i)}].${err.field}`, err.reason);
      throw err;
    }
  }
  return out;
}

/**
 * One market frame (bare, or the `data` of a combined frame with its `stream`). Unknown event
 * types, and frames that name none where one is needed, are DecodeErrors saying so.
 */
export function decodeMarketEvent(stream: string | undefined, payload: unknown): MarketStreamEvent {
  if (Array.isArray(payload)) return decodeArray(stream, payload);
  if (!isWireObject(payload)) throw new DecodeError('event', '(payload)', `expected a market event object or array, got ${payload === null ? 'null' : typeof payload}`);
  switch (payload.e) {
    case DIFF:
      return decodeDepthUpdate(payload);
    case TRADE:
      return decodeTrade(payload);
    case AGG:
      return decodeAggTrade(payload);
    case DEPTH:
      return decodePartialDepth(payload);
    case KLINE:
      return decodeKline(payload);
    case MINI:
      return decodeMiniTicker(payload);
    case TICKER:
      return decodeTicker(payload);
    case undefined:
      // Notes 4: bookTicker alone carries no `e`; know it by its stream, or by its keys when bare.
      if (stream === undefined ? 'u' in payload && 'b' in payload && 'a' in payload : stream.endsWith(BOOK_TICKER)) return decodeBookTicker(payload);
      throw new DecodeError('event', 'e', `missing: only bookTicker events come without \`e\`${stream === undefined ? '' : `, and stream ${stream} is not one`}`);
    default:
      throw new DecodeError('event', 'e', `unknown market event type ${shown(payload.e)}${stream === undefined ? '' : ` on stream ${stream}`}`);
  }
}

function decodeArray(stream: string | undefined, payload: readonly unknown[]): MarketStreamEvent {
  const first: unknown = payload[0];
  const kind = stream === '!miniTicker@arr' ? MINI : stream === '!ticker@arr' ? TICKER : isWireObject(first) ? first.e : undefined;
  if (kind === MINI) return decodeMiniTickerArray(payload);
  if (kind === TICKER) return decodeTickerArray(payload);
  if (payload.length === 0) throw new DecodeError('event', '(payload)', 'an empty array from an unnamed stream: pass the stream name (!miniTicker@arr or !ticker@arr)');
  throw new DecodeError('event', '[0].e', `unknown array event type ${shown(kind)}${stream === undefined ? '' : ` on stream ${stream}`}`);
}
