/**
 * A line: an indicator's (or a bar field's) values over the closed bars of one series, newest
 * at ago = 0. Lines are live views: a line kept across handler calls reads the latest values.
 * `crossover` / `crossunder` compare the last two values of two lines (or a line and a level)
 * with the qtpylib rule of core/indicators/cross.ts.
 */
import { crossedAbove, crossedBelow } from '../../core/indicators/cross.ts';

export interface Line {
  /** Value on the last closed bar; undefined while warming up. */
  readonly value: number | undefined;
  /** Value `ago` bars back (0 = last closed bar); undefined past what is kept or during warm-up. */
  at(ago: number): number | undefined;
  /** The last `count` values, oldest first (shorter when fewer are kept). */
  last(count: number): readonly (number | undefined)[];
  /** True once the line has a value. */
  readonly ready: boolean;
}

/** Anything with `at(ago)`: a Line, or your own. */
export type LineLike = Pick<Line, 'at'>;

const prevOf = (x: LineLike | number): number | undefined => (typeof x === 'number' ? x : x.at(1));
const nowOf = (x: LineLike | number): number | undefined => (typeof x === 'number' ? x : x.at(0));

/** The ring behind a line made by `ValueRing.asLine`, else undefined. */
const ringOf = (x: LineLike): ValueRing | undefined => RingLine.ringOf(x);

/**
 * The qtpylib rule over two rings read directly (a strategy crosses two indicator lines every
 * bar: no boxed number per value read). NaN stands for a missing value; any comparison with it
 * is false, as crossedAbove / crossedBelow answer false for undefined.
 */
function ringCross(above: boolean, a: ValueRing, b: ValueRing | number): boolean {
  if (typeof b !== 'number') return a.crosses(above, b);
  const aPrev = a.raw(1);
  const aNow = a.raw(0);
  if (Number.isNaN(aPrev) || Number.isNaN(aNow) || Number.isNaN(b)) return false;
  return above ? aNow > b && aPrev <= b : aNow < b && aPrev >= b;
}

/** `a` crossed above `b` on the last closed bar (a > b now, a <= b one bar before). */
export function crossover(a: LineLike, b: LineLike | number): boolean {
  const ra = ringOf(a);
  const rb = typeof b === 'number' ? b : ringOf(b);
  if (ra !== undefined && rb !== undefined) return ringCross(true, ra, rb);
  return crossedAbove(a.at(1), a.at(0), prevOf(b), nowOf(b));
}

/** `a` crossed below `b` on the last closed bar (a < b now, a >= b one bar before). */
export function crossunder(a: LineLike, b: LineLike | number): boolean {
  const ra = ringOf(a);
  const rb = typeof b === 'number' ? b : ringOf(b);
  if (ra !== undefined && rb !== undefined) return ringCross(false, ra, rb);
  return crossedBelow(a.at(1), a.at(0), prevOf(b), nowOf(b));
}

