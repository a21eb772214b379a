/**
 * The equity curve as the backtest loop records it: three growing Float64Arrays (bar close time,
 * equity, position), one slot a bar, instead of one EquityPoint object a bar (a year of 1-minute
 * bars is 525,600 of them: ~50 MB of heap and young-generation copying while the loop runs).
 *
 * A BacktestRun (types.ts) still has `equity: EquityPoint[]`: `attachEquity` defines it as a lazy
 * field (lazy-field.ts) that builds the array the first time it is read, so JSON.stringify,
 * spreads and structured clones of a run are exactly what they were. Readers that only need numbers (computeMetrics) take the columns
 * through `equityColumnsOf` and never build the objects.
 */
import { jsonSlices } from '../../data/json-file.ts';
import { numbersText } from './json-numbers.ts';
import { defineLazyField, lazySource } from './lazy-field.ts';
import { plotColumnsOf, plotsForJson } from './plot-recorder.ts';
import type { BacktestRun, EquityPoint, PlotLine } from '../types.ts';

export interface EquityColumns {
  readonly length: number;
  readonly time: Float64Array;
  readonly equity: Float64Array;
  readonly position: Float64Array;
}

/** Slots per chunk: growing by whole chunks never holds a doubled copy of a year of columns. */
const CHUNK = 65_536;

export class EquityRecorder {
  private n = 0;
  /** Full chunks, then the one being filled (`time`, `equity`, `position`, `at` used). */
  private chunks: { time: Float64Array; equity: Float64Array; position: Float64Array }[] = [];
  private time: Float64Array;
  private equity: Float64Array;
  private position: Float64Array;
  private at = 0;

  /**
   * `expected`: slots the caller knows it will fill (an array of bars): one allocation of that
   * size, filled in place and handed out without a join. Without it (or past it), the columns grow.
   */
  constructor(expected = 0) {
    const size = Number.isSafeInteger(expected) && expected > 1024 ? expected : 1024;
    this.time = new Float64Array(size);
    this.equity = new Float64Array(size);
    this.position = new Float64Array(size);
  }

  get length(): number {
    return this.n;
  }

  push(time: number, equity: number, position: number): void {
    const i = this.slot();
    this.time[i] = time;
    this.equity[i] = equity;
    this.position[i] = position;
  }

  /**
   * `push(bar.closeTime, held.quote + held.base * bar.close, held.base)`, taking the objects: the
   * backtest loop records a point a bar, and a double passed to a call that is not inlined is a
   * heap number (three a bar); fields read here are not.
   */
  record(bar: { readonly closeTime: number; readonly close: number }, held: { readonly quote: number; readonly base: number }): void {
    const i = this.slot();
    this.time[i] = bar.closeTime;
    this.equity[i] = held.quote + held.base * bar.close;
    this.position[i] = held.base;
  }

  /** The next slot's index in the current columns (grown when full), counted as filled. */
  private slot(): number {
    let i = this.at;
    if (i === this.time.length) i = this.grow();
    this.at = i + 1;
    this.n++;
    return i;
  }

  /** The recorded columns, exactly `length` long (the chunks are joined once, then kept joined). */
  columns(): EquityColumns {
    if (this.chunks.length > 0) {
      const n = this.n;
      const join = (pick: (c: { time: Float64Array; equity: Float64Array; position: Float64Array }) => Float64Array, last: Float64Array) => {
        const out = new Float64Array(n);
        let o = 0;
        for (const c of this.chunks) {
          const part = pick(c);
          out.set(part, o);
          o += part.length;
        }
        out.set(last.subarray(0, this.at), o);
        return out;
      };
      const time = join((c) => c.time, this.time);
      const equity = join((c) => c.equity, this.equity);
      const position = join((c) => c.position, this.position);
      this.chunks = [];
      this.time = time;
      this.equity = equity;
      this.position = position;
      this.at = n;
    }
    const n = this.n;
    return Object.freeze({ length: n, time: this.time.subarray(0, n), equity: this.equity.subarray(0, n), position: this.position.subarray(0, n) });
  }

  /** Room for the next slot: double a small current array, or start a new chunk; returns the slot. */
  private grow(): number {
    const size = this.time.length;
    if (size < CHUNK) {
      const t = new Float64Array(size * 2);
      const e = new Float64Array(size * 2);
      const p = new Float64Array(size * 2);
      t.set(this.time);
      e.set(this.equity);
      p.set(this.position);
      this.time = t;
      this.equity = e;
      this.position = p;
      return this.at;
    }
    this.chunks.push({ time: this.time, equity: this.equity, position: this.position });
    this.time = new Float64Array(CHUNK);
    this.equity = new Float64Array(CHUNK);
    this.position = new Float64Array(CHUNK);
    this.at = 0;
    return 0;
  }
}

