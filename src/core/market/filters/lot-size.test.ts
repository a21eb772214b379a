import { describe, expect, it } from 'vitest';
import { order } from '../test-support.ts';
import { checkLotSize, parseLotSize } from './lot-size.ts';

const f = parseLotSize({ filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '1000', stepSize: '0.000001' }, 'f');
const reasons = (quantity: string) => checkLotSize(f, order({ price: '1', quantity })).map((v) => v.reason);

describe('LOT_SIZE', () => {
  it('passes at minQty and maxQty exactly', () => {
    expect(reasons('0.000001')).toEqual([]);
    expect(reasons('1000')).toEqual([]);
  });
  it('fails one step outside the bounds', () => {
    expect(reasons('0')).toEqual(['below-min']);
    expect(reasons('1000.000001')).toEqual(['above-max']);
  });
  it('fails off the step by one unit, with the spec 7.5 text', () => {
    const [v] = checkLotSize(f, order({ quantity: '0.0000015' }));
    expect(v?.message).toBe('Filter failure: LOT_SIZE');
    expect(v?.field).toBe('quantity');
    expect(v?.reason).toBe('off-step');
    expect(v?.detail).toBe('quantity 0.0000015 is not a multiple of stepSize 0.000001 above minQty 0.000001');
  });
  it('measures the step from minQty (spec 2.3)', () => {
    const g = parseLotSize({ minQty: '0.15', maxQty: '100', stepSize: '0.1' }, 'g');
    expect(checkLotSize(g, order({ quantity: '0.25' }))).toEqual([]);
    expect(checkLotSize(g, order({ quantity: '0.3' })).map((v) => v.reason)).toEqual(['off-step']);
  });
  it('handles 18-decimal steps on huge quantities', () => {
    const g = parseLotSize({ minQty: '0', maxQty: '0', stepSize: '0.000000000000000001' }, 'g');
    expect(checkLotSize(g, order({ quantity: '123456789012.123456789012345678' }))).toEqual([]);
    expect(checkLotSize(g, order({ quantity: '123456789012.1234567890123456781' })).map((v) => v.reason)).toEqual(['off-step']);
  });
  it('skips orders sized only by quoteOrderQty', () => {
    expect(checkLotSize(f, order({ type: 'MARKET', quoteOrderQty: '100' }))).toEqual([]);
  });
  it('parses numbers and strings alike and names bad fields', () => {
    const n = parseLotSize({ minQty: 0.000001, maxQty: 1000, stepSize: 1e-6 }, 'n');
    expect(n.stepSize.eq(f.stepSize)).toBe(true);
    expect(() => parseLotSize({ minQty: '-1', maxQty: '1', stepSize: '1' }, 'p')).toThrow('p.minQty: "-1" is negative');
    expect(() => parseLotSize({ minQty: '1', stepSize: '1' }, 'p')).toThrow('p.maxQty is missing');
  });
});
