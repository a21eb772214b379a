/**
 * The rolling 24 h ticker (spec 2.6 24hr ticker; notes 4 `@ticker`, 5.3). The window ends now and
 * starts 24 h earlier floored to the minute (up to 59,999 ms wider, as the venue's), so it is
 * exactly the 1m klines opening in [start, now]: no separate trade log is needed.
 * `priceChangePercent` is a fraction by default, as the real service sends it (notes 5.3).
 */
import { ZERO, toWire, type Dec } from '../../core/money/decimal.ts';
import { DAY_MS, MINUTE_MS } from '../../core/market/intervals.ts';
import type { KlineSeries } from './kline-series.ts';
import { DERIVED_PRICE_PLACES, type BookSource, type Level, type StoredTrade } from './types.ts';

export interface Ticker24Stats {
  symbol: string;
  openTime: number;
  closeTime: number;
  open: Dec;
  high: Dec;
  low: Dec;
  last: Dec;
  lastQty: Dec;
  /** Last price before the window (notes 4 `x`). */
  prevClose: Dec;
  volume: Dec;
  quoteVolume: Dec;
  count: number;
  /** Trade ids; undefined when the window has none (wire -1). */
  firstId: string | undefined;
  lastId: string | undefined;
}

/** Window start for `now`: 24 h back, floored to the minute. */
export function windowStart(now: number): number {
  return Math.floor((now - DAY_MS) / MINUTE_MS) * MINUTE_MS;
}

export function ticker24Stats(symbol: string, now: number, minutes: KlineSeries, lastTrade: StoredTrade | undefined): Ticker24Stats {
  const openTime = windowStart(now);
  const klines = minutes.between(openTime, now);
  const prev = minutes.before(openTime);
  const prevClose = prev?.close ?? ZERO;
  const first = klines[0];
  const lastK = klines[klines.length - 1];
  if (!first || !lastK) {
    const last = lastTrade?.price ?? prevClose;
    return { symbol, openTime, closeTime: now, open: ZERO, high: ZERO, low: ZERO, last, lastQty: ZERO, prevClose, volume: ZERO, quoteVolume: ZERO, count: 0, firstId: undefined, lastId: undefined };
  }
  let high = first.high;
  let low = first.low;
  let volume = ZERO;
  let quoteVolume = ZERO;
  let count = 0;
  for (const k of klines) {
    if (k.high.gt(high)) high = k.high;
    if (k.low.lt(low)) low = k.low;
    volume = volume.plus(k.volume);
    quoteVolume = quoteVolume.plus(k.quoteVolume);
    count += k.trades;
  }
  const lastQty = lastTrade && lastTrade.time >= openTime ? lastTrade.qty : ZERO;
  return {
    symbol,
    openTime,
    closeTime: now,
    open: first.open,
    high,
    low,
    last: lastK.close,
    lastQty,
    prevClose,
    volume,
    quoteVolume,
    count,
    firstId: klines.find((k) => k.firstId !== undefined)?.firstId,
    lastId: [...klines].reverse().find((k) => k.lastId !== undefined)?.lastId,
  };
}

export function priceChange(s: Ticker24Stats): Dec {
  return s.open.isZero() ? ZERO : s.last.minus(s.open);
}

/** Fraction (notes 5.3) or, with the variant, percent. */
export function priceChangePercent(s: Ticker24Stats, inPercent: boolean): string {
  if (s.open.isZero()) return '0';
  const fraction = priceChange(s).div(s.open);
  return toWire(inPercent ? fraction.times(100).toDecimalPlaces(2) : fraction.toDecimalPlaces(4));
}

export function weightedAvgPrice(s: Ticker24Stats): string {
  return s.volume.isZero() ? '0' : toWire(s.quoteVolume.div(s.volume).toDecimalPlaces(DERIVED_PRICE_PLACES));
}

/** Best bid and ask `[price, qty]`, "0" when a side is empty. */
export interface BookTop {
  bid: Level;
  ask: Level;
  updateId: bigint;
}

/** Top of the book from the engine; "0" sides when empty or without a source. */
export function readBookTop(book: BookSource | undefined, symbol: string): BookTop {
  if (!book) return { bid: ['0', '0'], ask: ['0', '0'], updateId: 0n };
  const d = book.depth(symbol, 1);
  return { bid: d.bids[0] ?? ['0', '0'], ask: d.asks[0] ?? ['0', '0'], updateId: BigInt(d.lastUpdateId) };
}
