import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { triggersRising, wouldTrigger } from './stops.ts';
import { harness } from './test-support.ts';

/** A trade at 100 between carol (seller) and dave (buyer) sets the last price. */
function traded() {
  const h = harness({
    fund: { alice: { BTC: '100', PHP: '1000000' }, bob: { BTC: '100', PHP: '1000000' }, carol: { BTC: '100' }, dave: { PHP: '1000000' } },
  });
  h.place('carol', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
  h.place('dave', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
  return h;
}

describe('trigger rules (spec 4.5)', () => {
  it('STOP_LOSS* BUY and TAKE_PROFIT* SELL rise; STOP_LOSS* SELL and TAKE_PROFIT* BUY fall', () => {
    expect(triggersRising('STOP_LOSS', 'BUY')).toBe(true);
    expect(triggersRising('STOP_LOSS_LIMIT', 'BUY')).toBe(true);
    expect(triggersRising('TAKE_PROFIT', 'SELL')).toBe(true);
    expect(triggersRising('TAKE_PROFIT_LIMIT', 'SELL')).toBe(true);
    expect(triggersRising('STOP_LOSS', 'SELL')).toBe(false);
    expect(triggersRising('TAKE_PROFIT', 'BUY')).toBe(false);
    expect(wouldTrigger('STOP_LOSS', 'BUY', 100, 100)).toBe(true);
    expect(wouldTrigger('STOP_LOSS', 'SELL', 99, 100)).toBe(false);
  });

  it('rejects a stop whose trigger already holds at the last price', () => {
    const h = traded();
    const cases = [
      { type: 'STOP_LOSS', side: 'BUY', stopPrice: '100', quoteOrderQty: '50' },
      { type: 'TAKE_PROFIT', side: 'SELL', stopPrice: '99', quantity: '1' },
      { type: 'STOP_LOSS_LIMIT', side: 'SELL', stopPrice: '100', price: '99', quantity: '1' },
      { type: 'TAKE_PROFIT_LIMIT', side: 'BUY', stopPrice: '101', price: '101', quantity: '1' },
    ] as const;
    for (const c of cases) expect(h.try('alice', c)).toMatchObject({ ok: false, code: -2010, msg: ENGINE_MESSAGE.wouldTriggerImmediately });
    expect(h.try('alice', { type: 'STOP_LOSS', side: 'BUY', stopPrice: '100.01', quoteOrderQty: '50' }).ok).toBe(true);
  });

  it('accepts any stop before the first trade (no last price yet)', () => {
    const h = harness();
    expect(h.try('alice', { type: 'STOP_LOSS', side: 'SELL', stopPrice: '100', quantity: '1' }).ok).toBe(true);
  });
});

describe('stop orders in the engine', () => {
  it('locks what the triggered order will need and waits, not working, counted as algo', () => {
    const h = traded();
    const r = h.place('alice', { side: 'BUY', type: 'STOP_LOSS_LIMIT', stopPrice: '105', price: '106', quantity: '2' });
    expect(r.order).toMatchObject({ status: 'NEW', isWorking: false, stopPrice: '105', price: '106' });
    expect(h.balances.get('alice', 'PHP').locked).toBe('212');
    expect(h.engine.openCounts('alice', 'BTCPHP')).toEqual({ orders: 0, algoOrders: 1 });
    expect(h.engine.depth('BTCPHP').bids).toEqual([]);
    h.engine.cancelOrder('alice', 'BTCPHP', { orderId: r.order.orderId }, 2000);
    expect(h.balances.get('alice', 'PHP').locked).toBe('0');
  });

  it('STOP_LOSS_LIMIT BUY triggers when the last price rises to the stop and then works as a LIMIT', () => {
    const h = traded();
    const stop = h.place('alice', { side: 'BUY', type: 'STOP_LOSS_LIMIT', stopPrice: '105', price: '106', quantity: '2' });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '105', quantity: '0.5' });
    const hit = h.place('dave', { side: 'BUY', type: 'LIMIT', price: '105', quantity: '0.1' });
    // dave's trade at 105 fires the stop, which takes bob's remaining 0.4 at 105 and rests 1.6 at 106.
    const updates = hit.events.filter((e) => e.kind === 'order' && e.orderId === stop.order.orderId).map((e) => e.kind === 'order' && [e.executionType, e.status, e.cause]);
    expect(updates).toEqual([
      ['NEW', 'NEW', 'TRIGGER'],
      ['TRADE', 'PARTIALLY_FILLED', null],
    ]);
    const now = h.engine.order('alice', 'BTCPHP', { orderId: stop.order.orderId })[0];
    expect(now).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.4', isWorking: true });
    expect(h.engine.depth('BTCPHP').bids).toEqual([['106', '1.6']]);
    expect(h.engine.openCounts('alice', 'BTCPHP')).toEqual({ orders: 1, algoOrders: 0 });
    expect(h.balances.get('alice', 'PHP').locked).toBe('169.6');
  });

  it('STOP_LOSS SELL becomes a MARKET order when the price falls to the stop', () => {
    const h = traded();
    const stop = h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '95', quantity: '1' });
    expect(h.balances.get('alice', 'BTC').locked).toBe('1');
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '95', quantity: '0.5' });
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '5' });
    h.place('carol', { side: 'SELL', type: 'LIMIT', price: '95', quantity: '0.2' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: stop.order.orderId })[0]).toMatchObject({
      status: 'FILLED',
      executedQty: '1',
      cummulativeQuoteQty: '91.5',
    });
    expect(h.balances.get('alice', 'BTC')).toEqual({ free: '99', locked: '0' });
  });

  it('TAKE_PROFIT BUY by quoteOrderQty triggers on a fall and spends its locked budget', () => {
    const h = traded();
    const tp = h.place('alice', { side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '90', quoteOrderQty: '45' });
    expect(h.balances.get('alice', 'PHP').locked).toBe('45');
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '90', quantity: '1' });
    h.place('dave', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '0.1' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: tp.order.orderId })[0]).toMatchObject({ status: 'FILLED', executedQty: '0.5', cummulativeQuoteQty: '45' });
    expect(h.balances.get('alice', 'PHP').locked).toBe('0');
  });

  it('cascades: a triggered order trades and its trade triggers the next stop', () => {
    const h = traded();
    const s1 = h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '99', quantity: '1' });
    const s2 = h.place('bob', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '98', quantity: '1' });
    h.place('dave', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '0.1' });
    h.place('dave', { side: 'BUY', type: 'LIMIT', price: '98', quantity: '5' });
    const r = h.place('carol', { side: 'SELL', type: 'LIMIT', price: '99', quantity: '0.1' });
    const triggered = r.events.filter((e) => e.kind === 'order' && e.cause === 'TRIGGER').map((e) => e.kind === 'order' && e.orderId);
    expect(triggered).toEqual([s1.order.orderId, s2.order.orderId]);
    expect(h.engine.order('alice', 'BTCPHP', { orderId: s1.order.orderId })[0]).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '98' });
    expect(h.engine.order('bob', 'BTCPHP', { orderId: s2.order.orderId })[0]).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '98' });
    expect(h.engine.lastPrice('BTCPHP')).toBe('98');
  });

  it('counts untriggered stops against MAX_NUM_ALGO_ORDERS', () => {
    const h = traded();
    for (let i = 0; i < 5; i++) h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: String(90 - i), quantity: '0.1' });
    const r = h.try('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '80', quantity: '0.1' });
    expect(r).toMatchObject({ ok: false, code: -2010, msg: 'Filter failure: MAX_ALGO_ORDERS' });
    expect(h.try('alice', { side: 'SELL', type: 'LIMIT', price: '120', quantity: '0.1' }).ok).toBe(true);
  });
});
