/**
 * A small direct-mapped memo keyed by text, for immutable values parsed from the same few
 * strings by several layers within one fill (a Decimal, an X40). The slot is a hash of the length
 * and the last characters (where amounts differ); the latest value per slot wins. No Map to grow,
 * rehash or clear, and small on purpose: nothing it holds lives long enough to be promoted to the
 * old generation.
 */
export class TextMemo<V> {
  private readonly keys: (string | undefined)[];
  private readonly values: (V | undefined)[];
  private readonly mask: number;

  /** `slots` must be a power of two. */
  constructor(slots: number) {
    if (!(slots > 0 && (slots & (slots - 1)) === 0)) throw new RangeError(`TextMemo slots must be a power of two, got ${slots}`);
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.values = new Array<V | undefined>(slots).fill(undefined);
    this.mask = slots - 1;
  }

  get(text: string): V | undefined {
    const h = this.slot(text);
    return this.keys[h] === text ? this.values[h] : undefined;
  }

  set(text: string, value: V): void {
    const h = this.slot(text);
    this.keys[h] = text;
    this.values[h] = value;
  }

  private slot(text: string): number {
    const n = text.length;
    if (n === 0) return 0;
    return (n * 7 + text.charCodeAt(n - 1) * 31 + (n > 1 ? text.charCodeAt(n - 2) * 5 : 0) + (n > 2 ? text.charCodeAt(n - 3) : 0)) & this.mask;
  }
}
