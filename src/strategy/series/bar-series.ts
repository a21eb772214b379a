/**
 * The closed-bar history of one symbol and interval, and the read-only view strategies get.
 *
 * No lookahead by construction: the runner appends a bar only once it has closed (runner.ts
 * checks closeTime against the clock), the view exposes nothing but what was appended, indexes
 * past either end return undefined, and the view holds no reference to any feed. Indicator lines
 * are computed incrementally as bars arrive (O(1) a bar, so a year of 1-minute bars stays
 * linear) and cached per (indicator, period, field). A line first asked for is back-filled over
 * the bars kept; for EMA/RSI/ATR/MACD/ADX that is an approximation when more bars were seen
 * than kept.
 *
 * An indicator of another line (an EMA of an RSI: `ema(9, rsi(14))`) takes the line where a
 * field goes, as TradingView's `ta.ema(ta.rsi(close, 14), 9)` takes a series: the line must be
 * one this history made (it is stepped with that line's value of each bar, after it: lines are
 * stepped in the order they were made, and a source exists before what is made of it). Bars
 * where the source has no value (its warm-up) are not fed: an EMA(9) of RSI(14) has its first
 * value at the 9th RSI value, seeded with their SMA as Ema always is (TA-Lib's EMA over an RSI
 * array with leading NaNs, Pine's ta.ema).
 *
 * Kept as columns (typed arrays for the numbers, arrays for the exact texts), not as a ring of
 * Bar objects: a thousand bars kept alive for a thousand bars each is what makes a year-long
 * backtest promote every bar to the old generation. A bar is pushed as a Candle (its numbers and
 * texts are copied in, the texts of a reused text object by reference: candle.ts
 * ReusedCandleText; the indicators read the candle itself) and becomes a frozen Bar only when
 * someone asks for it: the last one once (the runner, for an onBar that takes it, or a reader of
 * `last` / `at(0)`), an older one rebuilt on request, the same object while it is kept. A Bar
 * appended as such (`append`) is the last bar itself.
 */
import { Adx } from '../../core/indicators/adx.ts';
import { Atr } from '../../core/indicators/atr.ts';
import { Bollinger } from '../../core/indicators/bollinger.ts';
import type { BollingerBands } from '../../core/indicators/bollinger.ts';
import { CANDLE_FIELDS, keptText, readCandleRow } from '../../core/indicators/candle.ts';
import type { Candle, CandleField, CandleNumberField, CandleText } from '../../core/indicators/candle.ts';
import { Ema } from '../../core/indicators/ema.ts';
import { Highest, Lowest } from '../../core/indicators/extremes.ts';
import type { Indicator } from '../../core/indicators/indicator.ts';
import { Macd } from '../../core/indicators/macd.ts';
import type { MacdValue } from '../../core/indicators/macd.ts';
import { Rsi } from '../../core/indicators/rsi.ts';
import { Sma } from '../../core/indicators/sma.ts';
import { StdDev } from '../../core/indicators/stddev.ts';
import { Stochastic } from '../../core/indicators/stochastic.ts';
import { Vwap } from '../../core/indicators/vwap.ts';
import { StrategyContextError } from '../errors.ts';
import type { Line } from './line.ts';
import { ValueRing } from './line.ts';
import type { Bar, Interval } from '../types.ts';

export interface BollingerLines {
  readonly upper: Line;
  readonly middle: Line;
  readonly lower: Line;
}

export interface MacdLines {
  /** EMA(fast) - EMA(slow); a value from bar `slow` on. */
  readonly macd: Line;
  /** EMA(signal) of macd; a value from bar slow + signal - 1 on. */
  readonly signal: Line;
  /** macd - signal; a value when signal has one. */
  readonly histogram: Line;
}

export interface StochasticLines {
  /** %K (SMA of `smooth` raw %K); a value from bar k + smooth - 1 on. */
  readonly k: Line;
  /** %D, SMA of %K over d; a value from bar k + smooth + d - 2 on. */
  readonly d: Line;
}

