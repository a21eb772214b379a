import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkNotional, parseNotional } from './notional.ts';

const f = parseNotional({ filterType: 'NOTIONAL', minNotional: '100', maxNotional: '10000000' }, 'f');
const reasons = (o: Parameters<typeof order>[0], m = market()) => checkNotional(f, order(o), m).map((v) => v.reason);

describe('NOTIONAL', () => {
  it('passes at minNotional and maxNotional exactly', () => {
    expect(reasons({ price: '50', quantity: '2' })).toEqual([]);
    expect(reasons({ price: '5000000', quantity: '2' })).toEqual([]);
  });
  it('fails one unit outside, explaining the product', () => {
    const [v] = checkNotional(f, order({ price: '49.999999999999999999', quantity: '2' }), {});
    expect(v).toEqual({
      filterType: 'NOTIONAL',
      field: 'notional',
      reason: 'below-min',
      message: 'Filter failure: NOTIONAL',
      detail: 'notional 99.999999999999999998 (price 49.999999999999999999 * quantity 2) is below minNotional 100',
    });
    expect(reasons({ price: '5000000.000000000000000001', quantity: '2' })).toEqual(['above-max']);
  });
  it('multiplies 18-decimal price and quantity exactly', () => {
    expect(reasons({ price: '0.000000000000000001', quantity: '100000000000000000000' })).toEqual([]);
    expect(reasons({ price: '0.000000000000000001', quantity: '99999999999999999999.999999999999999999' })).toEqual(['below-min']);
    expect(reasons({ price: '100', quantity: '0.999999999999999999' })).toEqual(['below-min']);
    expect(reasons({ price: '100', quantity: '1.000000000000000000' })).toEqual([]);
  });
  it('MARKET uses quoteOrderQty, else quantity * lastPrice, else weightedAvgPrice', () => {
    expect(reasons({ type: 'MARKET', quoteOrderQty: '99.99' })).toEqual(['below-min']);
    expect(reasons({ type: 'MARKET', quoteOrderQty: '100' })).toEqual([]);
    const [v] = checkNotional(f, order({ type: 'MARKET', quantity: '1' }), market({ lastPrice: '99', weightedAvgPrice: '100' }));
    expect(v?.detail).toBe('notional 99 (lastPrice 99 * quantity 1) is below minNotional 100');
    expect(reasons({ type: 'MARKET', quantity: '1' }, market({ weightedAvgPrice: '100' }))).toEqual([]);
  });
  it('stop-market orders use their stop price', () => {
    expect(reasons({ type: 'STOP_LOSS', stopPrice: '99', quantity: '1' }, market({ lastPrice: '1000' }))).toEqual(['below-min']);
  });
  it('skips a MARKET order without quoteOrderQty or a reference price', () => {
    const skipped: string[] = [];
    expect(checkNotional(f, order({ type: 'MARKET', quantity: '1' }), {}, skipped)).toEqual([]);
    expect(skipped).toEqual(['MARKET order notional needs quoteOrderQty, lastPrice or weightedAvgPrice']);
  });
  it('treats a zero maxNotional as no maximum', () => {
    const g = parseNotional({ minNotional: 0, maxNotional: 0 }, 'g');
    expect(checkNotional(g, order({ price: '1000000000000', quantity: '1000000000000' }))).toEqual([]);
  });
});
