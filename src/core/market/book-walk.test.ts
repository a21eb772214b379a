import { describe, expect, it } from 'vitest';
import { dec } from '../money/decimal.ts';
import { estimatePriceAfterFill } from './book-walk.ts';
import { levels, market, order } from './test-support.ts';

const asks = levels(['100', '1'], ['101', '0'], ['102', '2'], ['105', '3']);
const bids = levels(['99', '1'], ['98', '2']);
const price = (e: ReturnType<typeof estimatePriceAfterFill>) => (e.kind === 'fill' ? e.price.toFixed() : e.kind);

describe('estimatePriceAfterFill', () => {
  it('walks asks for a BUY by quantity, skipping empty levels', () => {
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quantity: '1' }), market({ asks })))).toBe('100');
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quantity: '1.5' }), market({ asks })))).toBe('102');
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quantity: '3' }), market({ asks })))).toBe('102');
  });
  it('ends at the deepest level when the book runs out', () => {
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quantity: '100' }), market({ asks })))).toBe('105');
  });
  it('walks by quote amount for quoteOrderQty', () => {
    // 100 at 100, then 204 buys the two units at 102 exactly.
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quoteOrderQty: '304' }), market({ asks })))).toBe('102');
    expect(price(estimatePriceAfterFill(order({ type: 'MARKET', quoteOrderQty: '304.01' }), market({ asks })))).toBe('105');
  });
  it('stops at the limit price, and a non-crossing order does not trade', () => {
    expect(price(estimatePriceAfterFill(order({ price: '102', quantity: '100' }), market({ asks })))).toBe('102');
    expect(price(estimatePriceAfterFill(order({ price: '99', quantity: '1' }), market({ asks })))).toBe('no-fill');
  });
  it('walks bids for a SELL', () => {
    expect(price(estimatePriceAfterFill(order({ side: 'SELL', type: 'MARKET', quantity: '2' }), market({ bids })))).toBe('98');
    expect(price(estimatePriceAfterFill(order({ side: 'SELL', price: '98.5', quantity: '2' }), market({ bids })))).toBe('99');
  });
  it('is unknown without the book side or a size', () => {
    expect(estimatePriceAfterFill(order({ quantity: '1' }), market({ bids }))).toMatchObject({ kind: 'unknown' });
    expect(estimatePriceAfterFill(order({ type: 'MARKET' }), market({ asks }))).toEqual({
      kind: 'unknown',
      why: 'order has neither quantity nor quoteOrderQty',
    });
  });
  it('uses the caller estimate when given', () => {
    const m = market({ priceAfterFill: (o) => (o.side === 'BUY' ? dec('123') : null) });
    expect(price(estimatePriceAfterFill(order({ quantity: '1' }), m))).toBe('123');
    expect(price(estimatePriceAfterFill(order({ side: 'SELL', quantity: '1' }), m))).toBe('no-fill');
  });
});