export interface AdxLines {
  /** A value from bar 2 * period on. */
  readonly adx: Line;
  /** +DI; a value from bar period + 1 on. */
  readonly plusDi: Line;
  /** -DI; a value from bar period + 1 on. */
  readonly minusDi: Line;
}

/**
 * What an indicator is computed over: a bar field, or a line this series made (an indicator of
 * an indicator: `bars.ema(9, bars.rsi(14))`, `bars.sma(20, bars.atr(14))`). A line of another
 * series, or a LineLike of your own, is refused (StrategyContextError).
 */
export type LineSource = CandleField | Line;

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
  /** SMA of `source` (default close: a field, or a line of this series, LineSource). */
  sma(period: number, source?: LineSource): Line;
  /** EMA of `source`, seeded with the SMA of its first `period` values (TA-Lib). */
  ema(period: number, source?: LineSource): Line;
  rsi(period?: number, source?: LineSource): Line;
  atr(period?: number): Line;
  bollinger(period?: number, k?: number, source?: LineSource): BollingerLines;
  /** Highest `source` (default high) over the last `period` bars. */
  highest(period: number, source?: LineSource): Line;
  /** Lowest `source` (default low) over the last `period` bars. */
  lowest(period: number, source?: LineSource): Line;
  /** Population standard deviation of `source` over the last `period` bars (Bollinger's sigma, TA-Lib STDDEV). */
  stddev(period?: number, source?: LineSource): Line;
  /** MACD as TA-Lib's (core/indicators/macd.ts). */
  macd(fast?: number, slow?: number, signal?: number, source?: LineSource): MacdLines;
  /** Stochastic %K and %D as TA-Lib's STOCH, a flat window at 50 (core/indicators/stochastic.ts). */
  stochastic(k?: number, d?: number, smooth?: number): StochasticLines;
  /** ADX, +DI and -DI as TA-Lib's (core/indicators/adx.ts). */
  adx(period?: number): AdxLines;
  /** Rolling VWAP of the typical price over the last `period` bars; undefined while the window has no volume. */
  vwap(period: number): Line;
}

/**
 * What a line's indicator reads of each bar pushed (a Candle: the runner's input, or a Bar), and
 * the slot of the history's number columns the bar's numbers are in.
 */
interface Store {
  update(bar: Candle, slot: number): void;
  /** Back-fill from a source line rather than from the bars (an indicator of a line): its last `kept` values, oldest first. */
  fill?(kept: number): void;
}

/** Field readers, one per field (a named load each, not a keyed one). */
const PICK: Readonly<Record<CandleField, (c: Candle) => number>> = {
  open: (c) => c.open,
  high: (c) => c.high,
  low: (c) => c.low,
  close: (c) => c.close,
  volume: (c) => c.volume,
};

/** An indicator with `stepAt` (Sma, Ema): its update of values[i] left in `out`, NaN while warming up. */
interface Stepper {
  stepAt(values: Float64Array, i: number): void;
  readonly out: number;
}

/**
 * One line of a number column through a Stepper into a ring. Only objects and slot indexes pass
 * between the calls: a double passed to or returned by a call V8 does not inline is a heap
 * number, two a bar for a strategy reading two SMAs.
 */
class StepStore implements Store {
  constructor(
    private readonly ind: Stepper,
    private readonly column: Float64Array,
    private readonly ring: ValueRing,
  ) {}

  update(_bar: Candle, slot: number): void {
    this.ind.stepAt(this.column, slot);
    this.ring.pushOut(this.ind);
  }
}

/**
 * An indicator with `stepAt` over a line of the same history: stepped with the line's value of
 * each bar read in place (ValueRing.stepFrom: nothing boxed, as StepStore); a bar where the line
 * has no value is not fed and has none either.
 */
class LineStepStore implements Store {
  constructor(
    private readonly ind: Stepper,
    private readonly source: ValueRing,
    private readonly ring: ValueRing,
  ) {}

  update(): void {
    this.feed(0);
  }

