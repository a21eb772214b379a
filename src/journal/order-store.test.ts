import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from './journal.ts';
import type { NewOrder } from './order-store.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
  j.runs.start({ id: 'run1', kind: 'live', strategy: 'grid', startedAt: 0 });
});
afterEach(() => j.close());

const order = (id: string, over: Partial<NewOrder> = {}): NewOrder => ({
  clientOrderId: id,
  runId: 'run1',
  symbol: 'BTCPHP',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '3150000.5',
  qty: '0.0123',
  status: 'NEW',
  createdAt: 100,
  ...over,
});

describe('OrderStore', () => {
  it('records an order once (idempotent on client order id) with a created event', () => {
    expect(j.orders.insert(order('c1'))).toBe(true);
    expect(j.orders.insert(order('c1', { qty: '5' }))).toBe(false);
    expect(j.orders.get('c1')).toMatchObject({ clientOrderId: 'c1', qty: '0.0123', executedQty: '0', status: 'NEW', exchangeOrderId: null, raw: null });
    expect(j.orders.events('c1').map((e) => [e.kind, e.status])).toEqual([['created', 'NEW']]);
  });

  it('update moves the state, keeps fields left out, and appends the event', () => {
    j.orders.insert(order('c1'));
    expect(j.orders.update('c1', { status: 'NEW', updatedAt: 110, exchangeOrderId: '1375445991893797391', raw: { orderId: '1375445991893797391' } }, 'ack')).toBe(true);
    expect(j.orders.update('c1', { status: 'PARTIALLY_FILLED', updatedAt: 120, executedQty: '0.005' })).toBe(true);
    const o = j.orders.get('c1')!;
    expect(o).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.005', exchangeOrderId: '1375445991893797391', updatedAt: 120, createdAt: 100 });
    expect(o.raw).toEqual({ orderId: '1375445991893797391' });
    expect(j.orders.byExchangeId('BTCPHP', '1375445991893797391')?.clientOrderId).toBe('c1');
    expect(j.orders.events('c1').map((e) => [e.kind, e.status, e.time])).toEqual([
      ['created', 'NEW', 100],
      ['ack', 'NEW', 110],
      ['update', 'PARTIALLY_FILLED', 120],
    ]);
    expect(j.orders.update('nope', { status: 'FILLED', updatedAt: 1 })).toBe(false);
  });

  it('active() lists NEW and PARTIALLY_FILLED orders; byRun lists all of a run', () => {
    j.orders.insert(order('a'));
    j.orders.insert(order('b', { symbol: 'ETHPHP', createdAt: 101 }));
    j.orders.insert(order('c', { createdAt: 102 }));
    j.orders.update('c', { status: 'CANCELED', updatedAt: 103 });
    expect(j.orders.active().map((o) => o.clientOrderId)).toEqual(['a', 'b']);
    expect(j.orders.active('ETHPHP').map((o) => o.clientOrderId)).toEqual(['b']);
    expect(j.orders.byRun('run1').map((o) => o.clientOrderId)).toEqual(['a', 'b', 'c']);
  });

  it('events carry the run that saw them: the order\'s run by default, a later run for an adopted order', () => {
    j.orders.insert(order('a'));
    j.orders.update('a', { status: 'NEW', updatedAt: 110, exchangeOrderId: '1' }, 'ack');
    j.runs.start({ id: 'run2', kind: 'live', strategy: 'grid', startedAt: 200 });
    j.orders.update('a', { status: 'PARTIALLY_FILLED', updatedAt: 210, executedQty: '0.001', runId: 'run2' }, 'adopted');
    j.orders.addEvent({ clientOrderId: 'a', time: 220, kind: 'cancel-requested', runId: 'run2' });
    j.orders.addEvent({ clientOrderId: 'a', time: 120, kind: 'note' });
    expect(j.orders.events('a').map((e) => [e.kind, e.runId])).toEqual([
      ['created', 'run1'],
      ['ack', 'run1'],
      ['adopted', 'run2'],
      ['cancel-requested', 'run2'],
      ['note', 'run1'],
    ]);
    expect(j.orders.eventsByRun('run1').map((e) => e.kind)).toEqual(['created', 'ack', 'note']);
    expect(j.orders.eventsByRun('run2').map((e) => e.kind)).toEqual(['adopted', 'cancel-requested']);
    // An order outside any run has events without one.
    j.orders.insert(order('x', { runId: null }));
    expect(j.orders.events('x').map((e) => e.runId)).toEqual([null]);
    expect(() => j.orders.update('a', { status: 'FILLED', updatedAt: 300, runId: 'ghost' })).toThrow(/order a -> FILLED: FOREIGN KEY/);
    expect(j.orders.get('a')?.status).toBe('PARTIALLY_FILLED');
  });

  it('addEvent needs a known order; bad decimals are refused', () => {
    j.orders.insert(order('a'));
    expect(j.orders.addEvent({ clientOrderId: 'a', time: 5, kind: 'cancel-requested' })).toBeGreaterThan(0);
    expect(() => j.orders.addEvent({ clientOrderId: 'zz', time: 5, kind: 'x' })).toThrow(/FOREIGN KEY/);
    expect(() => j.orders.insert(order('d', { price: '0.1e-3' }))).toThrow(/order d/);
  });
});
