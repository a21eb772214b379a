/**
 * A fixed-size window of the last `size` numbers (a ring over a Float64Array): the storage of the
 * windowed indicators. Pure.
 */
/** shift's one-value array (single-threaded: filled and read within one call). */
const ONE = new Float64Array(1);

export class NumberWindow {
  private readonly buf: Float64Array;
  private start = 0;
  private count = 0;

  constructor(readonly size: number) {
    this.buf = new Float64Array(size);
  }

  get length(): number {
    return this.count;
  }

  get full(): boolean {
    return this.count === this.size;
  }

  /**
   * The value the last `shift` pushed out (0 when nothing fell out). A field rather than a return
   * value: a double returned by a call that is not inlined is boxed, one heap number a bar for
   * each windowed indicator of a backtest; a double field is updated in place.
   */
  out = 0;

  /** Append; returns the value that fell out when the window was full. */
  push(value: number): number | undefined {
    const full = this.count === this.size;
    this.shift(value);
    return full ? this.out : undefined;
  }

  /** Append; the value that fell out is in `out` (0 while the window fills: Sma does `total += input - out`). */
  shift(value: number): void {
    ONE[0] = value;
    this.shiftAt(ONE, 0);
  }

  /** `shift(values[i])`: the indicators' hot path, where no double crosses the call (a double passed to a call that is not inlined is a heap number). */
  shiftAt(values: Float64Array, at: number): void {
    const value = values[at] as number;
    const size = this.size;
    if (this.count < size) {
      let i = this.start + this.count;
      if (i >= size) i -= size;
      this.buf[i] = value;
      this.count++;
      this.out = 0;
      return;
    }
    const start = this.start;
    this.out = this.buf[start] as number;
    this.buf[start] = value;
    this.start = start + 1 === size ? 0 : start + 1;
  }

  /** i = 0 is the oldest value kept. */
  get(i: number): number {
    return this.buf[(this.start + i) % this.size] as number;
  }

  /** Sum of the values kept, oldest first (the order of the additions fixes the float result). */
  sum(): number {
    const { buf, size, count } = this;
    let s = 0;
    let j = this.start;
    for (let i = 0; i < count; i++) {
      s += buf[j] as number;
      if (++j === size) j = 0;
    }
    return s;
  }

  clear(): void {
    this.start = 0;
    this.count = 0;
  }
}
