/**
 * A first-in first-out list of an account's closed orders or trades, trimmed from the front by
 * the retention option (retention.ts). Dropping moves a head index instead of shifting the array:
 * shifting a long array of pointers to young objects made the GC record every moved slot, which
 * cost more than the rest of pruning. The array is cut down once the dropped front is half of it.
 */
export class History<T> implements Iterable<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  /** Drop the oldest entries until `keep` remain; each dropped one goes to `gone` first. */
  trimTo(keep: number, gone?: (x: T) => void): void {
    const items = this.items;
    const end = items.length - keep;
    if (end <= this.head) return;
    for (let i = this.head; i < end; i++) {
      if (gone !== undefined) gone(items[i] as T);
      items[i] = undefined;
    }
    this.head = end;
    if (end > 1024 && end * 2 > items.length) {
      this.items = items.slice(end);
      this.head = 0;
    }
  }

  *[Symbol.iterator](): Iterator<T> {
    const items = this.items;
    for (let i = this.head; i < items.length; i++) yield items[i] as T;
  }

  /** Oldest first, a copy. */
  toArray(): T[] {
    return this.items.slice(this.head) as T[];
  }
}
