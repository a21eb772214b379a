import { describe, expect, it } from 'vitest';
import { OrderIndex } from './order-index.ts';
import type { Order } from './order.ts';

const order = (seq: number) => ({ seq }) as Order;

describe('OrderIndex', () => {
  it('finds orders by seq, across pages and far apart', () => {
    const idx = new OrderIndex();
    const orders = [0, 1, 5, 4095, 4096, 9, 2 ** 40, 2 ** 52 + 3].map(order);
    for (const o of orders) idx.set(o);
    orders.forEach((o) => expect(idx.get(o.seq)).toBe(o));
    for (const missing of [3, 4097, 2 ** 40 + 1, -1, 0.5, NaN]) expect(idx.get(missing)).toBeUndefined();
    expect(idx.size).toBe(orders.length);
  });

  it('refuses a seq indexed already', () => {
    const idx = new OrderIndex();
    idx.set(order(5));
    expect(() => idx.set(order(5))).toThrow(RangeError);
  });

  it('forgets orders, drops emptied pages and indexes again', () => {
    const idx = new OrderIndex();
    const orders = Array.from({ length: 10_000 }, (_, i) => order(1000 + i));
    for (const o of orders) idx.set(o);
    for (let i = 0; i < 9000; i++) idx.forget(orders[i] as Order);
    idx.forget(order(123));
    idx.forget(order(10_500));
    expect(idx.size).toBe(1000);
    expect(idx.get(1000)).toBeUndefined();
    for (let i = 9000; i < 10_000; i++) expect(idx.get(1000 + i)).toBe(orders[i]);
    const again = order(1000);
    idx.set(again);
    expect(idx.get(1000)).toBe(again);
    expect(idx.size).toBe(1001);
  });
});
