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
import { defineLazyField, lazySource } from './lazy-field.ts';
import type { EquityPoint } from './types.ts';

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
  const out = new Array<EquityPoint>(c.length);
  for (let i = 0; i < c.length; i++) out[i] = { time: c.time[i]!, equity: c.equity[i]!, position: c.position[i]! };
  return out;
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
