import { describe, expect, it } from 'vitest';
import { harness } from './test-support.ts';

describe('engine events', () => {
  it('reports a crossing order as NEW, then per fill trade + maker + taker updates, then depth and balances', () => {
    const h = harness({ fee: { maker: '0.001', taker: '0.002' } });
    const maker = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'm' }, 1000);
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '3', clientOrderId: 't' }, 2000);
    expect(r.events.map((e) => (e.kind === 'order' ? `${e.kind}:${e.clientOrderId}:${e.executionType}` : e.kind === 'balance' ? `balance:${e.accountId}:${e.asset}` : e.kind))).toEqual([
      'order:t:NEW',
      'trade',
      'order:m:TRADE',
      'order:t:TRADE',
      'book',
      'book',
      'balance:bob:PHP',
      'balance:bob:BTC',
      'balance:alice:BTC',
      'balance:alice:PHP',
    ]);
    // The fee account (the venue's own) gets no balance events; its balance is in Balances.
    expect(h.balances.get('fees', 'BTC').free).not.toBe('0');
    const taker = r.events[3];
    expect(taker).toMatchObject({
      kind: 'order',
      accountId: 'bob',
      symbol: 'BTCPHP',
      time: 2000,
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '3',
      price: '100',
      stopPrice: '0',
      quoteOrderQty: '0',
      executionType: 'TRADE',
      status: 'PARTIALLY_FILLED',
      rejectReason: 'NONE',
      lastQty: '1',
      lastPrice: '100',
      lastQuoteQty: '100',
      cumQty: '1',
      cumQuoteQty: '100',
      commission: '0.002',
      commissionAsset: 'BTC',
      tradeId: r.fills[0]?.tradeId,
      isWorking: true,
      isMaker: false,
      orderTime: 2000,
      cause: null,
    });
    expect(r.events[2]).toMatchObject({ orderId: maker.order.orderId, status: 'FILLED', isMaker: true, commission: '0.1', commissionAsset: 'PHP', onBook: false });
    expect(r.events[1]).toMatchObject({ kind: 'trade', price: '100', qty: '1', quoteQty: '100', buyerIsMaker: false, takerOrderId: r.order.orderId, external: false });
    expect(r.events.filter((e) => e.kind === 'book')).toEqual([
      { kind: 'book', symbol: 'BTCPHP', side: 'ask', price: '100', qty: '0', updateId: 2, time: 2000 },
      { kind: 'book', symbol: 'BTCPHP', side: 'bid', price: '100', qty: '2', updateId: 3, time: 2000 },
    ]);
    expect(r.events.find((e) => e.kind === 'balance' && e.accountId === 'bob' && e.asset === 'PHP')).toMatchObject({ free: '999700', locked: '200' });
    expect(h.engine.bookUpdateId('BTCPHP')).toBe(3);
  });

  it('pushes the same events to the listener, in order', () => {
    const h = harness();
    const a = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const b = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const c = h.engine.cancelAll('bob', 'BTCPHP', 3000);
    expect(h.events).toEqual([...a.events, ...b.events, ...c.events]);
  });

  it('with events off returns none and reaches the same state', () => {
    const on = harness();
    const off = harness({ recordEvents: false });
    for (const h of [on, off]) {
      h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
      const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100.5', quantity: '2' });
      expect(r.fills).toHaveLength(1);
      if (h === off) expect(r.events).toEqual([]);
    }
    expect(off.events).toEqual([]);
    expect(off.engine.depth('BTCPHP')).toEqual(on.engine.depth('BTCPHP'));
    expect(off.balances.all('bob')).toEqual(on.balances.all('bob'));
  });
});

describe('listener re-entrancy', () => {
  it('delivers events of an operation started by the listener after the current ones', () => {
    const seen: string[] = [];
    let reacted = false;
    const h = harness({
      listener: (e) => {
        seen.push(e.kind === 'order' ? `${e.clientOrderId}:${e.executionType}` : e.kind);
        if (e.kind === 'trade' && !reacted) {
          reacted = true;
          h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '90', quantity: '1', clientOrderId: 'nested' }, 3000);
        }
      },
    });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'm' });
    seen.length = 0;
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 't' });
    expect(seen.slice(0, r.events.length)).toEqual(r.events.map((e) => (e.kind === 'order' ? `${e.clientOrderId}:${e.executionType}` : e.kind)));
    expect(seen.slice(r.events.length)).toContain('nested:NEW');
    expect(r.order.status).toBe('FILLED');
  });
});
