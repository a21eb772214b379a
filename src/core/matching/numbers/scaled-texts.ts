/**
 * Decimal strings of a symbol's scaled prices or quantities, made once per distinct value. A book
 * repeats a few hundred prices and lot sizes millions of times; formatting each time (and keeping
 * a string per order) was a large share of a placed order's cost and of what the GC had to copy.
 * A direct-mapped cache (slot = value mod 4096, the latest value per slot wins): a lookup is one
 * mask and one compare, cheaper than hashing into a Map, and a wandering price costs nothing
 * more than the plain formatter.
 */
import { formatScaled } from './scaled.ts';

const SLOTS = 4096;
const MASK = SLOTS - 1;

export class ScaledTexts {
  private readonly keys = new Float64Array(SLOTS).fill(NaN);
  private readonly texts: string[] = new Array<string>(SLOTS).fill('');

  constructor(readonly decimals: number) {}

  /** formatScaled(n, decimals), cached. */
  get(n: number): string {
    if (n === 0) return '0';
    const i = n & MASK;
    if (this.keys[i] === n) return this.texts[i] as string;
    const s = formatScaled(n, this.decimals);
    this.keys[i] = n;
    this.texts[i] = s;
    return s;
  }
}
