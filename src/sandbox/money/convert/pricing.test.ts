import { describe, expect, it } from 'vitest';
import { D, toWire } from '../../../core/money/decimal.ts';
import { DEFAULT_SYMBOLS } from '../../config/defaults.ts';
import { convertPairs, findPair } from './pairs.ts';
import { deskPrice, inversePrice, quoteAmounts, referencePrice } from './pricing.ts';

describe('convert pairs and prices (spec 2.10)', () => {
  const pairs = convertPairs({ symbols: DEFAULT_SYMBOLS });

  it('derives two pairs per symbol with bounds from its filters', () => {
    expect(pairs).toHaveLength(10);
    expect(findPair(pairs, 'usdt', 'php')).toMatchObject({ minSourceAmount: '0.01', maxSourceAmount: '1000000', sourcePrecision: 2, targetPrecision: 3, sourceIsBase: true });
    expect(findPair(pairs, 'PHP', 'USDT')).toMatchObject({ minSourceAmount: '50', maxSourceAmount: '20000000', sourcePrecision: 3, targetPrecision: 2, sourceIsBase: false });
  });

  it('prices target per source less the spread, rounding amounts against the customer', () => {
    const ref = referencePrice(undefined, 'USDTPHP')!;
    expect(toWire(ref)).toBe('58');
    const sell = findPair(pairs, 'USDT', 'PHP')!;
    const buy = findPair(pairs, 'PHP', 'USDT')!;
    expect(toWire(deskPrice(sell, ref))).toBe('57.884');
    const buyPrice = deskPrice(buy, ref);
    expect(toWire(buyPrice)).toBe('0.01720689655');
    expect(inversePrice(buyPrice)).toBe('58.11623247');
    expect(quoteAmounts(buy, buyPrice, { sourceAmount: new D('1000') })).toEqual({ sourceAmount: new D('1000'), targetAmount: new D('17.2') });
    const byTarget = quoteAmounts(buy, buyPrice, { targetAmount: new D('10') });
    expect(toWire(byTarget.sourceAmount)).toBe('581.163');
    expect(byTarget.sourceAmount.times(buyPrice).gte(10)).toBe(true);
    expect(referencePrice(undefined, 'NOPE')).toBeUndefined();
  });
});
