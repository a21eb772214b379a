import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkMinNotional, parseMinNotional } from './min-notional.ts';

const f = parseMinNotional({ filterType: 'MIN_NOTIONAL', minNotional: 10 }, 'f');

describe('MIN_NOTIONAL', () => {
  it('passes at minNotional exactly and has no maximum', () => {
    expect(checkMinNotional(f, order({ price: '2.5', quantity: '4' }))).toEqual([]);
    expect(checkMinNotional(f, order({ price: '1000000000', quantity: '1000000000' }))).toEqual([]);
  });
  it('fails just below with the spec 7.5 text', () => {
    const out = checkMinNotional(f, order({ price: '2.5', quantity: '3.999999999999999999' }));
    expect(out.map((v) => [v.reason, v.message])).toEqual([['below-min', 'Filter failure: MIN_NOTIONAL']]);
  });
  it('checks MARKET orders by quoteOrderQty or a reference price', () => {
    expect(checkMinNotional(f, order({ type: 'MARKET', quoteOrderQty: '9' }))).toHaveLength(1);
    expect(checkMinNotional(f, order({ type: 'MARKET', quantity: '1' }), market({ lastPrice: '10' }))).toEqual([]);
    const skipped: string[] = [];
    checkMinNotional(f, order({ type: 'MARKET', quantity: '1' }), {}, skipped);
    expect(skipped).toHaveLength(1);
  });
  it('names a bad minNotional', () => {
    expect(() => parseMinNotional({ minNotional: null }, 's[1].filters[0]')).toThrow('s[1].filters[0].minNotional: null is not a decimal');
  });
});
