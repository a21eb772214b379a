import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { CANCEL_RESTRICTED } from './cancel-replace.ts';
import type { CancelReplaceRequest } from './cancel-replace.ts';
import { harness } from './test-support.ts';

function setup() {
  const h = harness();
  const old = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'old' });
  const replace = (over: Partial<CancelReplaceRequest>) =>
    h.engine.cancelReplace('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '101', quantity: '2', cancelReplaceMode: 'STOP_ON_FAILURE', ...over }, 5000);
  return { h, old, replace };
}

describe('cancelReplace (notes 6)', () => {
  it('cancels, then places the new order', () => {
    const { h, old, replace } = setup();
    const r = replace({ cancelOrderId: old.order.orderId, clientOrderId: 'new' });
    expect(r).toMatchObject({ ok: true, cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', cancelResponse: { status: 'CANCELED', clientOrderId: 'old' } });
    expect(r.ok && r.newOrderResponse.order).toMatchObject({ clientOrderId: 'new', price: '101', status: 'NEW' });
    expect(h.balances.get('alice', 'PHP').locked).toBe('202');
    expect(h.engine.openOrders('alice').map((o) => o.clientOrderId)).toEqual(['new']);
  });

  it('may reuse the canceled order client id', () => {
    const { replace } = setup();
    expect(replace({ cancelOrigClientOrderId: 'old', clientOrderId: 'old' }).ok).toBe(true);
  });

  it('STOP_ON_FAILURE: a failed cancel places nothing (-1132)', () => {
    const { h, replace } = setup();
    const r = replace({ cancelOrderId: '42' });
    expect(r).toEqual({
      ok: false,
      code: -1132,
      msg: 'Order cancel-replace failed.',
      events: [],
      data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: { code: -2011, msg: ENGINE_MESSAGE.unknownOrder }, newOrderResponse: null },
    });
    expect(h.engine.openOrders('alice')).toHaveLength(1);
  });

  it('ALLOW_FAILURE: places the new order anyway (-1133)', () => {
    const { h, replace } = setup();
    const r = replace({ cancelOrderId: '42', cancelReplaceMode: 'ALLOW_FAILURE' });
    expect(r).toMatchObject({ ok: false, code: -1133, data: { cancelResult: 'FAILURE', newOrderResult: 'SUCCESS' } });
    expect(h.engine.openOrders('alice')).toHaveLength(2);
  });

  it('a rejected new order after a successful cancel is a partial failure (-1133)', () => {
    const { h, old, replace } = setup();
    const r = replace({ cancelOrderId: old.order.orderId, price: '100.001' });
    expect(r).toMatchObject({
      ok: false,
      code: -1133,
      msg: 'Order cancel-replace partially failed.',
      data: { cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', newOrderResponse: { code: -2010, msg: 'Filter failure: PRICE_FILTER' } },
    });
    expect(h.engine.openOrders('alice')).toEqual([]);
  });

  it('both legs failing is -1132 with both FAILURE', () => {
    const { replace } = setup();
    const r = replace({ cancelOrderId: '42', cancelReplaceMode: 'ALLOW_FAILURE', quantity: '0.0001' });
    expect(r).toMatchObject({ ok: false, code: -1132, data: { cancelResult: 'FAILURE', newOrderResult: 'FAILURE' } });
  });

  it('with both ids the order found by id must carry the client id', () => {
    const { replace, old } = setup();
    expect(replace({ cancelOrderId: old.order.orderId, cancelOrigClientOrderId: 'other' })).toMatchObject({ ok: false, code: -1132 });
    expect(replace({ cancelOrderId: old.order.orderId, cancelOrigClientOrderId: 'old' }).ok).toBe(true);
  });

  it('honours cancelRestrictions', () => {
    const { h, old, replace } = setup();
    expect(replace({ cancelOrderId: old.order.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' })).toMatchObject({
      ok: false,
      data: { cancelResponse: { code: -2011, msg: CANCEL_RESTRICTED } },
    });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '0.5' });
    expect(replace({ cancelOrderId: old.order.orderId, cancelRestrictions: 'ONLY_NEW' })).toMatchObject({ ok: false, code: -1132 });
    expect(replace({ cancelOrderId: old.order.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }).ok).toBe(true);
  });

  it('needs one of the cancel ids (-1108)', () => {
    const { replace } = setup();
    expect(replace({})).toMatchObject({ ok: false, code: -1108 });
  });
});
