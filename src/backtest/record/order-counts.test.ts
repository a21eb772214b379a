import { describe, expect, it } from 'vitest';
import { orderCounts, ordersText } from './order-counts.ts';

describe('order counts', () => {
  it('orders the statuses as they are told, any other after them by name', () => {
    const counts = orderCounts({ statusCounts: () => ({ NEW: 2, ZZZ: 1, CANCELED: 3, FILLED: 5, AAA: 1 }) });
    expect(Object.keys(counts)).toEqual(['FILLED', 'CANCELED', 'NEW', 'AAA', 'ZZZ']);
    expect(counts).toEqual({ FILLED: 5, CANCELED: 3, NEW: 2, AAA: 1, ZZZ: 1 });
  });

  it('says how many were sent and what became of them; nothing when none was', () => {
    expect(ordersText({ FILLED: 12, PARTIALLY_CANCELED: 1, CANCELED: 6, REJECTED: 1, PARTIALLY_FILLED: 1, NEW: 2 })).toBe(
      '23 sent to the venue: 12 filled, 1 canceled part filled, 6 canceled, 1 rejected by the venue, 1 open part filled, 2 open',
    );
    expect(ordersText({})).toBeUndefined();
    expect(ordersText(undefined)).toBeUndefined();
    expect(ordersText({ FILLED: 0 })).toBeUndefined();
  });
});
