/**
 * Retained orders by their position in the engine's id sequence (id-sequence.ts; `Order.seq`).
 * Positions are issued in increasing order, so the index is two append-only arrays searched by
 * binary search on numbers: no string hashing or comparing on the hot path (a Map of fresh
 * 19-digit keys was a fifth of a placed order's time in the benchmark). Forgotten orders leave
 * holes, compacted away once they make up two thirds of the arrays.
 */
import type { Order } from './order.ts';

export class OrderIndex {
  private seqs: number[] = [];
  private orders: (Order | undefined)[] = [];
  private holes = 0;

  get size(): number {
    return this.seqs.length - this.holes;
  }

  /** Index an order; its seq must be above every seq indexed before (the engine issues them so). */
  set(o: Order): void {
    const last = this.seqs[this.seqs.length - 1];
    if (last !== undefined && !(o.seq > last)) throw new RangeError(`order seq ${o.seq} is not above the last indexed (${last})`);
    o.slot = this.seqs.length;
    this.seqs.push(o.seq);
    this.orders.push(o);
  }

  get(seq: number): Order | undefined {
    const i = this.search(seq);
    return i >= 0 ? this.orders[i] : undefined;
  }

  /** Take an indexed order out (by its slot, no search). */
  forget(o: Order): void {
    const i = o.slot;
    if (i >= 0 && this.orders[i] === o) this.clear(i);
  }

  private clear(i: number): void {
    const o = this.orders[i];
    if (o === undefined) return;
    o.slot = -1;
    this.orders[i] = undefined;
    // Compact once holes are two thirds of the arrays: each compaction copies the live entries,
    // so it runs after at least twice as many forgets (amortised O(1), and rare on a deep book).
    if (++this.holes > 1024 && this.holes * 3 > this.seqs.length * 2) this.compact();
  }

  private search(seq: number): number {
    const seqs = this.seqs;
    let lo = 0;
    let hi = seqs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = seqs[mid] as number;
      if (m === seq) return this.orders[mid] === undefined ? -1 : mid;
      if (seq > m) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private compact(): void {
    const seqs: number[] = [];
    const orders: Order[] = [];
    const old = this.orders;
    for (let i = 0; i < old.length; i++) {
      const o = old[i];
      if (o === undefined) continue;
      o.slot = seqs.length;
      seqs.push(o.seq);
      orders.push(o);
    }
    this.seqs = seqs;
    this.orders = orders;
    this.holes = 0;
  }
}
