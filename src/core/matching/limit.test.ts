import { describe, expect, it } from 'vitest';
import { harness } from './test-support.ts';

describe('LIMIT orders', () => {
  it('GTC rests on the book and locks price * qty quote (BUY) or qty base (SELL)', () => {
    const h = harness();
    const buy = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '2' });
    expect(buy.order).toMatchObject({ status: 'NEW', executedQty: '0', isWorking: true, timeInForce: 'GTC' });
    expect(buy.fills).toEqual([]);
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '101.5', quantity: '0.5' });
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: '999800', locked: '200' });
    expect(h.balances.get('bob', 'BTC')).toEqual({ free: '99.5', locked: '0.5' });
    expect(h.engine.depth('BTCPHP')).toEqual({ lastUpdateId: 2, bids: [['100', '2']], asks: [['101.5', '0.5']] });
  });

  it('fills at the maker price and refunds the price improvement', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '105', quantity: '1' });
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '1', cummulativeQuoteQty: '100', price: '105' });
    expect(r.fills).toEqual([{ price: '100', qty: '1', commission: '0', commissionAsset: 'BTC', tradeId: expect.any(String) }]);
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '999900', locked: '0' });
    expect(h.balances.get('bob', 'BTC')).toEqual({ free: '101', locked: '0' });
    expect(h.balances.get('alice', 'BTC')).toEqual({ free: '99', locked: '0' });
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: '1000100', locked: '0' });
    expect(h.engine.lastPrice('BTCPHP')).toBe('100');
  });

  it('takes the best price first, then the earliest order at that price', () => {
    const h = harness({ fund: { a: { BTC: '10' }, b: { BTC: '10' }, c: { BTC: '10' }, buyer: { PHP: '10000' } } });
    const worse = h.place('a', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '1' });
    const first = h.place('b', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const second = h.place('c', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('buyer', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '1.5' });
    expect(r.fills.map((f) => [f.price, f.qty])).toEqual([
      ['100', '1'],
      ['100', '0.5'],
    ]);
    const ids = (acct: string) => h.engine.openOrders(acct).map((o) => [o.orderId, o.status, o.executedQty]);
    expect(ids('b')).toEqual([]);
    expect(ids('c')).toEqual([[second.order.orderId, 'PARTIALLY_FILLED', '0.5']]);
    expect(ids('a')).toEqual([[worse.order.orderId, 'NEW', '0']]);
    expect(h.engine.order('b', 'BTCPHP', { orderId: first.order.orderId })[0]?.status).toBe('FILLED');
  });

  it('rests the remainder of a partly filled GTC order', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '3' });
    expect(r.order).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '1', origQty: '3' });
    expect(h.engine.depth('BTCPHP').bids).toEqual([['100', '2']]);
    expect(h.balances.get('bob', 'PHP').locked).toBe('200');
  });

  it('IOC fills what it can and expires the rest, unlocking it', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '100', quantity: '3' });
    expect(r.order).toMatchObject({ status: 'EXPIRED', executedQty: '1', timeInForce: 'IOC' });
    expect(h.engine.depth('BTCPHP').bids).toEqual([]);
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '999900', locked: '0' });
  });

  it('FOK fills completely or expires without touching the book', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '1' });
    const miss = h.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '101', quantity: '2.001' });
    expect(miss.order).toMatchObject({ status: 'EXPIRED', executedQty: '0' });
    expect(miss.fills).toEqual([]);
    expect(h.engine.depth('BTCPHP').asks).toEqual([
      ['100', '1'],
      ['101', '1'],
    ]);
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '1000000', locked: '0' });
    const hit = h.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '101', quantity: '2' });
    expect(hit.order).toMatchObject({ status: 'FILLED', executedQty: '2', cummulativeQuoteQty: '201' });
  });

  it('charges maker and taker commission in the asset received and credits the fee account', () => {
    const h = harness({ fee: { maker: '0.001', taker: '0.002' } });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '2' });
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '2' });
    expect(r.fills[0]).toMatchObject({ commission: '0.004', commissionAsset: 'BTC' });
    expect(h.balances.get('bob', 'BTC').free).toBe('101.996');
    expect(h.balances.get('alice', 'PHP').free).toBe('1000199.8');
    expect(h.balances.all('fees')).toEqual([
      { asset: 'BTC', free: '0.004', locked: '0' },
      { asset: 'PHP', free: '0.2', locked: '0' },
    ]);
    expect(h.balances.total('BTC')).toBe('200');
    expect(h.balances.total('PHP')).toBe('2000000');
  });
});
