import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkPercentPriceSa, parsePercentPriceSa } from './percent-price-sa.ts';

const f = parsePercentPriceSa({ filterType: 'PERCENT_PRICE_SA', multiplierUp: '5', multiplierDown: '0.2', avgPriceMins: 1 }, 'f');
const sa = market({ simpleAvgPrice: '10', weightedAvgPrice: '1000' });

describe('PERCENT_PRICE_SA', () => {
  it('uses the simple average, inclusive at both edges', () => {
    expect(checkPercentPriceSa(f, order({ price: '50' }), sa)).toEqual([]);
    expect(checkPercentPriceSa(f, order({ price: '2' }), sa)).toEqual([]);
  });
  it('fails outside with the generic 7.5 text', () => {
    const out = checkPercentPriceSa(f, order({ price: '50.01' }), sa);
    expect(out.map((v) => [v.reason, v.message])).toEqual([['above-max', 'Filter failure: PERCENT_PRICE_SA']]);
    expect(checkPercentPriceSa(f, order({ price: '1.99' }), sa).map((v) => v.reason)).toEqual(['below-min']);
  });
  it('skips without simpleAvgPrice', () => {
    const skipped: string[] = [];
    checkPercentPriceSa(f, order({ price: '1' }), market({ weightedAvgPrice: '1' }), skipped);
    expect(skipped).toEqual(['simpleAvgPrice unknown']);
  });
});
