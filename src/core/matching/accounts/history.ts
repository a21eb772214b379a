/**
 * A first-in first-out list of an account's closed orders or trades, trimmed from the front by
 * the retention option (retention.ts). A ring buffer: a push writes one slot and a trim clears
 * slots from the head, so a bounded history reuses one array forever. (Shifting the array made
 * the GC record every moved slot; cutting it down by `slice` copied the kept part every few
 * hundred orders.) The ring doubles when full, so an unbounded history grows as an array does.
 */
export class History<T> implements Iterable<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(16);
  /** Index of the oldest entry; `count` entries follow it, wrapping at the end. */
  private head = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(x: T): void {
    let items = this.items;
    if (this.count === items.length) items = this.grow();
    items[(this.head + this.count) & (items.length - 1)] = x;
    this.count++;
  }

  /**
   * Drop the oldest entries until `keep` remain; each dropped one goes to `gone(x, a, b)` first.
   * (`a` and `b` are passed through so the caller needs no closure: a closure over its arguments
   * made V8 allocate a context on every call of the caller, trimming or not.)
   */
  trimTo<A, B>(keep: number, gone?: (x: T, a: A, b: B) => void, a?: A, b?: B): void {
    const items = this.items;
    const mask = items.length - 1;
    let head = this.head;
    const drop = this.count - keep;
    if (drop <= 0) return;
    for (let n = drop; n > 0; n--) {
      if (gone !== undefined) gone(items[head] as T, a as A, b as B);
      items[head] = undefined;
      head = (head + 1) & mask;
    }
    this.head = head;
    this.count = keep;
  }

  /** Oldest first, without an iterator object (long histories, visited often). */
  forEach(fn: (x: T) => void): void {
    const items = this.items;
    const mask = items.length - 1;
    for (let i = 0; i < this.count; i++) fn(items[(this.head + i) & mask] as T);
  }

  *[Symbol.iterator](): Iterator<T> {
    const items = this.items;
    const mask = items.length - 1;
    for (let i = 0; i < this.count; i++) yield items[(this.head + i) & mask] as T;
  }

  /** Oldest first, a copy. */
  toArray(): T[] {
    const out: T[] = new Array<T>(this.count);
    const items = this.items;
    const mask = items.length - 1;
    for (let i = 0; i < this.count; i++) out[i] = items[(this.head + i) & mask] as T;
    return out;
  }

  /** Twice the room, entries moved to the front in order. */
  private grow(): (T | undefined)[] {
    const old = this.items;
    const next = new Array<T | undefined>(old.length * 2);
    const mask = old.length - 1;
    for (let i = 0; i < this.count; i++) next[i] = old[(this.head + i) & mask];
    this.items = next;
    this.head = 0;
    return next;
  }
}
