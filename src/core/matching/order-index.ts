/**
 * Orders by id. The injected generators issue ids in increasing order (the sandbox's decimal ids
 * above 2^53, a backtester's counter): those go into append-only arrays searched by binary
 * search, which costs the hot path no string hashing (a Map of fresh 19-digit keys was a fifth of
 * the time of a placed order in the benchmark). The order is "shorter first, then by text": for
 * canonical decimal ids that is numeric order, and it is a total order on any strings, so no id
 * needs checking. An id that does not come after the previous one goes into a Map. Forgotten
 * orders leave holes, compacted away once they make up two thirds of the arrays.
 */
import type { Order } from './order.ts';

/** a after b: longer, or as long and greater as text (numeric order for canonical decimals). */
const greater = (a: string, b: string): boolean => a.length > b.length || (a.length === b.length && a > b);

export class OrderIndex {
  private ids: string[] = [];
  private orders: (Order | undefined)[] = [];
  private holes = 0;
  private readonly other = new Map<string, Order>();

  get size(): number {
    return this.ids.length - this.holes + this.other.size;
  }

  set(o: Order): void {
    const last = this.ids[this.ids.length - 1];
    if (last === undefined || greater(o.id, last)) {
      o.slot = this.ids.length;
      this.ids.push(o.id);
      this.orders.push(o);
    } else {
      this.other.set(o.id, o);
    }
  }

  get(id: string): Order | undefined {
    const i = this.search(id);
    return i >= 0 ? this.orders[i] : this.other.get(id);
  }

  delete(id: string): void {
    const i = this.search(id);
    if (i < 0) {
      this.other.delete(id);
      return;
    }
    this.clear(i);
  }

  /** Delete an indexed order by its slot (no search); same as delete(o.id). */
  forget(o: Order): void {
    const i = o.slot;
    if (i >= 0 && this.orders[i] === o) this.clear(i);
    else this.delete(o.id);
  }

  private clear(i: number): void {
    const o = this.orders[i];
    if (o === undefined) return;
    o.slot = -1;
    this.orders[i] = undefined;
    // Compact once holes are two thirds of the arrays: each compaction copies the live entries,
    // so it runs after at least twice as many forgets (amortised O(1), and rare on a deep book).
    if (++this.holes > 1024 && this.holes * 3 > this.ids.length * 2) this.compact();
  }

  private search(id: string): number {
    const ids = this.ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = ids[mid] as string;
      if (m === id) return mid;
      if (greater(id, m)) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private compact(): void {
    const ids: string[] = [];
    const orders: Order[] = [];
    const oldIds = this.ids;
    const old = this.orders;
    for (let i = 0; i < old.length; i++) {
      const o = old[i];
      if (o === undefined) continue;
      o.slot = ids.length;
      ids.push(oldIds[i] as string);
      orders.push(o);
    }
    this.ids = ids;
    this.orders = orders;
    this.holes = 0;
  }
}
