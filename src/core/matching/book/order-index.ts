/**
 * Retained orders by their position in the engine's id sequence (id-sequence.ts; `Order.seq`).
 * Positions are dense (every placed order takes the next one), so the index is a page table:
 * pages of 4096 slots, found by the position's high part, a slot by its low part. Setting,
 * finding and forgetting are array stores and loads: no search, no string, and no array of
 * every order ever placed to grow and copy (two such arrays, searched by binary search, were
 * about 4% of the engine benchmark and their growth a tenth of its allocation). A page whose
 * orders are all forgotten is dropped, so memory follows the retained orders.
 */
import type { Order } from './order.ts';

const PAGE = 4096;
/** 1 / PAGE, exact: a page number by multiplication. */
const PER_PAGE = 1 / PAGE;

class Page {
  readonly slots: (Order | undefined)[] = new Array<Order | undefined>(PAGE);
  live = 0;
}

export class OrderIndex {
  private readonly pages = new Map<number, Page>();
  /** The page of the last order set: orders arrive in position order, so it is nearly always the one. */
  private lastNo = -1;
  private last: Page | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Index an order (its seq is a position not yet indexed). */
  set(o: Order): void {
    const no = Math.floor(o.seq * PER_PAGE);
    let page = no === this.lastNo ? this.last : this.pages.get(no);
    if (page === undefined) this.pages.set(no, (page = new Page()));
    this.lastNo = no;
    this.last = page;
    const i = o.seq - no * PAGE;
    if (page.slots[i] !== undefined) throw new RangeError(`order seq ${o.seq} is indexed already`);
    page.slots[i] = o;
    page.live++;
    this.count++;
  }

  /** The order at a position (-1 and other non-positions find nothing). */
  get(seq: number): Order | undefined {
    if (!(seq >= 0)) return undefined;
    const no = Math.floor(seq * PER_PAGE);
    return (no === this.lastNo ? this.last : this.pages.get(no))?.slots[seq - no * PAGE];
  }

  /** Take an indexed order out. */
  forget(o: Order): void {
    const no = Math.floor(o.seq * PER_PAGE);
    const page = no === this.lastNo ? this.last : this.pages.get(no);
    if (page === undefined) return;
    const i = o.seq - no * PAGE;
    if (page.slots[i] !== o) return;
    page.slots[i] = undefined;
    this.count--;
    if (--page.live > 0) return;
    this.pages.delete(no);
    if (this.last === page) {
      this.last = undefined;
      this.lastNo = -1;
    }
  }
}
