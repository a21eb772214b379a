import { describe, expect, it } from 'vitest';
import { BookSide } from './book-side.ts';
import type { Order } from './order.ts';

/** Just the fields a book side reads. */
const order = (price: number, qty: number): Order => ({ price, origQty: qty, executed: 0, get remaining() { return qty; }, level: null, prev: null, next: null }) as unknown as Order;

describe('BookSide', () => {
  it('keeps the best level last: highest bid, lowest ask', () => {
    const bids = new BookSide(true);
    const asks = new BookSide(false);
    for (const p of [100, 102, 99, 101, 102]) {
      bids.add(order(p, 1));
      asks.add(order(p, 1));
    }
    expect([...bids.walk()].map((l) => [l.price, l.qty])).toEqual([
      [102, 2],
      [101, 1],
      [100, 1],
      [99, 1],
    ]);
    expect([...asks.walk(2)].map((l) => l.price)).toEqual([99, 100]);
    expect(bids.best()?.price).toBe(102);
  });

  it('queues orders of a level first in, first out and drops empty levels', () => {
    const side = new BookSide(true);
    const a = order(100, 1);
    const b = order(100, 2);
    const c = order(100, 3);
    for (const o of [a, b, c]) side.add(o);
    side.remove(b);
    const lv = side.level(100);
    expect(lv?.head).toBe(a);
    expect(lv?.tail).toBe(c);
    expect(a.next).toBe(c);
    expect(lv?.qty).toBe(4);
    side.remove(a);
    side.remove(c);
    expect(side.level(100)).toBeUndefined();
    expect(side.best()).toBeUndefined();
  });

  it('removes a level from the middle', () => {
    const side = new BookSide(false);
    const mid = order(101, 1);
    for (const o of [order(100, 1), mid, order(102, 1)]) side.add(o);
    side.remove(mid);
    expect(side.levels.map((l) => l.price)).toEqual([102, 100]);
  });

  it('reuses an emptied level in its place, and forgets emptied levels beyond the few it keeps', () => {
    const side = new BookSide(false);
    const orders = Array.from({ length: 200 }, (_, i) => order(1000 + i, 1));
    for (const o of orders) side.add(o);
    for (const o of orders) side.remove(o);
    expect(side.best()).toBeUndefined();
    expect(side.level(1000)).toBeUndefined();
    // Refill prices in another order: each level comes back listed once, sorted, with its own quantity.
    for (const p of [1150, 1003, 1199, 1000, 1003]) side.add(order(p, 2));
    expect([...side.walk()].map((l) => [l.price, l.qty, l.count])).toEqual([
      [1000, 2, 1],
      [1003, 4, 2],
      [1150, 2, 1],
      [1199, 2, 1],
    ]);
    expect(side.level(1003)?.qty).toBe(4);
  });
});
