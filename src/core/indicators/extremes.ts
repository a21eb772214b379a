/**
 * Highest and lowest of the last `period` inputs, O(1) amortised with a monotonic deque (each
 * input enters and leaves it once), so a 1-year run of a 1440-bar channel stays linear. First
 * output at the period-th input. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';

class Extreme extends BaseIndicator {
  private readonly idx: number[] = [];
  private readonly vals: number[] = [];
  private head = 0;
  private seen = 0;

  constructor(
    readonly period: number,
    /** True when `a` should evict `b` from the back of the deque (a dominates b). */
    private readonly dominates: (a: number, b: number) => boolean,
    name: string,
  ) {
    super();
    checkPeriod(name, period);
  }

  update(input: number): number | undefined {
    const i = this.seen++;
    while (this.vals.length > this.head && this.dominates(input, this.vals[this.vals.length - 1] as number)) {
      this.vals.pop();
      this.idx.pop();
    }
    this.vals.push(input);
    this.idx.push(i);
    while ((this.idx[this.head] as number) <= i - this.period) this.head++;
    if (this.head > 1024 && this.head * 2 > this.vals.length) {
      this.vals.splice(0, this.head);
      this.idx.splice(0, this.head);
      this.head = 0;
    }
    this.current = this.seen >= this.period ? (this.vals[this.head] as number) : undefined;
    return this.current;
  }

  protected restart(): void {
    this.idx.length = 0;
    this.vals.length = 0;
    this.head = 0;
    this.seen = 0;
  }
}

export class Highest extends Extreme {
  constructor(period: number) {
    super(period, (a, b) => a >= b, 'highest');
  }
}

export class Lowest extends Extreme {
  constructor(period: number) {
    super(period, (a, b) => a <= b, 'lowest');
  }
}

export function highest(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Highest(period), values);
}

export function lowest(values: readonly number[], period: number): (number | undefined)[] {
  return runSeries(new Lowest(period), values);
}
