import { describe, expect, it } from 'vitest';
import { OrderIndex } from './order-index.ts';
import type { Order } from './order.ts';

const order = (id: string) => ({ id }) as Order;

describe('OrderIndex', () => {
  it('finds increasing decimal ids and any other id', () => {
    const idx = new OrderIndex();
    const ids = ['9', '10', '1152921504606846977', '1152921504606846978', 'abc', '5', '010'];
    const orders = ids.map(order);
    for (const o of orders) idx.set(o);
    ids.forEach((id, i) => expect(idx.get(id)).toBe(orders[i]));
    expect(idx.get('11')).toBeUndefined();
    expect(idx.size).toBe(7);
  });

  it('forgets deleted ids and compacts the holes', () => {
    const idx = new OrderIndex();
    const orders = Array.from({ length: 5000 }, (_, i) => order(String(1000 + i)));
    for (const o of orders) idx.set(o);
    for (let i = 0; i < 4000; i++) idx.delete(String(1000 + i));
    idx.delete('nope');
    expect(idx.size).toBe(1000);
    expect(idx.get('1000')).toBeUndefined();
    for (let i = 4000; i < 5000; i++) expect(idx.get(String(1000 + i))).toBe(orders[i]);
    idx.set(order('99999'));
    expect(idx.get('99999')?.id).toBe('99999');
  });
});
