/**
 * A market that starts with a past (issue 21 deliverable 5: "its market starts with enough history
 * that the strategies are warm at once, their warm-up coming through REST klines"). At sandbox
 * start the first `historyBars` bars of the market's own source are laid out back to back, one
 * every `barMs` of sandbox time, ending where the live path starts, and stored as closed klines of
 * every interval (spec 2.6 kline rows through `MarketDataStore.seedKlines`). The live path then
 * goes on with the source's next bar, which opens at the last history close: REST klines, the 24 h
 * ticker (read off the 1m klines) and the live bars that follow form one series without a gap.
 *
 * History has no trades behind it: its klines carry a trade count of 0 and no taker split (spec
 * 2.6 items 8-10 unknown, so 0), and GET trades / aggTrades start with the live market. Prices are
 * put on the symbol's tick as the path puts them, volumes are scaled like the taker's.
 *
 * Memory stays bounded whatever N is: the store keeps `capacity` klines per interval, so only the
 * newest `capacity` periods of each interval are ever aggregated; older bars pass through (the
 * synthetic source generates one regime cycle at a time).
 */
import { D, ZERO, toWire, type Dec } from '../../core/money/decimal.ts';
import { KLINE_INTERVALS, intervalMs, periodClose, periodOpen, type KlineInterval } from '../../core/market/intervals.ts';
import type { KlineRow } from '../market-data/kline-series.ts';
import type { MarketRules } from './market-rules.ts';
import type { BarSource, SourceBar } from './sources/index.ts';

/** Where the history goes: the sandbox's market-data store (seedKlines and its per-interval capacity). */
export interface HistorySink {
  readonly klineCapacity: number;
  seedKlines(symbol: string, interval: KlineInterval, rows: readonly KlineRow[]): void;
}

export interface HistoryOptions {
  readonly bars: number;
  /** Sandbox ms one source bar lasts (the live path's barMs). */
  readonly barMs: number;
  /** Where history ends and the live path starts (sandbox ms); bar i opens at end - (bars - i) * barMs. */
  readonly end: number;
  readonly rules: MarketRules;
  readonly volumeScale: number;
}

export interface HistoryResult {
  /** Bars laid out (fewer than asked only when a finite source ends first). */
  readonly bars: number;
  /** The last history close on the symbol's tick, undefined without history. */
  readonly lastClose: string | undefined;
  /** The same source, going on after the history's bars (then looping from its start, like any source). */
  readonly source: BarSource;
}

/** Quote volumes are volume x typical price; 8 decimals as the venue's derived amounts. */
const QUOTE_PLACES = 8;

interface Agg {
  openTime: number;
  open: Dec;
  high: Dec;
  low: Dec;
  close: Dec;
  volume: Dec;
  quoteVolume: Dec;
}

/** Lay out the history of one market into `sink`; returns the source to play live from. */
export function seedHistory(source: BarSource, sink: HistorySink, o: HistoryOptions): HistoryResult {
  const it = source.bars()[Symbol.iterator]();
  const start = o.end - o.bars * o.barMs;
  const builders = KLINE_INTERVALS.map((interval) => new IntervalBuilder(interval, o.end, sink.klineCapacity));
  const scale = new D(o.volumeScale);
  let n = 0;
  let lastClose: string | undefined;
  while (n < o.bars) {
    const next = it.next();
    if (next.done === true) break;
    const bar = parsed(next.value, o.rules, scale);
    const time = start + n * o.barMs;
    for (const builder of builders) builder.add(time, bar);
    lastClose = next.value.close;
    n++;
  }
  for (const builder of builders) {
    const rows = builder.finish();
    if (rows.length > 0) sink.seedKlines(o.rules.symbol, builder.interval, rows);
  }
  return { bars: n, lastClose: lastClose === undefined ? undefined : o.rules.price(o.rules.units(lastClose)), source: continuing(source, it) };
}

/** One source bar, parsed once for every interval. */
interface Bar {
  open: Dec;
  high: Dec;
  low: Dec;
  close: Dec;
  volume: Dec;
  quote: Dec;
}

/** Prices rounded onto the tick grid the live path uses; volume scaled like the taker's. */
function parsed(b: SourceBar, rules: MarketRules, scale: Dec): Bar {
  const p = (v: string) => new D(rules.price(rules.units(v)));
  const open = p(b.open);
  const high = p(b.high);
  const low = p(b.low);
  const close = p(b.close);
  const volume = new D(b.volume).times(scale);
  return { open, high, low, close, volume, quote: volume.times(open.plus(high).plus(low).plus(close).div(4)) };
}

/** First pass: what is left of `it`; later passes (a looping CSV or journal): the whole source again. */
function continuing(source: BarSource, it: Iterator<SourceBar>): BarSource {
  let first = true;
  return {
    label: source.label,
    intervalMs: source.intervalMs,
    bars: () => {
      if (!first) return source.bars();
      first = false;
      return { [Symbol.iterator]: () => it };
    },
    close: () => source.close(),
  };
}

/** Klines of one interval, keeping only the newest `capacity` periods (what the store would keep). */
class IntervalBuilder {
  private readonly rows: KlineRow[] = [];
  private cur: Agg | undefined;
  /** Bars opening before this fall out of the store's window for this interval: skip them. */
  private readonly from: number;

  constructor(
    readonly interval: KlineInterval,
    end: number,
    private readonly capacity: number,
  ) {
    const ms = intervalMs(interval);
    this.from = ms === undefined ? -Infinity : periodOpen(interval, end - 1) - (capacity - 1) * ms;
  }

  add(time: number, b: Bar): void {
    if (time < this.from) return;
    const openTime = periodOpen(this.interval, time);
    const k = this.cur;
    if (k?.openTime === openTime) {
      if (b.high.gt(k.high)) k.high = b.high;
      if (b.low.lt(k.low)) k.low = b.low;
      k.close = b.close;
      k.volume = k.volume.plus(b.volume);
      k.quoteVolume = k.quoteVolume.plus(b.quote);
      return;
    }
    this.flush();
    this.cur = { openTime, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume, quoteVolume: b.quote };
  }

  finish(): KlineRow[] {
    this.flush();
    return this.rows.slice(-this.capacity);
  }

  private flush(): void {
    const k = this.cur;
    if (k === undefined) return;
    this.rows.push([
      k.openTime,
      toWire(k.open),
      toWire(k.high),
      toWire(k.low),
      toWire(k.close),
      toWire(k.volume),
      periodClose(this.interval, k.openTime),
      toWire(k.quoteVolume.toDecimalPlaces(QUOTE_PLACES)),
      0,
      toWire(ZERO),
      toWire(ZERO),
    ]);
    // Amortised trimming: a 1M series never grows past twice the store's capacity.
    if (this.rows.length >= 2 * this.capacity) this.rows.splice(0, this.rows.length - this.capacity);
  }
}
