import { describe, expect, it } from 'vitest';
import type { AdoptOrder } from './adopt.ts';
import { clientOrderId } from './client-order-id.ts';
import { manager } from './test-support.ts';
import type { VenueEvent } from './venue-messages.ts';

/** An order of strategy s1 of run `run` (tag bid, sequence `seq`), 2 BTC at 100, half executed. */
const earlier = (run: string, seq: number, over: Partial<AdoptOrder> = {}): AdoptOrder => ({
  symbol: 'BTCPHP',
  clientOrderId: clientOrderId({ runId: run, strategy: 's1', tag: 'bid', seq }),
  orderId: '77',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '100',
  origQty: '2',
  status: 'PARTIALLY_FILLED',
  executedQty: '1',
  cumulativeQuoteQty: '100',
  working: true,
  time: 500,
  ...over,
});

const fillOf = (cid: string, tradeId: string): VenueEvent => ({
  kind: 'fill',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId: '77',
  tradeId,
  side: 'BUY',
  price: '100',
  qty: '1',
  quoteQty: '100',
  commission: '0',
  commissionAsset: 'BTC',
  isMaker: true,
  orderStatus: 'FILLED',
  cumulativeQty: '2',
  cumulativeQuoteQty: '200',
  time: 3000,
});

describe('OrderManager.adopt', () => {
  it('takes an order placed before a restart in at its progress; its later fills and end reach its strategy like any order', () => {
    const { om } = manager();
    const o = earlier('old-run', 3);
    const r = om.adopt('s1', o);
    expect(r).toMatchObject({ taken: true, update: { clientOrderId: o.clientOrderId, tag: 'bid', orderId: '77', status: 'PARTIALLY_FILLED', executedQty: '1', cumulativeQuoteQty: '100', price: '100', origQty: '2' } });
    expect(om.view('s1').openOrders()).toMatchObject([{ clientOrderId: o.clientOrderId, status: 'PARTIALLY_FILLED', executedQty: '1', time: 500 }]);
    expect(om.view('s2').openOrders()).toEqual([]);
    // No reserve: the venue locked its funds already (the account's free is what the venue says).
    expect(om.orders.reserving('PHP')).toBe(false);
    const applied = om.onVenueEvents([fillOf(o.clientOrderId, '9')]);
    expect(applied.issues).toEqual([]);
    expect(applied.events.map((e) => [e.kind, e.strategy, e.kind === 'orderUpdate' ? e.update.status : e.fill.qty])).toEqual([
      ['fill', 's1', '1'],
      ['orderUpdate', 's1', 'FILLED'],
    ]);
    expect(om.account.position('BTCPHP')?.base.toString()).toBe('1');
    // By tag, as the strategy would name it.
    expect(om.adopt('s1', earlier('old-run', 4)).taken).toBe(true);
    expect(om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }], 4000).commands).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: earlier('old-run', 4).clientOrderId }]);
  });

  it('an order of its own run is never given a second time: the sequence moves past it', () => {
    const { om } = manager(); // run id 'test'
    expect(om.adopt('s1', earlier('test', 5)).taken).toBe(true);
    const next = om.submit('s1', [{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', tag: 'bid' }], 1000).commands[0];
    expect(next).toMatchObject({ clientOrderId: clientOrderId({ runId: 'test', strategy: 's1', tag: 'bid', seq: 6 }) });
  });

  it('an order whose outcome is unknown enters UNKNOWN, then the venue says what it is', () => {
    const { om } = manager();
    const o = earlier('old-run', 1, { status: 'UNKNOWN', orderId: undefined, executedQty: '0', cumulativeQuoteQty: '0' });
    expect(om.adopt('s1', o)).toMatchObject({ taken: true, update: { status: 'UNKNOWN' } });
    const r = om.onVenueEvent({ kind: 'order', symbol: 'BTCPHP', clientOrderId: o.clientOrderId, orderId: '78', status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: true, time: 2000 });
    expect(r.events).toMatchObject([{ kind: 'orderUpdate', update: { status: 'NEW', orderId: '78' } }]);
  });

  it('refuses an order held already, one that has ended, and amounts that are not decimals, saying why', () => {
    const { om } = manager();
    const o = earlier('old-run', 2);
    expect(om.adopt('s1', o).taken).toBe(true);
    expect(om.adopt('s1', o)).toEqual({ taken: false, reason: `${o.clientOrderId} is held already` });
    expect(om.adopt('s1', earlier('old-run', 7, { status: 'FILLED' }))).toMatchObject({ taken: false, reason: expect.stringContaining('status FILLED is not one an order is adopted at') });
    expect(om.adopt('s1', earlier('old-run', 8, { executedQty: '-1' }))).toMatchObject({ taken: false, reason: expect.stringContaining('executedQty "-1" is not a decimal of at least 0') });
    expect(om.adopt('s1', earlier('old-run', 9, { price: 'abc' }))).toMatchObject({ taken: false, reason: expect.stringContaining('price "abc"') });
    expect(om.view('s1').openOrders()).toHaveLength(1);
  });

  it("what an adopted order still holds counts against its strategy's capital", () => {
    const { om } = manager({ capital: { s1: { PHP: '150' } } });
    expect(om.adopt('s1', earlier('old-run', 1)).taken).toBe(true); // holds 100 PHP for the 1 BTC left
    expect(om.submit('s1', [{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.6' }], 1000).denials[0]?.reasons[0]).toMatch(/strategy 's1' needs 60 PHP, has 50 PHP of its own capital free/);
  });
});
