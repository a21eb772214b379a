import { describe, expect, it } from 'vitest';
import { market, order } from '../test-support.ts';
import { checkPercentPrice, parsePercentPrice } from './percent-price.ts';

const f = parsePercentPrice({ filterType: 'PERCENT_PRICE', multiplierUp: '1.1', multiplierDown: '0.9', avgPriceMins: '5' }, 'f');
const avg = market({ weightedAvgPrice: '100' });

describe('PERCENT_PRICE', () => {
  it('parses avgPriceMins from "5" or 5, and allows it absent', () => {
    expect(f.avgPriceMins).toBe(5);
    expect(parsePercentPrice({ multiplierUp: 1.1, multiplierDown: 0.9, avgPriceMins: 5 }, 'g').avgPriceMins).toBe(5);
    expect(parsePercentPrice({ multiplierUp: 1.1, multiplierDown: 0.9 }, 'g').avgPriceMins).toBeUndefined();
    expect(() => parsePercentPrice({ multiplierUp: 1.1, multiplierDown: 0.9, avgPriceMins: '5.5' }, 'g')).toThrow(
      'g.avgPriceMins: "5.5" is not a non-negative integer',
    );
  });
  it('passes at both band edges exactly', () => {
    expect(checkPercentPrice(f, order({ price: '110', quantity: '1' }), avg)).toEqual([]);
    expect(checkPercentPrice(f, order({ price: '90', quantity: '1' }), avg)).toEqual([]);
  });
  it('fails one unit outside, naming the band', () => {
    const [up] = checkPercentPrice(f, order({ price: '110.000000000000000001' }), avg);
    expect(up).toMatchObject({ field: 'price', reason: 'above-max', message: 'Filter failure: PERCENT_PRICE' });
    expect(up?.detail).toBe('price 110.000000000000000001 is above weightedAvgPrice 100 * multiplierUp 1.1 = 110');
    const [down] = checkPercentPrice(f, order({ price: '89.999999999999999999' }), avg);
    expect(down?.reason).toBe('below-min');
  });
  it('skips without the weighted average, and says so', () => {
    const skipped: string[] = [];
    expect(checkPercentPrice(f, order({ price: '1000' }), market({ lastPrice: '100' }), skipped)).toEqual([]);
    expect(skipped).toEqual(['weightedAvgPrice unknown']);
  });
  it('does not apply to orders without a limit price', () => {
    const skipped: string[] = [];
    expect(checkPercentPrice(f, order({ type: 'MARKET', quantity: '1', price: '1000' }), avg, skipped)).toEqual([]);
    expect(checkPercentPrice(f, order({ type: 'STOP_LOSS', quantity: '1', stopPrice: '1000' }), {}, skipped)).toEqual([]);
    expect(skipped).toEqual([]);
  });
});
