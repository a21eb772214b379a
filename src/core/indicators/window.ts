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
    if (this.count < this.size) {
      this.buf[(this.start + this.count) % this.size] = value;
      this.count++;
      return undefined;
    }
    const evicted = this.buf[this.start] as number;
    this.buf[this.start] = value;
    this.start = (this.start + 1) % this.size;
    return evicted;
  }

  /** i = 0 is the oldest value kept. */
  get(i: number): number {
    return this.buf[(this.start + i) % this.size] as number;
  }

  sum(): number {
    let s = 0;
    for (let i = 0; i < this.count; i++) s += this.get(i);
    return s;
  }

  clear(): void {
    this.start = 0;
    this.count = 0;
  }
}
