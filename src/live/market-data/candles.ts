/**
 * Bars as the pipeline hands them on (spec 2.6 kline: open time, o/h/l/c/v, close time; protocol
 * notes 4 kline `k` object), from either source: the stream's `k` object or a REST kline row.
 * Both keep the venue's decimal strings in `exact`, so a stream bar and the REST bar of the same
 * period compare equal field by field.
 */
import { candleFromText, type Candle } from '../../core/indicators/candle.ts';
import type { Kline } from '../../exchange/codecs/market.ts';
import type { KlineBar } from '../../exchange/streams/market-payload-types.ts';
import type { KlineInput } from '../../journal/klines/kline-store.ts';
import type { Interval } from '../../strategy/types.ts';

export function candleOfStream(k: KlineBar): Candle {
  return candleFromText(k.openTime, k.closeTime, k);
}

export function candleOfRest(k: Kline): Candle {
  return candleFromText(k.openTime, k.closeTime, k);
}

/** `btcusdt@kline_1m`: stream names use lower-case symbols (notes 1). */
export function klineStream(symbol: string, interval: Interval): string {
  return `${symbol.toLowerCase()}@kline_${interval}`;
}
export function tradeStream(symbol: string): string {
  return `${symbol.toLowerCase()}@trade`;
}
export function bookTickerStream(symbol: string): string {
  return `${symbol.toLowerCase()}@bookTicker`;
}

/** The series key events are routed by (symbols upper-case, as the events carry them). */
export function seriesKey(symbol: string, interval: string): string {
  return `${symbol.toUpperCase()}|${interval}`;
}

/** A journal row for a bar; `source` says where it came from (`live:stream`, `live:rest`, `rest`). */
export function journalRow(symbol: string, interval: Interval, c: Candle, source: string): KlineInput {
  return { symbol, interval, openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source };
}
