import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkMaxNumAlgoOrders, parseMaxNumAlgoOrders } from './max-num-algo-orders.ts';

const f = parseMaxNumAlgoOrders({ filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 }, 'f');

describe('MAX_NUM_ALGO_ORDERS', () => {
  it('checks each algo type: the fifth passes, the sixth fails with MAX_ALGO_ORDERS', () => {
    for (const type of ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const) {
      expect(checkMaxNumAlgoOrders(f, order({ type }), market({ openAlgoOrders: 4 }))).toEqual([]);
      const out = checkMaxNumAlgoOrders(f, order({ type }), market({ openAlgoOrders: 5 }));
      expect(out.map((v) => [v.filterType, v.field, v.reason, v.message])).toEqual([
        ['MAX_NUM_ALGO_ORDERS', 'openAlgoOrders', 'too-many', 'Filter failure: MAX_ALGO_ORDERS'],
      ]);
    }
  });
  it('ignores non-algo orders, even without a count', () => {
    const skipped: string[] = [];
    expect(checkMaxNumAlgoOrders(f, order({ type: 'LIMIT' }), market({ openAlgoOrders: 99 }), skipped)).toEqual([]);
    expect(checkMaxNumAlgoOrders(f, order({ type: 'MARKET' }), {}, skipped)).toEqual([]);
    expect(skipped).toEqual([]);
  });
  it('skips an algo order without the count', () => {
    const skipped: string[] = [];
    checkMaxNumAlgoOrders(f, order({ type: 'TAKE_PROFIT' }), {}, skipped);
    expect(skipped).toEqual(['openAlgoOrders unknown']);
  });
});