/** Values kept for a line: a ring of `capacity` numbers, NaN standing for "no value yet". */
export class ValueRing {
  private readonly buf: Float64Array;
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.buf = new Float64Array(capacity);
  }

  push(value: number | undefined): void {
    this.pushRaw(value === undefined ? Number.NaN : value);
  }

  /** `pushRaw(src.out)`, taking the object (bar-series.ts StepStore: no double passed to a call). */
  pushOut(src: { readonly out: number }): void {
    const i = this.next;
    this.buf[i] = src.out;
    this.next = i + 1 === this.capacity ? 0 : i + 1;
    if (this.count < this.capacity) this.count++;
  }

  /** `push` of a number, NaN standing for "no value". */
  pushRaw(value: number): void {
    const i = this.next;
    this.buf[i] = value;
    this.next = i + 1 === this.capacity ? 0 : i + 1;
    if (this.count < this.capacity) this.count++;
  }

  at(ago: number): number | undefined {
    if (!Number.isInteger(ago) || ago < 0 || ago >= this.count) return undefined;
    const v = this.buf[(this.next - 1 - ago + this.capacity * 2) % this.capacity] as number;
    return Number.isNaN(v) ? undefined : v;
  }

  /**
   * ringCross of this ring over `b` (a crossed above b when `above`, else below), read in one
   * frame: no number crosses a call boundary, so none is boxed (two lines crossed every bar).
   */
  crosses(above: boolean, b: ValueRing): boolean {
    if (this.count < 2 || b.count < 2) return false;
    const ia = this.next - 1 < 0 ? this.next - 1 + this.capacity : this.next - 1;
    const ja = ia - 1 < 0 ? ia - 1 + this.capacity : ia - 1;
    const ib = b.next - 1 < 0 ? b.next - 1 + b.capacity : b.next - 1;
    const jb = ib - 1 < 0 ? ib - 1 + b.capacity : ib - 1;
    const aNow = this.buf[ia] as number;
    const aPrev = this.buf[ja] as number;
    const bNow = b.buf[ib] as number;
    const bPrev = b.buf[jb] as number;
    if (Number.isNaN(aPrev) || Number.isNaN(aNow) || Number.isNaN(bPrev) || Number.isNaN(bNow)) return false;
    return above ? aNow > bNow && aPrev <= bPrev : aNow < bNow && aPrev >= bPrev;
  }

  /** The value `ago` (a whole number, 0 or 1 on the crossover path) back, NaN when there is none. */
  raw(ago: number): number {
    if (ago >= this.count) return Number.NaN;
    let i = this.next - 1 - ago;
    if (i < 0) i += this.capacity;
    return this.buf[i] as number;
  }

  /**
   * Step `ind` (Sma, Ema) with the value `ago` back, read in place from the buffer (only the array
   * and an index cross the call: bar-series.ts, an SMA of another line); false, `ind` untouched,
   * when there is none (warm-up, or past what is kept).
   */
  stepFrom(ind: { stepAt(values: Float64Array, i: number): void }, ago: number): boolean {
    if (ago >= this.count) return false;
    let i = this.next - 1 - ago;
    if (i < 0) i += this.capacity;
    const buf = this.buf;
    if (Number.isNaN(buf[i])) return false;
    ind.stepAt(buf, i);
    return true;
  }

  last(count: number): (number | undefined)[] {
    const n = Math.max(0, Math.min(Math.floor(count), this.count));
    const out: (number | undefined)[] = new Array<number | undefined>(n);
    for (let i = 0; i < n; i++) out[i] = this.at(n - 1 - i);
    return out;
  }

  /** A frozen, read-only Line over this ring. */
  asLine(): Line {
    return new RingLine(this);
  }
}

/**
 * The Line over a ring: own enumerable `value`, `at`, `last`, `ready` (in that order, `at` and
 * `last` usable detached), frozen. Built by a constructor with one shared getter per accessor so
 * every line has the same fast shape (an object literal with getters is a dictionary, each its
 * own): strategies read lines every bar and `crossover` finds the ring of both lines. The ring
 * is private: a strategy gets no way to write to it.
 */
class RingLine implements Line {
  readonly #ring: ValueRing;
  declare readonly value: number | undefined;
  declare readonly ready: boolean;
  declare readonly at: (ago: number) => number | undefined;
  declare readonly last: (count: number) => readonly (number | undefined)[];

  static readonly #VALUE: PropertyDescriptor = {
    get(this: RingLine) {
      return this.#ring.at(0);
    },
    enumerable: true,
  };

  static readonly #READY: PropertyDescriptor = {
    get(this: RingLine) {
      return this.#ring.at(0) !== undefined;
    },
    enumerable: true,
  };

  constructor(ring: ValueRing) {
    this.#ring = ring;
    Object.defineProperty(this, 'value', RingLine.#VALUE);
    this.at = (ago) => ring.at(ago);
    this.last = (count) => Object.freeze(ring.last(count));
    Object.defineProperty(this, 'ready', RingLine.#READY);
    Object.freeze(this);
  }

  static ringOf(x: LineLike): ValueRing | undefined {
    return typeof x === 'object' && x !== null && #ring in x ? x.#ring : undefined;
  }
}
