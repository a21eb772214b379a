/**
 * A line: an indicator's (or a bar field's) values over the closed bars of one series, newest
 * at ago = 0. Lines are live views: a line kept across handler calls reads the latest values.
 * `crossover` / `crossunder` compare the last two values of two lines (or a line and a level)
 * with the qtpylib rule of core/indicators/cross.ts.
 */
import { crossedAbove, crossedBelow } from '../core/indicators/cross.ts';

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

/** The ring behind a line made by `ValueRing.asLine` (a hidden key), else undefined. */
const RING: unique symbol = Symbol('ring');
const ringOf = (x: LineLike): ValueRing | undefined => (x as { [RING]?: ValueRing })[RING];

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
    this.buf[this.next] = value === undefined ? Number.NaN : value;
    this.next = (this.next + 1) % this.capacity;
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

  /** The value `ago` (0 or 1, an integer) back, NaN when there is none. */
  raw(ago: number): number {
    if (ago >= this.count) return Number.NaN;
    let i = this.next - 1 - ago;
    if (i < 0) i += this.capacity;
    return this.buf[i] as number;
  }

  last(count: number): (number | undefined)[] {
    const n = Math.max(0, Math.min(Math.floor(count), this.count));
    const out: (number | undefined)[] = new Array<number | undefined>(n);
    for (let i = 0; i < n; i++) out[i] = this.at(n - 1 - i);
    return out;
  }

  /** A frozen, read-only Line over this ring. */
  asLine(): Line {
    const at = (ago: number) => this.at(ago);
    const line = {
      get value() {
        return at(0);
      },
      at,
      last: (count: number) => Object.freeze(this.last(count)),
      get ready() {
        return at(0) !== undefined;
      },
    };
    Object.defineProperty(line, RING, { value: this });
    return Object.freeze(line);
  }
}
