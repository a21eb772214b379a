import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { harness, instrument } from './test-support.ts';

describe('cancel', () => {
  it('cancels by orderId and releases the lock', () => {
    const h = harness();
    const r = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const c = h.engine.cancelOrder('alice', 'BTCPHP', { orderId: r.order.orderId }, 2000);
    expect(c).toMatchObject({ ok: true, order: { status: 'CANCELED', updateTime: 2000, executedQty: '0' } });
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: '1000000', locked: '0' });
    expect(h.engine.depth('BTCPHP').bids).toEqual([]);
  });

  it('cancels by client order id; orderId takes precedence when both are sent', () => {
    const h = harness();
    const a = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'mine-1' });
    const b = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'mine-2' });
    const c = h.engine.cancelOrder('alice', 'BTCPHP', { orderId: b.order.orderId, clientOrderId: 'mine-1' }, 2000);
    expect(c.ok && c.order.orderId).toBe(b.order.orderId);
    const d = h.engine.cancelOrder('alice', 'BTCPHP', { clientOrderId: 'mine-1' }, 2000);
    expect(d.ok && d.order.orderId).toBe(a.order.orderId);
  });

  it('finds generated client order ids too', () => {
    const h = harness();
    const a = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    expect(a.order.clientOrderId).toBe(`auto-${a.order.orderId}`);
    expect(h.engine.cancelOrder('alice', 'BTCPHP', { clientOrderId: a.order.clientOrderId }, 2000).ok).toBe(true);
  });

  it('answers Unknown order sent. (-2011) for unknown, closed or foreign orders', () => {
    const h = harness();
    const a = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const unknown = { ok: false, code: -2011, msg: ENGINE_MESSAGE.unknownOrder };
    expect(h.engine.cancelOrder('bob', 'BTCPHP', { orderId: a.order.orderId }, 2000)).toEqual(unknown);
    expect(h.engine.cancelOrder('alice', 'BTCPHP', { orderId: '1' }, 2000)).toEqual(unknown);
    expect(h.engine.cancelOrder('alice', 'ETHPHP', { orderId: a.order.orderId }, 2000)).toEqual(unknown);
    h.engine.cancelOrder('alice', 'BTCPHP', { orderId: a.order.orderId }, 2000);
    expect(h.engine.cancelOrder('alice', 'BTCPHP', { orderId: a.order.orderId }, 2000)).toEqual(unknown);
    expect(h.engine.cancelOrder('alice', 'BTCPHP', {}, 2000)).toEqual({ ok: false, code: -2011, msg: ENGINE_MESSAGE.cancelInvalid });
  });

  it('cancelAll cancels every open order of the account on the symbol', () => {
    const h = harness();
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '110', quantity: '1' });
    h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '90', quantity: '1' });
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1' });
    const r = h.engine.cancelAll('alice', 'BTCPHP', 3000);
    expect(r.orders.map((o) => o.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
    expect(h.engine.openOrders('alice')).toEqual([]);
    expect(h.engine.openOrders('bob')).toHaveLength(1);
    expect(h.balances.get('alice', 'BTC')).toEqual({ free: '100', locked: '0' });
    expect(h.engine.cancelAll('alice', 'BTCPHP', 3000).orders).toEqual([]);
  });
});

describe('duplicate client order id (spec 4.5)', () => {
  it('is rejected while the order using it is open and accepted once it closed', () => {
    const h = harness();
    const first = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'x' });
    expect(h.try('alice', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' })).toMatchObject({
      ok: false,
      code: -2010,
      msg: ENGINE_MESSAGE.duplicateOrder,
    });
    // Another account may use the same id.
    expect(h.try('bob', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' }).ok).toBe(true);
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: first.order.orderId })[0]?.status).toBe('FILLED');
    const second = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '98', quantity: '1', clientOrderId: 'x' });
    expect(h.engine.order('alice', 'BTCPHP', { clientOrderId: 'x' }).map((o) => o.orderId)).toEqual([second.order.orderId, first.order.orderId]);
    expect(h.engine.cancelOrder('alice', 'BTCPHP', { clientOrderId: 'x' }, 2000).ok).toBe(true);
  });
  it('is unique among the account\'s open orders on every symbol: query and cancel by client id name no symbol', () => {
    const h = harness({ instruments: [instrument(), instrument({ symbol: 'XBTPHP' })] });
    const first = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'x' });
    expect(h.try('alice', { symbol: 'XBTPHP', side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' })).toMatchObject({
      ok: false,
      code: -2010,
      msg: ENGINE_MESSAGE.duplicateOrder,
    });
    // order/test answers alike, another account is not concerned, and a generated id counts too.
    expect(h.engine.testOrder('alice', { symbol: 'XBTPHP', side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' }, 1000)).toMatchObject({ msg: ENGINE_MESSAGE.duplicateOrder });
    expect(h.try('bob', { symbol: 'XBTPHP', side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' }).ok).toBe(true);
    const auto = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '98', quantity: '1' });
    expect(h.try('alice', { symbol: 'XBTPHP', side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: auto.order.clientOrderId })).toMatchObject({ msg: ENGINE_MESSAGE.duplicateOrder });
    // Closed on one symbol (even where it is reused), the id is free on the others.
    expect(h.engine.cancelOrder('alice', 'BTCPHP', { orderId: first.order.orderId }, 2000).ok).toBe(true);
    expect(h.try('alice', { symbol: 'XBTPHP', side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' }).ok).toBe(true);
    expect(h.try('alice', { side: 'BUY', type: 'LIMIT', price: '97', quantity: '1', clientOrderId: 'x' })).toMatchObject({ msg: ENGINE_MESSAGE.duplicateOrder });
  });
});