  fill(kept: number): void {
    for (let ago = kept - 1; ago >= 0; ago--) this.feed(ago);
  }

  private feed(ago: number): void {
    if (this.source.stepFrom(this.ind, ago)) this.ring.pushOut(this.ind);
    else this.ring.pushRaw(Number.NaN);
  }
}

/** Any indicator over a line of the same history: `take` gets the line's value of each bar that has one, `skip` runs for a bar that has none. */
class LineFedStore implements Store {
  constructor(
    private readonly source: ValueRing,
    private readonly take: (value: number) => void,
    private readonly skip: () => void,
  ) {}

  update(): void {
    this.feed(0);
  }

  fill(kept: number): void {
    for (let ago = kept - 1; ago >= 0; ago--) this.feed(ago);
  }

  private feed(ago: number): void {
    const v = this.source.raw(ago);
    if (v === v) this.take(v);
    else this.skip();
  }
}

/** A line a history made: the history, the ring behind the line, and the line's name for messages and keys ('rsi(14, close)'). */
interface MadeLine {
  readonly history: BarHistory;
  readonly ring: ValueRing;
  readonly name: string;
}

/** Every line a history hands out, by the Line object: what an indicator of a line looks its source up in (weak: lines go with their history). */
const MADE = new WeakMap<object, MadeLine>();

/** Whether a source argument is meant as a line (any object); anything else is taken as a field name and checked as one. */
const isLine = (source: LineSource): source is Line => typeof source === 'object' || typeof source === 'function';

/** A store key as a name: 'rsi:14:close' -> 'rsi(14, close)', 'ema:9:rsi(14, close)' -> 'ema(9, rsi(14, close))' (names hold no ':'). */
function nameOf(key: string): string {
  const [kind, ...args] = key.split(':');
  return `${kind ?? ''}(${args.join(', ')})`;
}

/**
 * Memo of what is made from a source line by up to three numbers (bollinger's period and k,
 * macd's periods): a repeated call reads nested Maps, no key string built. Only what was made
 * successfully is remembered.
 */
function sourceMemo<T>(make: (source: Line, a: number, b: number, c: number) => T): (source: Line, a: number, b: number, c: number) => T {
  const bySource = new Map<Line, Map<number, Map<number, Map<number, T>>>>();
  return (source, a, b, c) => {
    const hit = bySource.get(source)?.get(a)?.get(b)?.get(c);
    if (hit !== undefined) return hit;
    const made = make(source, a, b, c);
    let byA = bySource.get(source);
    if (byA === undefined) bySource.set(source, (byA = new Map()));
    let byB = byA.get(a);
    if (byB === undefined) byA.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (byC === undefined) byB.set(b, (byC = new Map()));
    byC.set(c, made);
    return made;
  };
}

function checkField(field: string): CandleField {
  if (!(CANDLE_FIELDS as readonly string[]).includes(field)) throw new StrategyContextError(`unknown bar field '${field}' (one of ${CANDLE_FIELDS.join(', ')})`);
  return field as CandleField;
}

/**
 * The number columns of a history, one ring slot a bar. A class rather than an object literal:
 * docs/architecture.md, "Objects made once per run".
 */
class NumberColumns implements Record<CandleNumberField, Float64Array> {
  readonly openTime: Float64Array;
  readonly closeTime: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;

  constructor(capacity: number) {
    this.openTime = new Float64Array(capacity);
    this.closeTime = new Float64Array(capacity);
    this.open = new Float64Array(capacity);
    this.high = new Float64Array(capacity);
    this.low = new Float64Array(capacity);
    this.close = new Float64Array(capacity);
    this.volume = new Float64Array(capacity);
  }
}

