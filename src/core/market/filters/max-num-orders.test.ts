import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkMaxNumOrders, parseMaxNumOrders } from './max-num-orders.ts';

const f = parseMaxNumOrders({ filterType: 'MAX_NUM_ORDERS', maxNumOrders: '200' }, 'f');

describe('MAX_NUM_ORDERS', () => {
  it('parses "200" and 200 alike', () => {
    expect(f.maxNumOrders).toBe(200);
    expect(parseMaxNumOrders({ maxNumOrders: 200 }, 'g').maxNumOrders).toBe(200);
    expect(() => parseMaxNumOrders({ maxNumOrders: 'x' }, 'g')).toThrow('g.maxNumOrders: "x" is not a non-negative integer');
  });
  it('allows the order that reaches the maximum, refuses the next', () => {
    expect(checkMaxNumOrders(f, order(), market({ openOrders: 199 }))).toEqual([]);
    expect(checkMaxNumOrders(f, order(), market({ openOrders: 200 }))).toEqual([
      {
        filterType: 'MAX_NUM_ORDERS',
        field: 'openOrders',
        reason: 'too-many',
        message: 'Filter failure: MAX_NUM_ORDERS',
        detail: '200 open orders on BTCPHP + this one = 201 is above maxNumOrders 200',
      },
    ]);
  });
  it('counts algo orders too', () => {
    expect(checkMaxNumOrders(f, order({ type: 'STOP_LOSS_LIMIT' }), market({ openOrders: 200 }))).toHaveLength(1);
  });
  it('skips without the count', () => {
    const skipped: string[] = [];
    expect(checkMaxNumOrders(f, order(), {}, skipped)).toEqual([]);
    expect(skipped).toEqual(['openOrders unknown']);
  });
});
