import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkPercentPriceBySide, parsePercentPriceBySide } from './percent-price-by-side.ts';

const f = parsePercentPriceBySide(
  { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '1.2', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.8' },
  'f',
);
const last = market({ lastPrice: '100' });

describe('PERCENT_PRICE_BY_SIDE', () => {
  it('uses the bid multipliers for BUY, inclusive', () => {
    expect(checkPercentPriceBySide(f, order({ side: 'BUY', price: '120' }), last)).toEqual([]);
    expect(checkPercentPriceBySide(f, order({ side: 'BUY', price: '20' }), last)).toEqual([]);
    const [v] = checkPercentPriceBySide(f, order({ side: 'BUY', price: '120.01' }), last);
    expect(v?.detail).toBe('price 120.01 is above lastPrice 100 * bidMultiplierUp 1.2 = 120');
    expect(v?.message).toBe('Filter failure: PERCENT_PRICE_BY_SIDE');
  });
  it('uses the ask multipliers for SELL', () => {
    expect(checkPercentPriceBySide(f, order({ side: 'SELL', price: '500' }), last)).toEqual([]);
    expect(checkPercentPriceBySide(f, order({ side: 'SELL', price: '80' }), last)).toEqual([]);
    const [v] = checkPercentPriceBySide(f, order({ side: 'SELL', price: '79.99' }), last);
    expect(v?.reason).toBe('below-min');
    expect(v?.detail).toBe('price 79.99 is below lastPrice 100 * askMultiplierDown 0.8 = 80');
  });
  it('skips without a last price', () => {
    const skipped: string[] = [];
    checkPercentPriceBySide(f, order({ price: '1' }), market({ weightedAvgPrice: '1' }), skipped);
    expect(skipped).toEqual(['lastPrice unknown']);
  });
  it('names the missing field when parsing', () => {
    expect(() => parsePercentPriceBySide({ bidMultiplierUp: '1', bidMultiplierDown: '1', askMultiplierUp: '1' }, 'x')).toThrow(
      'x.askMultiplierDown is missing',
    );
  });
});
