import { describe, expect, it } from 'vitest';
import { OrderIndex } from './order-index.ts';
import type { Order } from './order.ts';

const order = (seq: number) => ({ seq, slot: -1 }) as Order;

describe('OrderIndex', () => {
  it('finds orders by seq', () => {
    const idx = new OrderIndex();
    const orders = [0, 1, 5, 9, 2 ** 40].map(order);
    for (const o of orders) idx.set(o);
    orders.forEach((o) => expect(idx.get(o.seq)).toBe(o));
    expect(idx.get(3)).toBeUndefined();
    expect(idx.size).toBe(5);
  });

  it('refuses a seq that is not above the last one', () => {
    const idx = new OrderIndex();
    idx.set(order(5));
    expect(() => idx.set(order(5))).toThrow(RangeError);
    expect(() => idx.set(order(4))).toThrow(RangeError);
  });

  it('forgets orders and compacts the holes', () => {
    const idx = new OrderIndex();
    const orders = Array.from({ length: 5000 }, (_, i) => order(1000 + i));
    for (const o of orders) idx.set(o);
    for (let i = 0; i < 4000; i++) idx.forget(orders[i] as Order);
    idx.forget(order(123));
    expect(idx.size).toBe(1000);
    expect(idx.get(1000)).toBeUndefined();
    for (let i = 4000; i < 5000; i++) expect(idx.get(1000 + i)).toBe(orders[i]);
    const late = order(99_999);
    idx.set(late);
    expect(idx.get(99_999)).toBe(late);
  });
});
