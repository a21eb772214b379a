import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { harness } from './test-support.ts';

/** Asks at 100 (1), 101 (1), 102 (1) from alice; bids at 99 (1), 98 (1) from alice. */
function withBook(fund?: Record<string, Record<string, string>>) {
  const h = harness({ fund: { alice: { BTC: '100', PHP: '1000000' }, ...fund } });
  for (const price of ['100', '101', '102']) h.place('alice', { side: 'SELL', type: 'LIMIT', price, quantity: '1' });
  for (const price of ['99', '98']) h.place('alice', { side: 'BUY', type: 'LIMIT', price, quantity: '1' });
  return h;
}

describe('MARKET orders', () => {
  it('BUY by quantity walks the ask book', () => {
    const h = withBook({ bob: { PHP: '1000' } });
    const r = h.place('bob', { side: 'BUY', type: 'MARKET', quantity: '1.5' });
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '1.5', cummulativeQuoteQty: '150.5', price: '0', timeInForce: 'GTC' });
    expect(r.fills.map((f) => [f.price, f.qty])).toEqual([
      ['100', '1'],
      ['101', '0.5'],
    ]);
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '849.5', locked: '0' });
  });

  it('expires what the book cannot fill', () => {
    const h = withBook({ bob: { PHP: '1000' } });
    const r = h.place('bob', { side: 'BUY', type: 'MARKET', quantity: '5' });
    expect(r.order).toMatchObject({ status: 'EXPIRED', executedQty: '3', cummulativeQuoteQty: '303' });
    const empty = h.place('bob', { side: 'BUY', type: 'MARKET', quantity: '1' });
    expect(empty.order).toMatchObject({ status: 'EXPIRED', executedQty: '0' });
  });

  it('BUY by quantity stops when free quote runs out, never overspending', () => {
    const h = withBook({ bob: { PHP: '150' } });
    const r = h.place('bob', { side: 'BUY', type: 'MARKET', quantity: '2' });
    // 1 at 100, then 0.495 at 101 (whole 0.001 steps): 49.995 of the last 50.
    expect(r.order).toMatchObject({ status: 'EXPIRED', executedQty: '1.495', cummulativeQuoteQty: '149.995' });
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '0.005', locked: '0' });
  });

  it('rejects a BUY by quantity that cannot pay one step at the best ask', () => {
    const h = withBook({ bob: { PHP: '0.09' } });
    const r = h.try('bob', { side: 'BUY', type: 'MARKET', quantity: '1' });
    expect(r).toMatchObject({ ok: false, code: -2010, msg: ENGINE_MESSAGE.insufficientBalance });
  });

  it('BUY by quoteOrderQty spends up to the budget in whole steps and reports the quantity bought', () => {
    const h = withBook({ bob: { PHP: '1000' } });
    const r = h.place('bob', { side: 'BUY', type: 'MARKET', quoteOrderQty: '150' });
    // 1 at 100 (100), then 0.495 at 101 (49.995): 0.005 left buys no 0.001 step.
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '1.495', origQty: '1.495', cummulativeQuoteQty: '149.995', origQuoteOrderQty: '150' });
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '850.005', locked: '0' });
  });

  it('rejects quoteOrderQty above the free quote', () => {
    const h = withBook({ bob: { PHP: '10' } });
    expect(h.try('bob', { side: 'BUY', type: 'MARKET', quoteOrderQty: '10.01' })).toMatchObject({ ok: false, msg: ENGINE_MESSAGE.insufficientBalance });
  });

  it('SELL by quantity walks the bids; more than free base is rejected', () => {
    const h = withBook({ bob: { BTC: '2' } });
    expect(h.try('bob', { side: 'SELL', type: 'MARKET', quantity: '2.001' })).toMatchObject({ ok: false, msg: ENGINE_MESSAGE.insufficientBalance });
    const r = h.place('bob', { side: 'SELL', type: 'MARKET', quantity: '1.5' });
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '1.5', cummulativeQuoteQty: '148' });
    expect(h.balances.get('bob', 'BTC')).toEqual({ free: '0.5', locked: '0' });
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '148', locked: '0' });
  });

  it('SELL by quoteOrderQty sells until that much quote is received', () => {
    const h = withBook({ bob: { BTC: '5' } });
    const r = h.place('bob', { side: 'SELL', type: 'MARKET', quoteOrderQty: '148' });
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '1.5', cummulativeQuoteQty: '148', origQuoteOrderQty: '148' });
    expect(h.balances.get('bob', 'BTC').free).toBe('3.5');
  });

  it('SELL by quoteOrderQty is limited by the free base and expires the rest', () => {
    const h = withBook({ bob: { BTC: '1.2' } });
    const r = h.place('bob', { side: 'SELL', type: 'MARKET', quoteOrderQty: '1000' });
    expect(r.order).toMatchObject({ status: 'EXPIRED', executedQty: '1.2', cummulativeQuoteQty: '118.6' });
    expect(h.balances.get('bob', 'BTC')).toEqual({ free: '0', locked: '0' });
  });
});
