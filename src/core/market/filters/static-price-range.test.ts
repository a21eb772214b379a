import { describe, expect, it } from 'vitest';
import { order } from '../test-support.ts';
import { checkStaticPriceRange, parseStaticPriceRange } from './static-price-range.ts';

const f = parseStaticPriceRange({ filterType: 'STATIC_PRICE_RANGE', priceUp: '2000', priceDown: 100 }, 'f');
const reasons = (price: string) => checkStaticPriceRange(f, order({ price, quantity: '1' })).map((v) => v.reason);

describe('STATIC_PRICE_RANGE', () => {
  it('passes at priceDown and priceUp exactly', () => {
    expect(reasons('100')).toEqual([]);
    expect(reasons('2000')).toEqual([]);
  });
  it('fails one unit outside with the generic text', () => {
    expect(reasons('99.999999999999999999')).toEqual(['below-min']);
    expect(reasons('2000.000000000000000001')).toEqual(['above-max']);
    expect(checkStaticPriceRange(f, order({ price: '1' }))[0]?.message).toBe('Filter failure: STATIC_PRICE_RANGE');
  });
  it('ignores orders without a limit price', () => {
    expect(checkStaticPriceRange(f, order({ type: 'MARKET', quantity: '1' }))).toEqual([]);
  });
});
