/**
 * One side of a symbol's book: price levels keyed by integer price, each a FIFO of orders
 * (intrusive doubly-linked list, so cancel is O(1) within a level). Levels sit in an array sorted
 * worst to best, so the best level is the last element: taking it and removing it are O(1), and
 * inserting a new level is a binary search plus a short memmove. Price-time priority: best price
 * first, then arrival order within the level.
 */
import type { Order } from './order.ts';

/** Emptied levels a side keeps for reuse (a wandering price leaves the rest to the GC). */
const EMPTY_KEPT = 64;

export class Level {
  /** Sum of the remaining quantity of the level's orders. */
  qty = 0;
  count = 0;
  head: Order | null = null;
  tail: Order | null = null;
  constructor(readonly price: number) {}
}

export class BookSide {
  /** Sorted worst to best: bids ascending, asks descending. */
  readonly levels: Level[] = [];
  /**
   * Every listed level by price, and up to EMPTY_KEPT emptied ones: a level at the spread empties
   * and refills all the time, and keeping it saves a Level and two Map changes each time.
   */
  private readonly byPrice = new Map<number, Level>();
  private empties = 0;

  constructor(readonly isBid: boolean) {}

  best(): Level | undefined {
    // Not levels[length - 1] on an empty side: index -1 is a named-property lookup through the
    // prototype chain, and an empty side is what every order of a backtest asks first.
    const levels = this.levels;
    const n = levels.length;
    return n === 0 ? undefined : levels[n - 1];
  }

  /** The listed level at `price` (undefined when there is none). */
  level(price: number): Level | undefined {
    const lv = this.byPrice.get(price);
    return lv !== undefined && lv.count > 0 ? lv : undefined;
  }

  /** Append at the tail of its price level (time priority). */
  add(o: Order): Level {
    let lv = this.byPrice.get(o.price);
    if (lv === undefined) {
      lv = new Level(o.price);
      this.byPrice.set(o.price, lv);
      this.insertLevel(lv);
    } else if (lv.count === 0) {
      this.empties--;
      this.insertLevel(lv);
    }
    o.level = lv;
    o.prev = lv.tail;
    o.next = null;
    if (lv.tail === null) lv.head = o;
    else lv.tail.next = o;
    lv.tail = o;
    lv.count++;
    lv.qty += o.remaining;
    return lv;
  }

  /** Unlink an order (its remaining quantity leaves the level); drops the level when empty. */
  remove(o: Order): void {
    const lv = o.level;
    if (lv === null) return;
    lv.qty -= o.remaining;
    if (o.prev === null) lv.head = o.next;
    else o.prev.next = o.next;
    if (o.next === null) lv.tail = o.prev;
    else o.next.prev = o.prev;
    o.prev = o.next = o.level = null;
    if (--lv.count === 0) this.dropLevel(lv);
  }

  /** Best first, at most `limit` levels. */
  *walk(limit = Infinity): Generator<Level> {
    for (let i = this.levels.length - 1, n = 0; i >= 0 && n < limit; i--, n++) yield this.levels[i] as Level;
  }

  private dropLevel(lv: Level): void {
    // Kept for reuse (its count is 0, its list empty) while few are; else forgotten.
    lv.qty = 0;
    if (this.empties < EMPTY_KEPT) this.empties++;
    else this.byPrice.delete(lv.price);
    const top = this.levels.length - 1;
    if (this.levels[top] === lv) this.levels.pop();
    else this.levels.splice(this.search(lv.price), 1);
  }

  private insertLevel(lv: Level): void {
    const levels = this.levels;
    const top = levels[levels.length - 1];
    // Most new levels are the new best or near it: check the end first.
    if (top === undefined || this.better(lv.price, top.price)) levels.push(lv);
    else levels.splice(this.search(lv.price), 0, lv);
  }

  private better(a: number, b: number): boolean {
    return this.isBid ? a > b : a < b;
  }

  /** Insertion point for `price`: the first level not worse than it (the level itself when present). */
  private search(price: number): number {
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = (levels[mid] as Level).price;
      if (this.isBid ? p < price : p > price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
