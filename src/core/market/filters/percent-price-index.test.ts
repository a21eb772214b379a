import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkPercentPriceIndex, parsePercentPriceIndex } from './percent-price-index.ts';

const f = parsePercentPriceIndex({ filterType: 'PERCENT_PRICE_INDEX', multiplierUp: 1.05, multiplierDown: '0.95' }, 'f');
const idx = market({ indexPrice: '200' });

describe('PERCENT_PRICE_INDEX', () => {
  it('passes at the edges and fails just outside', () => {
    expect(checkPercentPriceIndex(f, order({ price: '210' }), idx)).toEqual([]);
    expect(checkPercentPriceIndex(f, order({ price: '190' }), idx)).toEqual([]);
    const out = checkPercentPriceIndex(f, order({ price: '189.99' }), idx);
    expect(out).toEqual([
      {
        filterType: 'PERCENT_PRICE_INDEX',
        field: 'price',
        reason: 'below-min',
        message: 'Filter failure: PERCENT_PRICE_INDEX',
        detail: 'price 189.99 is below indexPrice 200 * multiplierDown 0.95 = 190',
      },
    ]);
  });
  it('skips without an index price', () => {
    const skipped: string[] = [];
    checkPercentPriceIndex(f, order({ price: '1' }), {}, skipped);
    expect(skipped).toEqual(['indexPrice unknown']);
  });
  it('treats a zero multiplierUp as no upper bound', () => {
    const g = parsePercentPriceIndex({ multiplierUp: '0', multiplierDown: '0' }, 'g');
    expect(checkPercentPriceIndex(g, order({ price: '1000000' }), idx)).toEqual([]);
  });
});
