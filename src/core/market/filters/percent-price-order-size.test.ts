import { describe, expect, it } from 'vitest';
import { levels, market, order } from '../test-support.ts';
import { checkPercentPriceOrderSize, parsePercentPriceOrderSize } from './percent-price-order-size.ts';

const f = parsePercentPriceOrderSize({ filterType: 'PERCENT_PRICE_ORDER_SIZE', multiplierUp: '1.05', multiplierDown: '0.95' }, 'f');
const asks = levels(['100', '1'], ['104.99', '1'], ['105', '1'], ['110', '1']);
const bids = levels(['100', '1'], ['95.01', '1'], ['95', '1']);
const book = market({ asks, bids });

describe('PERCENT_PRICE_ORDER_SIZE', () => {
  it('BUY passes while the price after the fill stays strictly below ask * multiplierUp', () => {
    expect(checkPercentPriceOrderSize(f, order({ type: 'MARKET', quantity: '2' }), book)).toEqual([]);
  });
  it('BUY fails when the fill reaches ask * multiplierUp exactly (strict)', () => {
    const out = checkPercentPriceOrderSize(f, order({ type: 'MARKET', quantity: '3' }), book);
    expect(out).toEqual([
      {
        filterType: 'PERCENT_PRICE_ORDER_SIZE',
        field: 'priceAfterFill',
        reason: 'above-max',
        message: 'Filter failure: PERCENT_PRICE_ORDER_SIZE',
        detail: 'price after the fill 105 is not below bestAsk 100 * multiplierUp 1.05 = 105',
      },
    ]);
  });
  it('SELL fails when the fill reaches bid * multiplierDown exactly, passes just above', () => {
    expect(checkPercentPriceOrderSize(f, order({ side: 'SELL', type: 'MARKET', quantity: '2' }), book)).toEqual([]);
    const out = checkPercentPriceOrderSize(f, order({ side: 'SELL', type: 'MARKET', quantity: '3' }), book);
    expect(out.map((v) => v.reason)).toEqual(['below-min']);
  });
  it('a LIMIT order stops at its price, so a limit inside the band passes', () => {
    expect(checkPercentPriceOrderSize(f, order({ price: '104.99', quantity: '10' }), book)).toEqual([]);
    expect(checkPercentPriceOrderSize(f, order({ price: '110', quantity: '10' }), book)).toHaveLength(1);
  });
  it('uses bestAsk from the context over the book top', () => {
    const m = market({ asks, bestAsk: '110' });
    expect(checkPercentPriceOrderSize(f, order({ type: 'MARKET', quantity: '4' }), m)).toEqual([]);
  });
  it('does not apply to LIMIT_MAKER or untriggered stops', () => {
    const skipped: string[] = [];
    expect(checkPercentPriceOrderSize(f, order({ type: 'LIMIT_MAKER', price: '200', quantity: '9' }), {}, skipped)).toEqual([]);
    expect(checkPercentPriceOrderSize(f, order({ type: 'STOP_LOSS', stopPrice: '1', quantity: '9' }), {}, skipped)).toEqual([]);
    expect(skipped).toEqual([]);
  });
  it('skips without the reference price or the book', () => {
    const skipped: string[] = [];
    checkPercentPriceOrderSize(f, order({ type: 'MARKET', quantity: '1' }), {}, skipped);
    checkPercentPriceOrderSize(f, order({ type: 'MARKET', quantity: '1' }), market({ bestAsk: '100' }), skipped);
    expect(skipped).toEqual(['bestAsk unknown', 'asks unknown (needed to estimate the price after the fill)']);
  });
});