/** Owned by the runner: it appends; strategies only get `view`. */
export class BarHistory {
  private readonly numbers: NumberColumns;
  /** The exact texts, five a slot (open, high, low, close, volume), allocated once. */
  private readonly texts: string[];
  /**
   * A slot's texts kept by reference instead (candle.ts ReusedCandleText: the journal's replay),
   * read only when a Bar is built; undefined where the strings were copied into `texts`.
   */
  private readonly keptTexts: (CandleText | undefined)[];
  /** Bars kept (<= capacity); slot of the bar seen as number i is i % capacity. */
  private keptCount = 0;
  private seen = 0;
  /** Slot of the last bar pushed (seen - 1) % capacity, kept without a division per bar. */
  private head = -1;
  /** The last bar as a frozen Bar, once built or appended (undefined: build on request). */
  private lastBar: Bar | undefined;
  /** Older bars rebuilt for a reader, by the number they were seen as. */
  private readonly rebuilt = new Map<number, Bar>();
  private readonly stores = new Map<string, { store: Store; out: unknown }>();
  /** The stores' updaters in creation order (what `push` walks every bar, without a Map iterator). */
  private readonly updaters: Store[] = [];
  readonly view: BarSeries;

  constructor(
    readonly symbol: string,
    readonly interval: Interval,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`history capacity must be an integer >= 1, got ${String(capacity)}`);
    this.numbers = new NumberColumns(capacity);
    this.texts = new Array<string>(capacity * 5).fill('');
    this.keptTexts = new Array<CandleText | undefined>(capacity).fill(undefined);
    this.view = this.makeView() as unknown as BarSeries;
  }

  get length(): number {
    return this.keptCount;
  }

  get count(): number {
    return this.seen;
  }

  /** The last pushed bar's open time, or undefined before the first. */
  get lastOpenTime(): number | undefined {
    return this.seen === 0 ? undefined : this.numbers.openTime[this.head];
  }

  /** Whether a bar opening at `openTime` comes after the last one pushed (always, before the first). */
  isAfterLast(openTime: number): boolean {
    return this.seen === 0 || openTime > (this.numbers.openTime[this.head] as number);
  }

  /** The last bar, frozen (built on the first request). */
  get last(): Bar | undefined {
    return this.barAt(0);
  }

  /** A closed bar as the runner received it: copied in (numbers and texts); the Bar object is built only if asked for. */
  push(c: Candle): void {
    const cap = this.capacity;
    let slot = this.head + 1;
    if (slot === cap) slot = 0;
    this.head = slot;
    const n = this.numbers;
    n.openTime[slot] = c.openTime;
    n.closeTime[slot] = c.closeTime;
    n.open[slot] = c.open;
    n.high[slot] = c.high;
    n.low[slot] = c.low;
    n.close[slot] = c.close;
    n.volume[slot] = c.volume;
    const x = c.exact;
    // A reused text object (the journal's) is kept by reference: its strings are cut only if a Bar is built.
    const kept = keptText(x);
    this.keptTexts[slot] = kept;
    if (kept === undefined) {
      const t = this.texts;
      const k = slot * 5;
      t[k] = x.open;
      t[k + 1] = x.high;
      t[k + 2] = x.low;
      t[k + 3] = x.close;
      t[k + 4] = x.volume;
    }
    if (this.rebuilt.size !== 0) this.rebuilt.delete(this.seen - cap);
    this.seen++;
    if (this.keptCount < cap) this.keptCount++;
    this.lastBar = undefined;
    const u = this.updaters;
    for (let i = 0; i < u.length; i++) (u[i] as Store).update(c, slot);
  }

  /** A frozen Bar: pushed, and it is the last bar itself (what `last` and `at(0)` give back). */
  append(bar: Bar): void {
    this.push(bar);
    this.lastBar = bar;
  }

  /** Slot of the bar `ago` back, or -1 outside what is kept. */
  private slotOf(ago: number): number {
    if (!Number.isInteger(ago) || ago < 0 || ago >= this.keptCount) return -1;
    return (this.seen - 1 - ago) % this.capacity;
  }

  private barAt(ago: number): Bar | undefined {
    if (ago === 0) return this.seen === 0 ? undefined : (this.lastBar ??= this.build(this.head));
    const slot = this.slotOf(ago);
    if (slot < 0) return undefined;
    const index = this.seen - 1 - ago;
    let bar = this.rebuilt.get(index);
    if (bar === undefined) {
      bar = this.build(slot);
      this.rebuilt.set(index, bar);
    }
    return bar;
  }

  /** The frozen Bar of a slot, from the columns. */
  private build(slot: number): Bar {
    const n = this.numbers;
    return Object.freeze({
      symbol: this.symbol,
      interval: this.interval,
      openTime: n.openTime[slot]!,
      closeTime: n.closeTime[slot]!,
      open: n.open[slot]!,
      high: n.high[slot]!,
      low: n.low[slot]!,
      close: n.close[slot]!,
      volume: n.volume[slot]!,
      exact: Object.freeze(this.textsAt(slot)),
    });
  }

  /** A slot's texts as a plain object (new strings read from a kept reference, or the copied ones). */
  private textsAt(slot: number): { open: string; high: string; low: string; close: string; volume: string } {
    const r = this.keptTexts[slot];
    if (r !== undefined) return { open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume };
    const t = this.texts;
    const k = slot * 5;
    return { open: t[k]!, high: t[k + 1]!, low: t[k + 2]!, close: t[k + 3]!, volume: t[k + 4]! };
  }

  /** A number field of the bar `ago` back, read from its column. */
  private valueAt(f: CandleNumberField, ago: number): number | undefined {
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
  private lastValues(f: CandleNumberField, count: number | undefined): number[] {
    const n = this.keptCount;
    const k = count === undefined ? n : Math.max(0, Math.min(n, Math.floor(count)));
    const out = new Array<number>(k);
    for (let i = 0; i < k; i++) out[i] = this.valueAt(f, k - 1 - i) as number;
    return out;
  }

  /** Feed `store` the bars kept, oldest first (back-filling a new line): one reused candle over the columns, no Bar built. */
  private backfill(store: Store): void {
    const n = this.numbers;
    const c = { openTime: 0, closeTime: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, exact: { open: '', high: '', low: '', close: '', volume: '' } };
    for (let ago = this.keptCount - 1; ago >= 0; ago--) {
      const slot = this.slotOf(ago);
      readCandleRow(c, n, slot);
      // A texts object a bar (textsAt): a back-fill runs once per line asked for, not per bar.
      c.exact = this.textsAt(slot);
      store.update(c, slot);
    }
  }


  private cached<T>(key: string, make: () => { store: Store; out: T }): T {
    const hit = this.stores.get(key);
    if (hit) return hit.out as T;
    const made = make();
    if (made.store.fill) made.store.fill(this.keptCount);
    else this.backfill(made.store);
    this.stores.set(key, made);
    this.updaters.push(made.store);
    return made.out;
  }

  /** One ring fed by an indicator over a number taken from each bar (or over the bar itself, without `pick`). */
  private single(key: string, indicator: () => Indicator<number> | Indicator<Candle>, pick?: (bar: Candle) => number): Line {
    return this.cached(key, () => {
      const ring = new ValueRing(this.capacity);
      const ind = indicator();
      const store: Store = pick
        ? { update: (bar) => ring.push((ind as Indicator<number>).update(pick(bar))) }
        : { update: (bar) => ring.push((ind as Indicator<Candle>).update(bar)) };
      return { store, out: this.lineOf(ring, key) };
    });
  }

  /** `single` for an indicator with `stepAt` (Sma, Ema) over a number column: the same values, nothing boxed per bar. */
  private stepped(key: string, indicator: () => Stepper, f: CandleField): Line {
    return this.cached(key, () => {
      const ring = new ValueRing(this.capacity);
      return { store: new StepStore(indicator(), this.numbers[f], ring), out: this.lineOf(ring, key) };
    });
  }

  /** A line over a ring of this history, registered as one (MADE) so it can be the source of another indicator. */
  private lineOf(ring: ValueRing, key: string, part?: string): Line {
    const line = ring.asLine();
    MADE.set(line, { history: this, ring, name: part === undefined ? nameOf(key) : `${nameOf(key)}.${part}` });
    return line;
  }

  /** The lines of a multi-line indicator (bollinger's upper, middle, lower...), registered by part, frozen, in the rings' order. */
  private linesOf<R extends Record<string, ValueRing>>(key: string, rings: R): { readonly [P in keyof R]: Line } {
    const out: Record<string, Line> = {};
    for (const part of Object.keys(rings)) out[part] = this.lineOf(rings[part] as ValueRing, key, part);
    return Object.freeze(out) as { readonly [P in keyof R]: Line };
  }

  /** `source` as the source line of `call` ('sma(20, source)'): a line this history made, else a StrategyContextError saying what it is. */
  private sourceOf(call: string, source: Line): MadeLine {
    const made = MADE.get(source);
    if (made?.history === this) return made;
    const here = `${this.symbol} ${this.interval}`;
    if (made === undefined) {
      throw new StrategyContextError(
        `${call}: the source is not a line of ${here} (a line of your own cannot be stepped per bar); pass a bar field (${CANDLE_FIELDS.join(', ')}) or a line this series made (sma, ema, rsi, atr, ...)`,
      );
    }
    const there = `${made.history.symbol} ${made.history.interval}`;
    throw new StrategyContextError(
      `${call}: the source line ${made.name} is a line of ${there === here ? `another ${there} series` : there}, not of ${here}; an indicator of a line is computed on the series that made the line`,
    );
  }

  /** `stepped` over a line of this history (an SMA/EMA of an indicator). */
  private steppedOf(kind: string, period: number, source: Line, indicator: () => Stepper): Line {
    const made = this.sourceOf(`${kind}(${period}, source)`, source);
    const key = `${kind}:${period}:${made.name}`;
    return this.cached(key, () => {
      const ring = new ValueRing(this.capacity);
      return { store: new LineStepStore(indicator(), made.ring, ring), out: this.lineOf(ring, key) };
    });
  }

  /** `single` over a line of this history (an RSI of an indicator, ...). */
  private singleOf(kind: string, period: number, source: Line, indicator: () => Indicator<number>): Line {
    const made = this.sourceOf(`${kind}(${period}, source)`, source);
    const key = `${kind}:${period}:${made.name}`;
    return this.cached(key, () => {
      const ring = new ValueRing(this.capacity);
      const ind = indicator();
      const store = new LineFedStore(made.ring, (v) => ring.push(ind.update(v)), () => ring.pushRaw(Number.NaN));
      return { store, out: this.lineOf(ring, key) };
    });
  }

  /**
   * A per-indicator memo in front of `cached`: by field, then period, so a handler asking for
   * `sma(10)` every bar finds its line without building the string key. Misses (and errors, like
   * an unknown field) go through `make` unchanged; only lines made successfully are remembered.
   * `make` gets (period, field), so a hit allocates no closure. Lines of the close (the default
   * field) with a small whole period are also kept in an array by period: one indexed read a hit.
   * A source line is a key like a field (an indicator of a line: no key string built either).
   */
  private memo(make: (period: number, f: LineSource) => Line): (period: number, f: LineSource) => Line {
    const byField = new Map<LineSource, Map<number, Line>>();
    const closes: (Line | undefined)[] = [];
    return (period, f) => {
      const small = f === 'close' && period >>> 0 === period && period < 4096;
      if (small) {
        const hit = closes[period];
        if (hit !== undefined) return hit;
      }
      let m = byField.get(f);
      const hit = m?.get(period);
      if (hit !== undefined) return hit;
      const line = make(period, f);
      if (m === undefined) byField.set(f, (m = new Map()));
      m.set(period, line);
      if (small) {
        while (closes.length < period) closes.push(undefined);
        closes[period] = line;
      }
      return line;
    };
  }

  private makeView(): SeriesView {
    const field = (f: CandleField) => PICK[f];
    // A source that is an object is a line (an indicator of an indicator); anything else a field.
    const smaMemo = this.memo((period, f) => (isLine(f) ? this.steppedOf('sma', period, f, () => new Sma(period)) : this.stepped(`sma:${period}:${checkField(f)}`, () => new Sma(period), f)));
    const emaMemo = this.memo((period, f) => (isLine(f) ? this.steppedOf('ema', period, f, () => new Ema(period)) : this.stepped(`ema:${period}:${checkField(f)}`, () => new Ema(period), f)));
    const rsiMemo = this.memo((period, f) => (isLine(f) ? this.singleOf('rsi', period, f, () => new Rsi(period)) : this.single(`rsi:${period}:${checkField(f)}`, () => new Rsi(period), field(f))));
    const highestMemo = this.memo((period, f) =>
      isLine(f) ? this.singleOf('highest', period, f, () => new Highest(period)) : this.single(`highest:${period}:${checkField(f)}`, () => new Highest(period), field(f)),
    );
    const lowestMemo = this.memo((period, f) =>
      isLine(f) ? this.singleOf('lowest', period, f, () => new Lowest(period)) : this.single(`lowest:${period}:${checkField(f)}`, () => new Lowest(period), field(f)),
    );
    const stddevMemo = this.memo((period, f) =>
      isLine(f) ? this.singleOf('stddev', period, f, () => new StdDev(period)) : this.single(`stddev:${period}:${checkField(f)}`, () => new StdDev(period), field(f)),
    );
    const bollingerOf = sourceMemo((source, period, k) => {
      const made = this.sourceOf(`bollinger(${period}, ${k}, source)`, source);
      const key = `bollinger:${period}:${k}:${made.name}`;
      return this.cached(key, () => {
        const ind = new Bollinger(period, k);
        const rings = { upper: new ValueRing(this.capacity), middle: new ValueRing(this.capacity), lower: new ValueRing(this.capacity) };
        const put = (b: BollingerBands | undefined) => {
          rings.upper.push(b?.upper);
          rings.middle.push(b?.middle);
          rings.lower.push(b?.lower);
        };
        return { store: new LineFedStore(made.ring, (v) => put(ind.update(v)), () => put(undefined)), out: this.linesOf(key, rings) };
      });
    });
    const macdOf = sourceMemo((source, fast, slow, signal) => {
      const made = this.sourceOf(`macd(${fast}, ${slow}, ${signal}, source)`, source);
      const key = `macd:${fast}:${slow}:${signal}:${made.name}`;
      return this.cached(key, () => {
        const ind = new Macd(fast, slow, signal);
        const rings = { macd: new ValueRing(this.capacity), signal: new ValueRing(this.capacity), histogram: new ValueRing(this.capacity) };
        const put = (m: MacdValue | undefined) => {
          rings.macd.push(m?.macd);
          rings.signal.push(m?.signal);
          rings.histogram.push(m?.histogram);
        };
        return { store: new LineFedStore(made.ring, (v) => put(ind.update(v)), () => put(undefined)), out: this.linesOf(key, rings) };
      });
    });
    const pluck = (f: CandleField) => (count?: number) => Object.freeze(this.lastValues(f, count));
    const at = (f: CandleField) => (ago = 0) => this.valueAt(f, ago);
    const members: SeriesMembers = {
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
      rsi: (period = 14, f = 'close') => rsiMemo(period, f),
      atr: (period = 14) => this.single(`atr:${period}`, () => new Atr(period)),
      highest: (period, f = 'high') => highestMemo(period, f),
      lowest: (period, f = 'low') => lowestMemo(period, f),
      bollinger: (period = 20, k = 2, f = 'close') => {
        if (isLine(f)) return bollingerOf(f, period, k, 0);
        const key = `bollinger:${period}:${k}:${checkField(f)}`;
        return this.cached(key, () => {
          const ind = new Bollinger(period, k);
          const rings = { upper: new ValueRing(this.capacity), middle: new ValueRing(this.capacity), lower: new ValueRing(this.capacity) };
          const pick = PICK[f];
          const store: Store = {
            update: (bar) => {
              const b = ind.update(pick(bar));
              rings.upper.push(b?.upper);
              rings.middle.push(b?.middle);
              rings.lower.push(b?.lower);
            },
          };
          return { store, out: this.linesOf(key, rings) };
        });
      },
      stddev: (period = 20, f = 'close') => stddevMemo(period, f),
      macd: (fast = 12, slow = 26, signal = 9, f = 'close') => {
        if (isLine(f)) return macdOf(f, fast, slow, signal);
        const key = `macd:${fast}:${slow}:${signal}:${checkField(f)}`;
        return this.cached(key, () => {
          const ind = new Macd(fast, slow, signal);
          const rings = { macd: new ValueRing(this.capacity), signal: new ValueRing(this.capacity), histogram: new ValueRing(this.capacity) };
          const pick = PICK[f];
          const store: Store = {
            update: (bar) => {
              const m = ind.update(pick(bar));
              rings.macd.push(m?.macd);
              rings.signal.push(m?.signal);
              rings.histogram.push(m?.histogram);
            },
          };
          return { store, out: this.linesOf(key, rings) };
        });
      },
      stochastic: (k = 14, d = 3, smooth = 1) => {
        const key = `stochastic:${k}:${d}:${smooth}`;
        return this.cached(key, () => {
          const ind = new Stochastic(k, d, smooth);
          const rings = { k: new ValueRing(this.capacity), d: new ValueRing(this.capacity) };
          const store: Store = {
            update: (bar) => {
              const s = ind.update(bar);
              rings.k.push(s?.k);
              rings.d.push(s?.d);
            },
          };
          return { store, out: this.linesOf(key, rings) };
        });
      },
      adx: (period = 14) => {
        const key = `adx:${period}`;
        return this.cached(key, () => {
          const ind = new Adx(period);
          const rings = { adx: new ValueRing(this.capacity), plusDi: new ValueRing(this.capacity), minusDi: new ValueRing(this.capacity) };
          const store: Store = {
            update: (bar) => {
              const a = ind.update(bar);
              rings.adx.push(a?.adx);
              rings.plusDi.push(a?.plusDi);
              rings.minusDi.push(a?.minusDi);
            },
          };
          return { store, out: this.linesOf(key, rings) };
        });
      },
      vwap: (period) => this.single(`vwap:${period}`, () => new Vwap(period)),
    };
    return new SeriesView(this, members);
  }
}

