import { describe, expect, it } from 'vitest';
import { filterFailureMessage } from './messages.ts';

describe('filterFailureMessage (spec 7.5)', () => {
  it('uses the listed texts, MAX_ALGO_ORDERS for MAX_NUM_ALGO_ORDERS', () => {
    expect(filterFailureMessage('PRICE_FILTER')).toBe('Filter failure: PRICE_FILTER');
    expect(filterFailureMessage('MIN_NOTIONAL')).toBe('Filter failure: MIN_NOTIONAL');
    expect(filterFailureMessage('MAX_NUM_ALGO_ORDERS')).toBe('Filter failure: MAX_ALGO_ORDERS');
  });
  it('falls back to the filterType for unlisted filters', () => {
    expect(filterFailureMessage('NOTIONAL')).toBe('Filter failure: NOTIONAL');
    expect(filterFailureMessage('PERCENT_PRICE_BY_SIDE')).toBe('Filter failure: PERCENT_PRICE_BY_SIDE');
    expect(filterFailureMessage('toString')).toBe('Filter failure: toString');
  });
});
