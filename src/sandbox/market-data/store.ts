/**
 * The sandbox's market data, derived from what really trades in it (issue "Sandbox exchange",
 * deliverable 6; spec 2.6 shapes, 4.4 endpoints; notes 4, 5). Per upper-case symbol: a ring of
 * recent trades, klines of every interval of spec 2.1, a 24 h ticker read off the 1m klines, and the
 * avgPrice window. Book-derived answers (book ticker, ticker bid/ask) read the engine's `BookSource`.
 *
 * It implements `SandboxEventSink` so it can be wired to the engine alone; with streams attached,
 * wire the engine to the `StreamServer` instead, which feeds this store first (never both).
 * Answers are wire-ready: ids are `bigint` (bare JSON numbers via `stringifyWire`), amounts strings.
 */
import { dec, toWire } from '../../core/money/decimal.ts';
import type { Clock } from '../../ports/clock.ts';
import type { SandboxEventSink } from '../contracts.ts';
import { wireId } from '../wire-json.ts';
import { AvgPriceWindow } from './avg-price.ts';
import { KLINE_INTERVALS, type KlineInterval } from '../../core/market/intervals.ts';
import { KlineSeries, toKlineRow, type KlineAgg, type KlineQuery, type KlineRow } from './kline-series.ts';
import { priceChange, priceChangePercent, readBookTop, ticker24Stats, weightedAvgPrice, type BookTop, type Ticker24Stats } from './ticker.ts';
import { TradeRing, tradesLimit } from './trade-ring.ts';
import type { BookSource, MarketDataOptions, MarketDataVariants, StoredTrade } from './types.ts';

type SinkTrade = Parameters<SandboxEventSink['trade']>[1];

interface SymbolData {
  ring: TradeRing;
  klines: Map<KlineInterval, KlineSeries>;
  avg: AvgPriceWindow;
  /** The PERCENT_PRICE / PERCENT_PRICE_SA windows, when the symbol has those filters. */
  weighted: AvgPriceWindow | undefined;
  simple: AvgPriceWindow | undefined;
}

export class MarketDataStore implements SandboxEventSink {
  private readonly data = new Map<string, SymbolData>();
  private readonly ringSize: number;
  private readonly klineCap: number;
  readonly avgPriceMins: number;
  readonly variants: MarketDataVariants;
  private readonly referenceMins: MarketDataOptions['referenceMins'];

  constructor(
    private readonly clock: Clock,
    private readonly book?: BookSource,
    options: MarketDataOptions = {},
  ) {
    this.ringSize = options.recentTrades ?? 1000;
    this.klineCap = Math.max(options.klineHistory ?? 10_000, 1500);
    this.avgPriceMins = options.avgPriceMins ?? 5;
    this.variants = options.variants ?? {};
    this.referenceMins = options.referenceMins;
  }

  /** Record one fill; returns it parsed (the streams build their payloads from it). */
  trade(symbol: string, t: SinkTrade): StoredTrade {
    const price = dec(t.price, 'price');
    const qty = dec(t.qty, 'qty');
    const stored: StoredTrade = { ...t, price, qty, quote: price.times(qty) };
    const d = this.symbolData(symbol);
    d.ring.push(stored);
    for (const series of d.klines.values()) series.addTrade(stored);
    d.avg.add(stored);
    d.weighted?.add(stored);
    d.simple?.add(stored);
    return stored;
  }

  /** The book is read from the `BookSource` on demand; nothing to keep. */
  bookChanged(): void {}

  user(): void {}

  /** Symbols that have traded or were seeded, upper case. */
  symbols(): string[] {
    return [...this.data.keys()];
  }

  /** GET trades (spec 2.6 recent trade), oldest first. */
  recentTrades(symbol: string, limit?: number) {
    const d = this.data.get(symbol.toUpperCase());
    const asStr = this.variants.numbersAsStrings === true;
    return (d?.ring.recent(tradesLimit(limit)) ?? []).map((t) => ({
      id: asStr ? t.id : wireId(t.id),
      price: toWire(t.price),
      qty: toWire(t.qty),
      quoteQty: toWire(this.variants.tradeQuoteQtyIsQty ? t.qty : t.quote),
      time: asStr ? String(t.time) : t.time,
      isBuyerMaker: t.buyerIsMaker,
      isBestMatch: true,
    }));
  }

  /** GET klines rows (spec 2.6), oldest first. */
  klines(symbol: string, interval: KlineInterval, q: KlineQuery = {}): KlineRow[] {
    return this.series(symbol, interval)?.query(q).map(toKlineRow) ?? [];
  }

  /** One kline by open time (streams). */
  kline(symbol: string, interval: KlineInterval, openTime: number): KlineAgg | undefined {
    return this.series(symbol, interval)?.at(openTime);
  }

  latestKline(symbol: string, interval: KlineInterval): KlineAgg | undefined {
    return this.series(symbol, interval)?.latest();
  }

  /** Klines kept per symbol and interval (older ones are dropped): what seeding more would waste. */
  get klineCapacity(): number {
    return this.klineCap;
  }