/** What a view holds besides its names and the three accessors. */
type SeriesMembers = Omit<BarSeries, 'symbol' | 'interval' | 'length' | 'count' | 'last'>;

/**
 * A history's view: own enumerable `symbol`, `interval`, `length`, `count`, `last`, then the
 * methods, frozen. Built by a constructor with shared getters so it has a fast shape (an object
 * literal with getters is a dictionary: a strategy reads `bars.sma(...)` every bar). The history
 * is private: nothing reaches `push` from here.
 */
class SeriesView {
  readonly #h: BarHistory;

  static readonly #LENGTH: PropertyDescriptor = {
    get(this: SeriesView) {
      return this.#h.length;
    },
    enumerable: true,
  };

  static readonly #COUNT: PropertyDescriptor = {
    get(this: SeriesView) {
      return this.#h.count;
    },
    enumerable: true,
  };

  static readonly #LAST: PropertyDescriptor = {
    get(this: SeriesView) {
      return this.#h.last;
    },
    enumerable: true,
  };

  constructor(h: BarHistory, members: SeriesMembers) {
    this.#h = h;
    const self = this as unknown as Record<string, unknown>;
    self.symbol = h.symbol;
    self.interval = h.interval;
    Object.defineProperty(this, 'length', SeriesView.#LENGTH);
    Object.defineProperty(this, 'count', SeriesView.#COUNT);
    Object.defineProperty(this, 'last', SeriesView.#LAST);
    Object.assign(this, members);
    Object.freeze(this);
  }
}
