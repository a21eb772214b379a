/**
 * The closed-bar history of one symbol and interval, and the read-only view strategies get.
 *
 * No lookahead by construction: the runner appends a bar only once it has closed (runner.ts
 * checks closeTime against the clock), the view exposes nothing but what was appended, indexes
 * past either end return undefined, and the view holds no reference to any feed. Indicator lines
 * are computed incrementally as bars arrive (O(1) a bar, so a year of 1-minute bars stays
 * linear) and cached per (indicator, period, field). A line first asked for is back-filled over
 * the bars kept; for EMA/RSI/ATR that is an approximation when more bars were seen than kept.
 *
 * Kept as columns (typed arrays for the numbers, arrays for the exact texts), not as a ring of
 * Bar objects: a thousand bars kept alive for a thousand bars each is what makes a year-long
 * backtest promote every bar to the old generation. The last bar is the object the runner
 * appended (what onBar received); an older one is rebuilt, frozen, when asked for, and stays the
 * same object while it is kept.
 */
import { Atr } from '../core/indicators/atr.ts';
import { Bollinger } from '../core/indicators/bollinger.ts';
import { CANDLE_FIELDS } from '../core/indicators/candle.ts';
import type { CandleField } from '../core/indicators/candle.ts';
import { Ema } from '../core/indicators/ema.ts';
import { Highest, Lowest } from '../core/indicators/extremes.ts';
import type { Indicator } from '../core/indicators/indicator.ts';
import { Rsi } from '../core/indicators/rsi.ts';
import { Sma } from '../core/indicators/sma.ts';
import { StrategyContextError } from './errors.ts';
import type { Line } from './line.ts';
import { ValueRing } from './line.ts';
import type { Bar, Interval } from './types.ts';

export interface BollingerLines {
  readonly upper: Line;
  readonly middle: Line;
  readonly lower: Line;
}

/** What a strategy sees of one series: closed bars only, newest at ago = 0. */
export interface BarSeries {
  readonly symbol: string;
  readonly interval: Interval;
  /** Bars kept (at most the history size). */
  readonly length: number;
  /** Bars seen since the start, including those no longer kept. */
  readonly count: number;
  /** The last closed bar. */
  readonly last: Bar | undefined;
  /** The bar `ago` bars back (0 = last closed); undefined outside what is kept. */
  at(ago: number): Bar | undefined;
  close(ago?: number): number | undefined;
  open(ago?: number): number | undefined;
  high(ago?: number): number | undefined;
  low(ago?: number): number | undefined;
  volume(ago?: number): number | undefined;
  /** The last `count` (default: all kept) values, oldest first. */
  closes(count?: number): readonly number[];
  opens(count?: number): readonly number[];
  highs(count?: number): readonly number[];
  lows(count?: number): readonly number[];
  volumes(count?: number): readonly number[];
  /** The last `count` (default: all kept) bars, oldest first. */
  bars(count?: number): readonly Bar[];
  /** A bar field as a line (for crossover against a level or an indicator). */
  line(field: CandleField): Line;
  sma(period: number, field?: CandleField): Line;
  ema(period: number, field?: CandleField): Line;
  rsi(period?: number, field?: CandleField): Line;
  atr(period?: number): Line;
  bollinger(period?: number, k?: number, field?: CandleField): BollingerLines;
  /** Highest `field` (default high) over the last `period` bars. */
  highest(period: number, field?: CandleField): Line;
  /** Lowest `field` (default low) over the last `period` bars. */
  lowest(period: number, field?: CandleField): Line;
}

interface Store {
  update(bar: Bar): void;
}

function checkField(field: string): CandleField {
  if (!(CANDLE_FIELDS as readonly string[]).includes(field)) throw new StrategyContextError(`unknown bar field '${field}' (one of ${CANDLE_FIELDS.join(', ')})`);
  return field as CandleField;
}

type NumberField = 'openTime' | 'closeTime' | CandleField;

/** Owned by the runner: it appends; strategies only get `view`. */
export class BarHistory {
  private readonly numbers: Record<NumberField, Float64Array>;
  /** The exact texts, five a slot (open, high, low, close, volume), allocated once. */
  private readonly texts: string[];
  /** Bars kept (<= capacity); slot of the bar seen as number i is i % capacity. */
  private keptCount = 0;
  private seen = 0;
  private lastBar: Bar | undefined;
  /** Older bars rebuilt for a reader, by the number they were seen as. */
  private readonly rebuilt = new Map<number, Bar>();
  private readonly stores = new Map<string, { store: Store; out: unknown }>();
  /** The stores' updaters in creation order (what `append` walks every bar, without a Map iterator). */
  private readonly updaters: Store[] = [];
  readonly view: BarSeries;

