import { describe, expect, it } from 'vitest';
import type { EngineEvent } from './types.ts';
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

describe('onBook (executionReport w, notes 4.1): resting on the book, or about to rest at the end of the operation', () => {
  type Report = { id: string; x: string; status: string; onBook: boolean };
  const reports = (events: readonly EngineEvent[]): Report[] =>
    events.flatMap((e) => (e.kind === 'order' ? [{ id: e.clientOrderId, x: e.executionType, status: e.status, onBook: e.onBook }] : []));

  it('a LIMIT GTC order that rests: NEW on the book (the notes sample), and its cancel off it', () => {
    const h = harness();
    const r = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'a' });
    expect(reports(r.events)).toEqual([{ id: 'a', x: 'NEW', status: 'NEW', onBook: true }]);
    const c = h.engine.cancelOrder('alice', 'BTCPHP', { clientOrderId: 'a' }, 2000);
    expect(c.ok && reports(c.events)).toEqual([{ id: 'a', x: 'CANCELED', status: 'CANCELED', onBook: false }]);
  });

  it('a taker whose remainder rests: NEW and TRADE on the book; a partly filled maker stays on it, a filled one leaves', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'm1' });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '2', clientOrderId: 'm2' });
    const sweep = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '2', clientOrderId: 't1' });
    expect(reports(sweep.events)).toEqual([
      { id: 't1', x: 'NEW', status: 'NEW', onBook: false },
      { id: 'm1', x: 'TRADE', status: 'FILLED', onBook: false },
      { id: 't1', x: 'TRADE', status: 'PARTIALLY_FILLED', onBook: false },
      { id: 'm2', x: 'TRADE', status: 'PARTIALLY_FILLED', onBook: true },
      { id: 't1', x: 'TRADE', status: 'FILLED', onBook: false },
    ]);
    const rests = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '3', clientOrderId: 't2' });
    expect(reports(rests.events)).toEqual([
      { id: 't2', x: 'NEW', status: 'NEW', onBook: true },
      { id: 'm2', x: 'TRADE', status: 'FILLED', onBook: false },
      { id: 't2', x: 'TRADE', status: 'PARTIALLY_FILLED', onBook: true },
    ]);
    expect(h.engine.depth('BTCPHP').bids).toEqual([['101', '2']]);
  });

  it('never for IOC, FOK or MARKET orders; always for a LIMIT_MAKER', () => {
    const h = harness();
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1', clientOrderId: 'm' });
    const ioc = h.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '100', quantity: '0.4', clientOrderId: 'ioc' });
    const fok = h.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '100', quantity: '5', clientOrderId: 'fok' });
    const mkt = h.place('bob', { side: 'BUY', type: 'MARKET', quantity: '2', clientOrderId: 'mkt' });
    const maker = h.place('bob', { side: 'BUY', type: 'LIMIT_MAKER', price: '99', quantity: '1', clientOrderId: 'lm' });
    for (const r of [ioc, fok, mkt]) expect(reports(r.events).filter((e) => e.id !== 'm').every((e) => !e.onBook)).toBe(true);
    expect(reports(mkt.events).map((e) => e.x)).toEqual(['NEW', 'TRADE', 'TRADE', 'EXPIRED']);
    expect(reports(maker.events)).toEqual([{ id: 'lm', x: 'NEW', status: 'NEW', onBook: true }]);
  });

  it('a stop: off the book while it waits; once triggered, on it if its LIMIT rests', () => {
    const h = harness({ fund: { alice: { PHP: '1000' }, carol: { BTC: '1' }, dave: { PHP: '1000' } } });
    const stop = h.place('alice', { side: 'BUY', type: 'STOP_LOSS_LIMIT', stopPrice: '105', price: '106', quantity: '2', clientOrderId: 's' });
    expect(reports(stop.events)).toEqual([{ id: 's', x: 'NEW', status: 'NEW', onBook: false }]);
    h.place('carol', { side: 'SELL', type: 'LIMIT', price: '105', quantity: '1' });
    const trigger = h.place('dave', { side: 'BUY', type: 'LIMIT', price: '105', quantity: '1' });
    expect(reports(trigger.events).filter((e) => e.id === 's')).toEqual([{ id: 's', x: 'NEW', status: 'NEW', onBook: true }]);
  });
});
