/**
 * Decimal strings of a symbol's scaled prices or quantities, made once per distinct value. A book
 * repeats a few hundred prices and lot sizes millions of times; formatting each time (and keeping
 * a string per order) was a large share of a placed order's cost and of what the GC had to copy.
 * Bounded: past `CAP` distinct values the cache starts over, so a wandering price costs nothing
 * more than the plain formatter.
 */
import { formatScaled } from './scaled.ts';

const CAP = 4096;

export class ScaledTexts {
  private readonly map = new Map<number, string>();

  constructor(readonly decimals: number) {}

  /** formatScaled(n, decimals), cached. */
  get(n: number): string {
    if (n === 0) return '0';
    let s = this.map.get(n);
    if (s === undefined) {
      if (this.map.size >= CAP) this.map.clear();
      s = formatScaled(n, this.decimals);
      this.map.set(n, s);
    }
    return s;
  }
}