  constructor(
    readonly symbol: string,
    readonly interval: Interval,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`history capacity must be an integer >= 1, got ${String(capacity)}`);
    const col = () => new Float64Array(capacity);
    this.numbers = { openTime: col(), closeTime: col(), open: col(), high: col(), low: col(), close: col(), volume: col() };
    this.texts = new Array<string>(capacity * 5).fill('');
    this.view = this.makeView();
  }

  get length(): number {
    return this.keptCount;
  }

  get count(): number {
    return this.seen;
  }

  /** The last appended bar's open time, or undefined before the first. */
  get lastOpenTime(): number | undefined {
    return this.lastBar?.openTime;
  }

  append(bar: Bar): void {
    const cap = this.capacity;
    const slot = this.seen % cap;
    const n = this.numbers;
    n.openTime[slot] = bar.openTime;
    n.closeTime[slot] = bar.closeTime;
    n.open[slot] = bar.open;
    n.high[slot] = bar.high;
    n.low[slot] = bar.low;
    n.close[slot] = bar.close;
    n.volume[slot] = bar.volume;
    const t = this.texts;
    const x = bar.exact;
    const k = slot * 5;
    t[k] = x.open;
    t[k + 1] = x.high;
    t[k + 2] = x.low;
    t[k + 3] = x.close;
    t[k + 4] = x.volume;
    if (this.rebuilt.size !== 0) this.rebuilt.delete(this.seen - cap);
    this.seen++;
    if (this.keptCount < cap) this.keptCount++;
    this.lastBar = bar;
    const u = this.updaters;
    for (let i = 0; i < u.length; i++) u[i]!.update(bar);
  }

  /** Slot of the bar `ago` back, or -1 outside what is kept. */
  private slotOf(ago: number): number {
    if (!Number.isInteger(ago) || ago < 0 || ago >= this.keptCount) return -1;
    return (this.seen - 1 - ago) % this.capacity;
  }

  private barAt(ago: number): Bar | undefined {
    if (ago === 0) return this.lastBar;
    const slot = this.slotOf(ago);
    if (slot < 0) return undefined;
    const index = this.seen - 1 - ago;
    let bar = this.rebuilt.get(index);
    if (bar === undefined) {
      const n = this.numbers;
      const t = this.texts;
      bar = Object.freeze({
        symbol: this.symbol,
        interval: this.interval,
        openTime: n.openTime[slot]!,
        closeTime: n.closeTime[slot]!,
        open: n.open[slot]!,
        high: n.high[slot]!,
        low: n.low[slot]!,
        close: n.close[slot]!,
        volume: n.volume[slot]!,
        exact: Object.freeze({ open: t[slot * 5]!, high: t[slot * 5 + 1]!, low: t[slot * 5 + 2]!, close: t[slot * 5 + 3]!, volume: t[slot * 5 + 4]! }),
      });
      this.rebuilt.set(index, bar);
    }
    return bar;
  }

  /** A number field of the bar `ago` back, read from its column. */
  private valueAt(f: NumberField, ago: number): number | undefined {
    const slot = this.slotOf(ago);
    return slot < 0 ? undefined : this.numbers[f][slot];
  }

  private lastBars(count: number | undefined): Bar[] {
    const n = this.keptCount;
    const k = count === undefined ? n : Math.max(0, Math.min(n, Math.floor(count)));
    const out = new Array<Bar>(k);
    for (let i = 0; i < k; i++) out[i] = this.barAt(k - 1 - i) as Bar;
    return out;
  }

  /** The last `count` (default all kept) values of a number field, oldest first. */
  private lastValues(f: NumberField, count: number | undefined): number[] {
    const n = this.keptCount;
    const k = count === undefined ? n : Math.max(0, Math.min(n, Math.floor(count)));
    const out = new Array<number>(k);
    for (let i = 0; i < k; i++) out[i] = this.valueAt(f, k - 1 - i) as number;
    return out;
  }

  /** Oldest first, for back-filling a new line. */
  private *kept(): Iterable<Bar> {
    for (let i = this.keptCount - 1; i >= 0; i--) yield this.barAt(i) as Bar;
  }

  private cached<T>(key: string, make: () => { store: Store; out: T }): T {
    const hit = this.stores.get(key);
    if (hit) return hit.out as T;
    const made = make();
    for (const bar of this.kept()) made.store.update(bar);
    this.stores.set(key, made);
    this.updaters.push(made.store);
    return made.out;
  }

  /** One ring fed by an indicator over a number taken from each bar. */
  private single(key: string, indicator: () => Indicator<number> | Indicator<Bar>, pick?: (bar: Bar) => number): Line {
    return this.cached(key, () => {
      const ring = new ValueRing(this.capacity);
      const ind = indicator();
      const store: Store = pick
        ? { update: (bar) => ring.push((ind as Indicator<number>).update(pick(bar))) }
        : { update: (bar) => ring.push((ind as Indicator<Bar>).update(bar)) };
      return { store, out: ring.asLine() };
    });
  }

  /**
   * A per-indicator memo in front of `cached`: by field, then period, so a handler asking for
   * `sma(10)` every bar finds its line without building the string key. Misses (and errors, like
   * an unknown field) go through `make` unchanged; only lines made successfully are remembered.
   * `make` gets (period, field), so a hit allocates no closure.
   */
  private memo(make: (period: number, f: CandleField) => Line): (period: number, f: CandleField) => Line {
    const byField = new Map<string, Map<number, Line>>();
    return (period, f) => {
      let m = byField.get(f);
      const hit = m?.get(period);
      if (hit !== undefined) return hit;
      const line = make(period, f);
      if (m === undefined) byField.set(f, (m = new Map()));
      m.set(period, line);
      return line;
    };
  }

  private makeView(): BarSeries {
    const field = (f: CandleField) => (bar: Bar) => bar[f];
    const smaMemo = this.memo((period, f) => this.single(`sma:${period}:${checkField(f)}`, () => new Sma(period), field(f)));
    const emaMemo = this.memo((period, f) => this.single(`ema:${period}:${checkField(f)}`, () => new Ema(period), field(f)));
    const pluck = (f: CandleField) => (count?: number) => Object.freeze(this.lastValues(f, count));
    const at = (f: CandleField) => (ago = 0) => this.valueAt(f, ago);
    const length = () => this.length;
    const count = () => this.count;
    const last = () => this.barAt(0);
    const view: BarSeries = {
      symbol: this.symbol,
      interval: this.interval,
      get length() {
        return length();
      },
      get count() {
        return count();
      },
      get last() {
        return last();
      },
      at: (ago) => this.barAt(ago),
      close: at('close'),
      open: at('open'),
      high: at('high'),
      low: at('low'),
      volume: at('volume'),
      closes: pluck('close'),
      opens: pluck('open'),
      highs: pluck('high'),
      lows: pluck('low'),
      volumes: pluck('volume'),
      bars: (count) => Object.freeze(this.lastBars(count)),
      line: (f) => this.single(`line:${checkField(f)}`, () => ({ update: (x: number) => x, value: undefined, ready: true, reset() {} }), field(f)),
      sma: (period, f = 'close') => smaMemo(period, f),
      ema: (period, f = 'close') => emaMemo(period, f),
      rsi: (period = 14, f = 'close') => this.single(`rsi:${period}:${checkField(f)}`, () => new Rsi(period), field(f)),
      atr: (period = 14) => this.single(`atr:${period}`, () => new Atr(period)),
      highest: (period, f = 'high') => this.single(`highest:${period}:${checkField(f)}`, () => new Highest(period), field(f)),
      lowest: (period, f = 'low') => this.single(`lowest:${period}:${checkField(f)}`, () => new Lowest(period), field(f)),
      bollinger: (period = 20, k = 2, f = 'close') =>
        this.cached(`bollinger:${period}:${k}:${checkField(f)}`, () => {
          const ind = new Bollinger(period, k);
          const rings = { upper: new ValueRing(this.capacity), middle: new ValueRing(this.capacity), lower: new ValueRing(this.capacity) };
          const store: Store = {
            update: (bar) => {
              const b = ind.update(bar[f]);
              rings.upper.push(b?.upper);
              rings.middle.push(b?.middle);
              rings.lower.push(b?.lower);
            },
          };
          return { store, out: Object.freeze({ upper: rings.upper.asLine(), middle: rings.middle.asLine(), lower: rings.lower.asLine() }) };
        }),
    };
    return Object.freeze(view);
  }
}