/** EquityPoint objects of the columns, oldest first. */
export function equityPoints(c: EquityColumns): EquityPoint[] {
  return equityPointsIn(c, 0, c.length);
}

/** The EquityPoints of slots [start, end) of the columns. */
function equityPointsIn(c: EquityColumns, start: number, end: number): EquityPoint[] {
  const out = new Array<EquityPoint>(end - start);
  for (let i = start; i < end; i++) out[i - start] = { time: c.time[i]!, equity: c.equity[i]!, position: c.position[i]! };
  return out;
}

/**
 * The equity curve as number columns: the run's own (no copy) while `run.equity` is not built,
 * else taken from its points. What metrics, monthly returns and the report's curves read.
 */
export function equityCurve(run: Pick<BacktestRun, 'equity'>): { length: number; values: ArrayLike<number>; times: ArrayLike<number>; positions: ArrayLike<number> | undefined } {
  const c = equityColumnsOf(run);
  if (c !== undefined) return { length: c.length, values: c.equity, times: c.time, positions: c.position };
  return { length: run.equity.length, values: run.equity.map((p) => p.equity), times: run.equity.map((p) => p.time), positions: undefined };
}

/**
 * The JSON text of slots [start, end) as EquityPoints (JsonSlices.render): what JSON.stringify
 * writes for each point, put together directly (a number prints as JSON prints a finite one: its
 * toString). Undefined if a value is not finite (JSON writes those differently): the writer then
 * stringifies the points. A year of points is about 50 MB of text, made without a point object.
 */
function pointsText(c: EquityColumns, start: number, end: number, pad: string, unit: string): string | undefined {
  // unit '': JSON.stringify(point) on one line (writeJsonFile's entryPerLine), no space after a colon.
  const line = unit === '';
  const open = line ? `\n${pad}{"time":` : `\n${pad}{\n${pad}${unit}"time": `;
  const equity = line ? ',"equity":' : `,\n${pad}${unit}"equity": `;
  const position = line ? ',"position":' : `,\n${pad}${unit}"position": `;
  const close = line ? '}' : `\n${pad}}`;
  // The numbers printed by JSON.stringify, three texts for the slice: printing each number alone
  // (a template) would put every one in V8's number-string cache, which keeps them past young
  // collections (about 40 MB more peak RSS for a year). A non-finite one prints as null: not here.
  const times = numbersText(c.time, start, end);
  const values = numbersText(c.equity, start, end);
  const positions = numbersText(c.position, start, end);
  if (times === undefined || values === undefined || positions === undefined) return undefined;
  const parts = new Array<string>(end - start);
  for (let k = 0; k < parts.length; k++) parts[k] = `${open}${times[k]}${equity}${values[k]}${position}${positions[k]}${close}`;
  return parts.join(',');
}


/**
 * `run` as data/json-file.ts writeJsonFile should get it: the same keys in the same order, each
 * read from the run when written, except an equity not built yet, which is written from its
 * columns a slice at a time (jsonSlices) instead of as 525,600 objects for a year of 1-minute
 * bars. The text written is the same.
 */
export function runForJson(run: object): object {
  const c = equityColumnsOf(run);
  const plots = (run as { plots?: PlotLine[] }).plots;
  const plotted = plots !== undefined && plots.some((line) => plotColumnsOf(line) !== undefined);
  if (c === undefined && !plotted) return run;
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(run)) {
    if (key === 'equity' && c !== undefined) view[key] = jsonSlices(c.length, (start, end) => equityPointsIn(c, start, end), (start, end, pad, unit) => pointsText(c, start, end, pad, unit));
    // The plotted lines' points likewise (plot-recorder.ts), when the strategy plotted.
    else if (key === 'plots' && plotted) view[key] = plotsForJson(plots);
    else Object.defineProperty(view, key, { enumerable: true, get: () => (run as Record<string, unknown>)[key] });
  }
  return view;
}

/** The columns a run was built from, when it came from runBacktest and its equity was not replaced. */
export function equityColumnsOf(run: object): EquityColumns | undefined {
  return lazySource<EquityColumns>(run, 'equity');
}

/**
 * Define `run.equity` from the columns: materialised on first read (then a plain data property,
 * same key position), assignable like a data property. Call it where `equity` belongs in the
 * object's key order (JSON keeps that order).
 */
export function attachEquity<T extends object>(run: T, columns: EquityColumns): T & { equity: EquityPoint[] } {
  defineLazyField(run, 'equity', columns, equityPoints);
  return run as T & { equity: EquityPoint[] };
}
