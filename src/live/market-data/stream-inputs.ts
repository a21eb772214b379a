/**
 * Decoded market events (protocol notes 4) as the strategy inputs the kernel takes
 * (strategy/types.ts TradeInput, BookTopInput). bookTicker carries no time on the wire (notes 4:
 * "no e/E"): it gets the time it was received, on the venue-aligned clock.
 */
import type { BookTickerEvent, TradeEvent } from '../../exchange/streams/market-payload-types.ts';
import type { BookTopInput, TradeInput } from '../../strategy/types.ts';

export function tradeInput(e: TradeEvent): TradeInput {
  return { symbol: e.symbol, id: e.tradeId, price: e.price, qty: e.quantity, time: e.tradeTime, buyerIsMaker: e.buyerIsMaker };
}

export function bookTopInput(e: BookTickerEvent, receivedAt: number): BookTopInput {
  return { symbol: e.symbol, bidPrice: e.bidPrice, bidQty: e.bidQty, askPrice: e.askPrice, askQty: e.askQty, time: receivedAt };
}