  /** Pre-load history rows for one interval (e.g. a replay); trades still aggregate on top. */
  seedKlines(symbol: string, interval: KlineInterval, rows: readonly KlineRow[]): void {
    const series = this.symbolData(symbol).klines.get(interval) as KlineSeries;
    for (const row of rows) series.seed(row);
  }

  tickerStats(symbol: string): Ticker24Stats {
    const s = symbol.toUpperCase();
    const d = this.data.get(s);
    const minutes = d?.klines.get('1m') ?? new KlineSeries('1m', 1);
    return ticker24Stats(s, this.clock.now(), minutes, d?.ring.last());
  }

  /** GET ticker/24hr, one symbol (spec 2.6). */
  ticker24hr(symbol: string) {
    const s = this.tickerStats(symbol);
    const top = this.bookTop(s.symbol);
    const asStr = this.variants.numbersAsStrings === true;
    const num = (n: number) => (asStr ? String(n) : n);
    const id = (v: string | undefined) => (asStr ? (v ?? '-1') : wireId(v ?? -1));
    return {
      symbol: s.symbol,
      priceChange: toWire(priceChange(s)),
      priceChangePercent: priceChangePercent(s, this.variants.priceChangeInPercent === true),
      weightedAvgPrice: weightedAvgPrice(s),
      prevClosePrice: toWire(s.prevClose),
      lastPrice: toWire(s.last),
      lastQty: toWire(s.lastQty),
      bidPrice: top.bid[0],
      bidQty: top.bid[1],
      askPrice: top.ask[0],
      askQty: top.ask[1],
      openPrice: toWire(s.open),
      highPrice: toWire(s.high),
      lowPrice: toWire(s.low),
      volume: toWire(s.volume),
      quoteVolume: toWire(s.quoteVolume),
      openTime: num(s.openTime),
      closeTime: num(s.closeTime),
      firstId: id(s.firstId),
      lastId: id(s.lastId),
      count: num(s.count),
    };
  }

  /** GET ticker/price: the last trade price, "0" before any trade. */
  priceTicker(symbol: string): { symbol: string; price: string } {
    const s = symbol.toUpperCase();
    const last = this.data.get(s)?.ring.last();
    const latest = last ? undefined : this.latestKline(s, '1m');
    return { symbol: s, price: toWire(last?.price ?? latest?.close ?? '0') };
  }

  /** GET avgPrice (spec 2.6 `{mins, price}`). */
  avgPrice(symbol: string): { mins: number; price: string } {
    const d = this.data.get(symbol.toUpperCase());
    return { mins: this.avgPriceMins, price: d ? d.avg.price(this.clock.now()) : '0' };
  }

  /**
   * The reference prices of the PERCENT_PRICE (weighted average) and PERCENT_PRICE_SA (simple
   * average) filters at `now` (spec 2.3: over avgPriceMins minutes of previous trades), as the
   * engine's `marketRefs` takes them; a price is absent before the symbol's first trade, so the
   * filter is skipped then.
   */
  referencePrices(symbol: string, now: number): { weightedAvgPrice?: string; simpleAvgPrice?: string } | undefined {
    const d = this.data.get(symbol.toUpperCase());
    if (d === undefined) return undefined;
    const weighted = d.weighted?.price(now);
    const simple = d.simple?.price(now);
    return {
      ...(weighted !== undefined && weighted !== '0' ? { weightedAvgPrice: weighted } : {}),
      ...(simple !== undefined && simple !== '0' ? { simpleAvgPrice: simple } : {}),
    };
  }

  /** GET ticker/bookTicker (spec 2.6). */
  bookTicker(symbol: string) {
    const s = symbol.toUpperCase();
    const top = this.bookTop(s);
    return { symbol: s, bidPrice: top.bid[0], bidQty: top.bid[1], askPrice: top.ask[0], askQty: top.ask[1] };
  }

  /** Best levels and update id from the engine; "0" sides without a `BookSource`. */
  bookTop(symbol: string): BookTop {
    return readBookTop(this.book, symbol.toUpperCase());
  }

  private series(symbol: string, interval: KlineInterval): KlineSeries | undefined {
    return this.data.get(symbol.toUpperCase())?.klines.get(interval);
  }

  private symbolData(symbol: string): SymbolData {
    const key = symbol.toUpperCase();
    let d = this.data.get(key);
    if (!d) {
      const klines = new Map(KLINE_INTERVALS.map((i) => [i, new KlineSeries(i, this.klineCap)] as const));
      const refs = this.referenceMins?.(key);
      const window = (mins: number | undefined, simple: boolean) => (mins === undefined ? undefined : new AvgPriceWindow(mins, simple));
      d = { ring: new TradeRing(this.ringSize), klines, avg: new AvgPriceWindow(this.avgPriceMins), weighted: window(refs?.weighted, false), simple: window(refs?.simple, true) };
      this.data.set(key, d);
    }
    return d;
  }
}
