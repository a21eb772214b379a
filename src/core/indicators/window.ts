/**
 * A fixed-size window of the last `size` numbers (a ring over a Float64Array): the storage of the
 * windowed indicators. Pure.
 */
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

  /** Append; returns the value that fell out when the window was full. */
  push(value: number): number | undefined {
    return this.count < this.size ? (this.pushOut(value), undefined) : this.pushOut(value);
  }

  /**
   * `push`, answering 0 when nothing fell out: a number either way, so a hot caller gets no boxed
   * value (Sma does `total += input - evicted`, which is `input - 0` while the window fills).
   */
  pushOut(value: number): number {
    const size = this.size;
    if (this.count < size) {
      let i = this.start + this.count;
      if (i >= size) i -= size;
      this.buf[i] = value;
      this.count++;
      return 0;
    }
    const start = this.start;
    const evicted = this.buf[start] as number;
    this.buf[start] = value;
    this.start = start + 1 === size ? 0 : start + 1;
    return evicted;
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
