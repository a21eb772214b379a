/**
 * Klines of one symbol and one interval, aggregated from trades (spec 2.6 kline, 4.4 klines;
 * notes 4 kline payload). Kept sorted by open time; only periods that saw a trade (or were seeded)
 * exist: the sandbox does not invent flat candles for quiet periods.
 */
import { D, ZERO, toWire, type Dec } from '../../core/money/decimal.ts';
import { periodClose, periodOpen, type KlineInterval } from '../../core/market/intervals.ts';
import type { StoredTrade } from './types.ts';

export interface KlineAgg {
  openTime: number;
  closeTime: number;
  open: Dec;
  high: Dec;
  low: Dec;
  close: Dec;
  volume: Dec;
  quoteVolume: Dec;
  trades: number;
  takerBuyVolume: Dec;
  takerBuyQuoteVolume: Dec;
  /** First/last trade id; undefined for seeded history (wire -1). */
  firstId: string | undefined;
  lastId: string | undefined;
}

/** The 11 positional items of spec 2.6. */
export type KlineRow = [number, string, string, string, string, string, number, string, number, string, string];

export interface KlineQuery {
  startTime?: number | undefined;
  endTime?: number | undefined;
  limit?: number | undefined;
}

export const KLINE_LIMIT_DEFAULT = 500;
export const KLINE_LIMIT_MAX = 1000;

export class KlineSeries {
  private readonly items: KlineAgg[] = [];

  constructor(
    readonly interval: KlineInterval,
    private readonly cap: number,
  ) {}

  addTrade(trade: StoredTrade): KlineAgg {
    const openTime = periodOpen(this.interval, trade.time);
    const k = this.slot(openTime);
    // Seeded klines carry no trades; the first real trade may still arrive out of order.
    if (k.trades === 0 && k.volume.isZero()) {
      k.open = trade.price;
      k.high = trade.price;
      k.low = trade.price;
    }
    k.high = D.max(k.high, trade.price);
    k.low = D.min(k.low, trade.price);
    k.close = trade.price;
    k.volume = k.volume.plus(trade.qty);
    k.quoteVolume = k.quoteVolume.plus(trade.quote);
    k.trades += 1;
    // The taker bought when the buyer was not the maker.
    if (!trade.buyerIsMaker) {
      k.takerBuyVolume = k.takerBuyVolume.plus(trade.qty);
      k.takerBuyQuoteVolume = k.takerBuyQuoteVolume.plus(trade.quote);
    }
    k.firstId ??= trade.id;
    k.lastId = trade.id;
    return k;
  }

  /** Pre-load history (e.g. a replay); replaces a kline with the same open time. */
  seed(row: KlineRow): void {
    const openTime = periodOpen(this.interval, row[0]);
    const k = this.slot(openTime);
    k.open = new D(row[1]);
    k.high = new D(row[2]);
    k.low = new D(row[3]);
    k.close = new D(row[4]);
    k.volume = new D(row[5]);
    k.quoteVolume = new D(row[7]);
    k.trades = row[8];
    k.takerBuyVolume = new D(row[9]);
    k.takerBuyQuoteVolume = new D(row[10]);
  }

  at(openTime: number): KlineAgg | undefined {
    const i = this.search(openTime);
    const k = this.items[i];
    return k?.openTime === openTime ? k : undefined;
  }

  latest(): KlineAgg | undefined {
    return this.items[this.items.length - 1];
  }

  /** The last kline opening before `time`. */
  before(time: number): KlineAgg | undefined {
    return this.items[this.search(time) - 1];
  }

  /** Klines opening in [from, to], oldest first. */
  between(from: number, to: number): KlineAgg[] {
    return this.items.slice(this.search(from), this.search(to + 1));
  }

  /** Spec 4.4: oldest first; without times the most recent `limit`. */
  query(q: KlineQuery): KlineAgg[] {
    const limit = clampLimit(q.limit);
    const from = q.startTime ?? -Infinity;
    const to = q.endTime ?? Infinity;
    const hits = this.between(from, to);
    return q.startTime === undefined ? hits.slice(-limit) : hits.slice(0, limit);
  }

  get size(): number {
    return this.items.length;
  }

  private slot(openTime: number): KlineAgg {
    const last = this.items[this.items.length - 1];
    if (last?.openTime === openTime) return last;
    const i = last === undefined || openTime > last.openTime ? this.items.length : this.search(openTime);
    const found = this.items[i];
    if (found?.openTime === openTime) return found;
    const k = emptyKline(openTime, periodClose(this.interval, openTime));
    this.items.splice(i, 0, k);
    if (this.items.length > this.cap) this.items.splice(0, this.items.length - this.cap);
    return k;
  }

  /** Index of the first kline with openTime >= t. */
  private search(t: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.items[mid] as KlineAgg).openTime < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return KLINE_LIMIT_DEFAULT;
  return limit <= 0 || limit > KLINE_LIMIT_MAX ? KLINE_LIMIT_MAX : Math.floor(limit);
}

function emptyKline(openTime: number, closeTime: number): KlineAgg {
  return {
    openTime,
    closeTime,
    open: ZERO,
    high: ZERO,
    low: ZERO,
    close: ZERO,
    volume: ZERO,
    quoteVolume: ZERO,
    trades: 0,
    takerBuyVolume: ZERO,
    takerBuyQuoteVolume: ZERO,
    firstId: undefined,
    lastId: undefined,
  };
}

export function toKlineRow(k: KlineAgg): KlineRow {
  return [
    k.openTime,
    toWire(k.open),
    toWire(k.high),
    toWire(k.low),
    toWire(k.close),
    toWire(k.volume),
    k.closeTime,
    toWire(k.quoteVolume),
    k.trades,
    toWire(k.takerBuyVolume),
    toWire(k.takerBuyQuoteVolume),
  ];
}
