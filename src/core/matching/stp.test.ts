import { describe, expect, it } from 'vitest';
import { harness } from './test-support.ts';

/** bob rests 1 @ 100, then alice 1 @ 100 (both SELL); the taker is alice buying 2 @ 100. */
function setup() {
  const h = harness();
  const bobs = h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
  const own = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
  return { h, bobs, own };
}

describe('self-trade prevention', () => {
  it('CB (default) cancels both; the taker had a fill, so it is PARTIALLY_CANCELED', () => {
    const { h, own } = setup();
    const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '2' });
    expect(r.order).toMatchObject({ status: 'PARTIALLY_CANCELED', executedQty: '1', stpFlag: 'CB' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: own.order.orderId })[0]?.status).toBe('CANCELED');
    expect(h.engine.depth('BTCPHP')).toMatchObject({ bids: [], asks: [] });
    expect(h.balances.get('alice', 'PHP').locked).toBe('0');
    expect(h.balances.get('alice', 'BTC').locked).toBe('0');
    const stp = r.events.filter((e) => e.kind === 'order' && e.cause === 'STP');
    expect(stp.map((e) => e.kind === 'order' && [e.orderId, e.executionType, e.status])).toEqual([
      [own.order.orderId, 'CANCELED', 'CANCELED'],
      [r.order.orderId, 'CANCELED', 'PARTIALLY_CANCELED'],
    ]);
  });

  it('CN cancels only the new order; the resting one stays', () => {
    const { h, own } = setup();
    const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '2', stpFlag: 'CN' });
    expect(r.order).toMatchObject({ status: 'PARTIALLY_CANCELED', executedQty: '1' });
    expect(h.engine.openOrders('alice').map((o) => o.orderId)).toEqual([own.order.orderId]);
  });

  it('CO cancels the resting order and keeps matching', () => {
    const { h, own } = setup();
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '2', stpFlag: 'CO' });
    expect(r.order).toMatchObject({ status: 'FILLED', executedQty: '2' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: own.order.orderId })[0]?.status).toBe('CANCELED');
  });

  it('a taker canceled before any fill is CANCELED; a partly filled maker is PARTIALLY_CANCELED', () => {
    const h = harness();
    const own = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '2' });
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    expect(r.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: own.order.orderId })[0]).toMatchObject({ status: 'PARTIALLY_CANCELED', executedQty: '1' });
  });

  it('FOK sees its own orders: CN/CB end the fill, CO skips them', () => {
    const { h } = setup();
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const cb = h.place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '100', quantity: '2' });
    expect(cb.order).toMatchObject({ status: 'EXPIRED', executedQty: '0' });
    expect(h.engine.openOrders('alice')).toHaveLength(1);
    const co = h.place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '100', quantity: '2', stpFlag: 'CO' });
    expect(co.order).toMatchObject({ status: 'FILLED', executedQty: '2' });
    expect(h.engine.openOrders('alice')).toHaveLength(0);
  });
});
