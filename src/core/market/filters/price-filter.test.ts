import { describe, expect, it } from 'vitest';
import { order } from '../test-support.ts';
import { checkPriceFilter, parsePriceFilter } from './price-filter.ts';

const f = parsePriceFilter({ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' }, 'f');
const check = (price: string, stopPrice?: string) => checkPriceFilter(f, order({ price, quantity: '1', stopPrice, type: stopPrice ? 'STOP_LOSS_LIMIT' : 'LIMIT' }));

describe('PRICE_FILTER', () => {
  it('passes at minPrice and maxPrice exactly', () => {
    expect(check('0.01')).toEqual([]);
    expect(check('10000000')).toEqual([]);
    expect(check('10000000.00')).toEqual([]);
  });
  it('fails one tick outside the bounds', () => {
    expect(check('0.00').map((v) => v.reason)).toEqual(['below-min']);
    expect(check('10000000.01').map((v) => v.reason)).toEqual(['above-max']);
  });
  it('fails off the tick by one unit, with the spec 7.5 text and numbers', () => {
    const [v, ...rest] = check('0.015');
    expect(rest).toEqual([]);
    expect(v).toEqual({
      filterType: 'PRICE_FILTER',
      field: 'price',
      reason: 'off-tick',
      message: 'Filter failure: PRICE_FILTER',
      detail: 'price 0.015 is not a multiple of tickSize 0.01 above minPrice 0.01',
    });
    expect(check('1.000000000000000001').map((v) => v.reason)).toEqual(['off-tick']);
  });
  it('measures the tick from minPrice', () => {
    const g = parsePriceFilter({ minPrice: '0.005', maxPrice: '0', tickSize: '0.01' }, 'g');
    expect(checkPriceFilter(g, order({ price: '0.015' }))).toEqual([]);
    expect(checkPriceFilter(g, order({ price: '0.02' })).map((v) => v.reason)).toEqual(['off-tick']);
  });
  it('checks stopPrice too, reporting both fields', () => {
    const out = check('0.015', '0.001');
    expect(out.map((v) => [v.field, v.reason])).toEqual([
      ['price', 'off-tick'],
      ['stopPrice', 'below-min'],
      ['stopPrice', 'off-tick'],
    ]);
  });
  it('treats zero minPrice, maxPrice and tickSize as disabled', () => {
    const off = parsePriceFilter({ minPrice: 0, maxPrice: 0, tickSize: 0 }, 'off');
    expect(checkPriceFilter(off, order({ price: '123456789012.123456789012345678' }))).toEqual([]);
  });
  it('handles 18-decimal ticks on huge prices', () => {
    const fine = parsePriceFilter({ minPrice: '0.000000000000000001', maxPrice: '1000000000000', tickSize: '0.000000000000000001' }, 'x');
    expect(checkPriceFilter(fine, order({ price: '999999999999.999999999999999999' }))).toEqual([]);
    expect(checkPriceFilter(fine, order({ price: '1000000000000.000000000000000001' })).map((v) => v.reason)).toEqual(['above-max']);
  });
  it('parses numbers and strings alike', () => {
    const n = parsePriceFilter({ minPrice: 0.01, maxPrice: 10000000, tickSize: 0.01 }, 'n');
    expect(n.tickSize.eq(f.tickSize) && n.minPrice.eq(f.minPrice) && n.maxPrice.eq(f.maxPrice)).toBe(true);
    expect(() => parsePriceFilter({ minPrice: '0.01', maxPrice: '1', tickSize: 'abc' }, 'symbols[0].filters[2]')).toThrow(
      'symbols[0].filters[2].tickSize: "abc" is not a decimal',
    );
  });
  it('ignores MARKET orders without a price', () => {
    expect(checkPriceFilter(f, order({ type: 'MARKET', quantity: '1' }))).toEqual([]);
  });
});
