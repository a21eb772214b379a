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

/** `a` crossed above `b` on the last closed bar (a > b now, a <= b one bar before). */
export function crossover(a: LineLike, b: LineLike | number): boolean {
  return crossedAbove(a.at(1), a.at(0), prevOf(b), nowOf(b));
}

/** `a` crossed below `b` on the last closed bar (a < b now, a >= b one bar before). */
export function crossunder(a: LineLike, b: LineLike | number): boolean {
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

  last(count: number): (number | undefined)[] {
    const n = Math.max(0, Math.min(Math.floor(count), this.count));
    const out: (number | undefined)[] = new Array<number | undefined>(n);
    for (let i = 0; i < n; i++) out[i] = this.at(n - 1 - i);
    return out;
  }

  /** A frozen, read-only Line over this ring. */
  asLine(): Line {
    const at = (ago: number) => this.at(ago);
    return Object.freeze({
      get value() {
        return at(0);
      },
      at,
      last: (count: number) => Object.freeze(this.last(count)),
      get ready() {
        return at(0) !== undefined;
      },
    });
  }
}
