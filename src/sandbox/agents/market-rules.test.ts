import { describe, expect, it } from 'vitest';
import { parseInstrument } from '../../core/market/index.ts';
import { MarketRules } from './market-rules.ts';
import { rulesOf } from './test-support.ts';

describe('MarketRules', () => {
  it('maps prices to ticks and back on the grid measured from minPrice', () => {
    const r = rulesOf({ tickSize: '0.01', minPrice: '0.01' });
    expect(r.units('2000.00')).toBe(200_000);
    expect(r.price(r.units('2000'))).toBe('2000.00');
    expect(r.price(r.units('1999.996'))).toBe('2000.00');
    const odd = rulesOf({ tickSize: '0.01', minPrice: '0.005' });
    expect(odd.price(odd.units('10'))).toBe('10.005');
    expect(odd.price(0)).toBe('0.005');
    expect(odd.price(odd.units('0.001'))).toBe('0.005');
  });

  it('keeps prices inside [minPrice, maxPrice]', () => {
    const r = rulesOf({ tickSize: '0.5', minPrice: '0.5', maxPrice: '100' });
    expect(r.price(r.units('0.1'))).toBe('0.5');
    expect(r.price(r.units('250'))).toBe('100.0');
    expect([r.minUnits, r.maxUnits]).toEqual([1, 200]);
  });

  it('finds the smallest quantity the lot and notional filters accept', () => {
    const r = rulesOf({ stepSize: '0.0001', minQty: '0.0001', minNotional: '10' });
    expect(r.minQty('2000').toFixed()).toBe('0.005');
    expect(r.minQty('3').toFixed()).toBe('3.3334');
    expect(rulesOf({ minNotional: '0' }).minQty('2000').toFixed()).toBe('0.0001');
  });

  it('fits quantities: down to the step, up to the minimum, down to maxQty and maxNotional', () => {
    const r = rulesOf({ stepSize: '0.001', minQty: '0.001', maxQty: '50', minNotional: '5', maxNotional: '60000' });
    expect(r.fitQty('1.23456', '2000')).toBe('1.234');
    expect(r.fitQty('0', '2000')).toBe('0.003');
    expect(r.fitQty('70', '100')).toBe('50.000');
    expect(r.fitQty('70', '2000')).toBe('30.000');
    expect(rulesOf({ maxQty: '0.001', minNotional: '10' }).fitQty('1', '2000')).toBeUndefined();
  });

  it('works without filters: quote precision as the tick, base precision as the step', () => {
    const r = new MarketRules(parseInstrument({ symbol: 'XY', status: 'TRADING', baseAsset: 'X', quoteAsset: 'Y', baseAssetPrecision: 3, quoteAssetPrecision: 2, filters: [] }));
    expect(r.price(r.units('1.234'))).toBe('1.23');
    expect(r.fitQty('1.23456', '1')).toBe('1.234');
    expect(r.minQty('1').toFixed()).toBe('0.001');
  });
});
