import { describe, expect, it } from 'vitest';
import { compareIds } from './queries.ts';
import { harness } from '../test-support.ts';

describe('queries', () => {
  it('depth aggregates levels, bids descending and asks ascending, with tops and last price', () => {
    const h = harness();
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1' });
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '0.5' });
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '98.5', quantity: '2' });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '1' });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    expect(h.engine.depth('BTCPHP')).toMatchObject({
      bids: [
        ['99', '1.5'],
        ['98.5', '2'],
      ],
      asks: [
        ['100', '1'],
        ['101', '1'],
      ],
    });
    expect(h.engine.depth('BTCPHP', 1)).toMatchObject({ bids: [['99', '1.5']], asks: [['100', '1']] });
    expect(h.engine.bestBid('BTCPHP')).toEqual({ price: '99', qty: '1.5' });
    expect(h.engine.bestAsk('BTCPHP')).toEqual({ price: '100', qty: '1' });
    expect(h.engine.lastPrice('BTCPHP')).toBeUndefined();
    expect(h.engine.symbols()).toEqual(['BTCPHP']);
  });

  it('historyOrders lists closed orders: the most recent, or from an order id on, with limits', () => {
    const h = harness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '1' }, 1000 + i);
      ids.push(r.order.orderId);
      h.engine.cancelOrder('alice', 'BTCPHP', { orderId: r.order.orderId }, 2000 + i);
    }
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '1' }, 3000);
    const got = (q: Parameters<typeof h.engine.historyOrders>[2]) => h.engine.historyOrders('alice', 'BTCPHP', q).map((o) => o.orderId);
    expect(got({})).toEqual(ids);
    expect(got({ limit: 2 })).toEqual(ids.slice(3));
    expect(got({ orderId: ids[1], limit: 2 })).toEqual(ids.slice(1, 3));
    expect(got({ startTime: 1001, endTime: 1003 })).toEqual(ids.slice(1, 4));
    expect(h.engine.allOrders('alice', 'BTCPHP')).toHaveLength(6);
    expect(h.engine.openOrders('alice', 'BTCPHP')).toHaveLength(1);
  });

  it('myTrades reports each side of a trade for its account (spec 2.5)', () => {
    const h = harness({ fee: { maker: '0.001', taker: '0.002' } });
    const s = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const b = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' }, 4000);
    const tradeId = b.fills[0]?.tradeId;
    expect(h.engine.myTrades('bob', 'BTCPHP')).toEqual([
      { symbol: 'BTCPHP', id: tradeId, orderId: b.order.orderId, price: '100', qty: '1', quoteQty: '100', commission: '0.002', commissionAsset: 'BTC', time: 4000, isBuyer: true, isMaker: false, isBestMatch: true },
    ]);
    expect(h.engine.myTrades('alice', 'BTCPHP')[0]).toMatchObject({ orderId: s.order.orderId, isBuyer: false, isMaker: true, commission: '0.1', commissionAsset: 'PHP' });
    expect(h.engine.myTrades('alice', 'BTCPHP', { orderId: '1' })).toEqual([]);
    expect(h.engine.myTrades('alice', 'BTCPHP', { fromId: tradeId })).toHaveLength(1);
    expect(h.engine.allTrades('bob')).toHaveLength(1);
  });

  it('forgets the oldest closed orders and trades beyond `retain`, never open ones', () => {
    const h = harness({ retain: 2 });
    const keep = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '1', clientOrderId: 'keep' });
    const first = h.place('alice', { side: 'BUY', type: 'MARKET', quantity: '1', clientOrderId: 'x' });
    for (let i = 0; i < 6; i++) h.place('alice', { side: 'BUY', type: 'MARKET', quantity: '1', clientOrderId: 'x' });
    expect(h.engine.historyOrders('alice', 'BTCPHP').length).toBeLessThanOrEqual(4);
    expect(h.engine.order('alice', 'BTCPHP', { orderId: first.order.orderId })).toEqual([]);
    expect(h.engine.order('alice', 'BTCPHP', { clientOrderId: 'x' }).length).toBeLessThanOrEqual(4);
    expect(h.engine.order('alice', 'BTCPHP', { clientOrderId: 'keep' })[0]?.orderId).toBe(keep.order.orderId);
  });

  it('compares decimal ids numerically', () => {
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('1375445991893797391', '1375445991893797400')).toBeLessThan(0);
    expect(compareIds('5', '5')).toBe(0);
  });
});
