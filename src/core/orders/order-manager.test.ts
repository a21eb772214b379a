import { describe, expect, it } from 'vitest';
import { manager } from './test-support.ts';
import type { PlaceOrderIntent } from './types.ts';
import type { VenueEvent } from './venue-messages.ts';

const buy = (price: string, quantity: string, tag?: string): PlaceOrderIntent => ({ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price, quantity, ...(tag ? { tag } : {}) });
const ack = (cid: string, orderId: string, over: Partial<Extract<VenueEvent, { kind: 'order' }>> = {}): VenueEvent => ({
  kind: 'order',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId,
  status: 'NEW',
  executedQty: '0',
  cumulativeQuoteQty: '0',
  working: true,
  time: 2000,
  ...over,
});
const fill = (cid: string, tradeId: string, qty: string, cum: string, status: 'PARTIALLY_FILLED' | 'FILLED'): VenueEvent => ({
  kind: 'fill',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId: '9',
  tradeId,
  side: 'BUY',
  price: '100',
  qty,
  quoteQty: String(Number(qty) * 100),
  commission: '0',
  commissionAsset: 'BTC',
  isMaker: true,
  orderStatus: status,
  cumulativeQty: cum,
  cumulativeQuoteQty: String(Number(cum) * 100),
  time: 3000,
});
const cidOf = (c: { kind: string; clientOrderId?: string }) => c.clientOrderId as string;

describe('OrderManager', () => {
  it('turns a place intent into a command with a deterministic client order id and tracks it as PENDING_NEW', () => {
    const { om } = manager();
    const r = om.submit('s1', [buy('100', '1', 'bid')], 1000);
    expect(r.denials).toEqual([]);
    expect(r.commands).toEqual([{ kind: 'place', symbol: 'BTCPHP', clientOrderId: expect.stringMatching(/^hy[0-9a-z]{7}bid-1$/), side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' }]);
    expect(manager().om.submit('s1', [buy('100', '1', 'bid')], 1000).commands).toEqual(r.commands); // same inputs, same ids
    expect(om.view('s1').openOrders()).toMatchObject([{ tag: 'bid', status: 'PENDING_NEW', executedQty: '0' }]);
    expect(om.view('s2').openOrders()).toEqual([]); // strategies see only their own
  });

  it('denies before sending: funds reserved by pending orders count, and the strategy gets a DENIED update with the reasons', () => {
    const { om } = manager();
    const r = om.submit('s1', [buy('100', '60', 'a'), buy('100', '60', 'b')], 1000);
    expect(r.commands.map(cidOf)).toHaveLength(1);
    expect(r.denials).toHaveLength(1);
    const d = r.denials[0]!;
    expect(d.reasons).toEqual(['Account has insufficient balance for requested action: needs 6000 PHP, 4000 available']);
    expect(d.update).toMatchObject({ tag: 'b', status: 'DENIED', side: 'BUY', type: 'LIMIT', price: '100', origQty: '60', executedQty: '0', time: 1000 });
    expect(d.update?.reason).toBe(d.reasons[0]);
    expect(om.view('s1').openOrders()).toHaveLength(1);
  });

  it('counts open and pending orders for MAX_NUM_ORDERS', () => {
    const { om } = manager();
    const r = om.submit('s1', [buy('1', '1'), buy('2', '1'), buy('3', '1'), buy('4', '1')], 1000);
    expect(r.commands).toHaveLength(3);
    expect(r.denials[0]?.violations.map((v) => v.code)).toEqual(['MAX_NUM_ORDERS']);
  });

  it('applies acknowledgements, balances and fills (once per trade id) and tells the strategy', () => {
    const { om } = manager();
    const cid = cidOf(om.submit('s1', [buy('100', '2', 'bid')], 1000).commands[0]!);
    const r1 = om.onVenueEvents([ack(cid, '9'), { kind: 'balance', asset: 'PHP', free: '9800', locked: '200', time: 2000 }]);
    expect(r1.events).toEqual([{ kind: 'orderUpdate', strategy: 's1', update: expect.objectContaining({ clientOrderId: cid, orderId: '9', status: 'NEW', tag: 'bid' }) }]);
    expect(om.view('s1').balances()).toMatchObject([{ asset: 'PHP' }, { asset: 'BTC' }]);
    expect(om.account.freeOf('PHP').toFixed()).toBe('9800');
    const r2 = om.onVenueEvents([fill(cid, 't1', '0.5', '0.5', 'PARTIALLY_FILLED')]);
    expect(r2.events.map((e) => (e.kind === 'fill' ? `fill ${e.fill.qty} ${e.fill.tag}` : `update ${e.update.status} ${e.update.executedQty}`))).toEqual(['fill 0.5 bid', 'update PARTIALLY_FILLED 0.5']);
    expect(om.onVenueEvents([fill(cid, 't1', '0.5', '0.5', 'PARTIALLY_FILLED')]).events).toEqual([]); // resent: applied once
    om.onVenueEvents([fill(cid, 't2', '1.5', '2', 'FILLED')]);
    expect(om.view('s1').openOrders()).toEqual([]);
    expect(om.view('s1').position('BTCPHP')).toMatchObject({ symbol: 'BTCPHP' });
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('2');
    expect(om.orders.get(cid)?.status).toBe('FILLED');
  });

  it('refuses a late event whole: a NEW after the first fill, or a partial fill behind a later one, leaves the cumulative quote as it was', () => {
    const { om } = manager();
    const cid = cidOf(om.submit('s1', [buy('100', '2', 'bid')], 1000).commands[0]!);
    om.onVenueEvents([fill(cid, 't1', '0.5', '0.5', 'PARTIALLY_FILLED')]); // the stream's fill before the REST acknowledgement
    const late = om.onVenueEvents([ack(cid, '9')]);
    expect(late.issues.map((i) => i.kind)).toEqual(['illegal-transition']);
    expect(om.orders.get(cid)?.cumQuote.toFixed()).toBe('50');
    om.onVenueEvents([fill(cid, 't3', '0.5', '1.5', 'PARTIALLY_FILLED')]);
    const behind = om.onVenueEvents([fill(cid, 't2', '0.5', '1', 'PARTIALLY_FILLED')]); // an earlier partial fill, delivered after
    expect(behind.events.map((e) => e.kind)).toEqual(['fill']);
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('1.5'); // the money moved all the same
    om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }], 4000);
    const r = om.onVenueEvents([{ kind: 'cancelRejected', symbol: 'BTCPHP', clientOrderId: cid, code: -2011, reason: 'Unknown order sent.', time: 4100 }]);
    expect(r.events[0]).toMatchObject({ update: { status: 'PARTIALLY_FILLED', executedQty: '1.5', cumulativeQuoteQty: '150' } });
  });

  it('keeps closed orders for their late fills however many orders the checks deny meanwhile', () => {
    const { om } = manager({ retainClosed: 2 });
    const cid = cidOf(om.submit('s1', [buy('100', '1', 'bid')], 1000).commands[0]!);
    om.onVenueEvents([ack(cid, '9', { status: 'FILLED', executedQty: '1', cumulativeQuoteQty: '100' })]); // the REST answer (RESULT), before the stream's fill
    for (let i = 0; i < 10; i++) expect(om.submit('s1', [buy('100', '1000', 'big')], 1100).denials).toHaveLength(1); // never sent: no venue event can concern them
    const late = om.onVenueEvents([fill(cid, 't1', '1', '1', 'FILLED')]);
    expect(late.issues).toEqual([]);
    expect(late.events.map((e) => e.kind)).toEqual(['fill']);
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('1');
  });

  it('a cancel whose outcome is unknown leaves the order working: reconciled as still NEW, it can be cancelled again', () => {
    const { om } = manager();
    const cid = cidOf(om.submit('s1', [buy('100', '1', 'bid')], 1000).commands[0]!);
    om.onVenueEvents([ack(cid, '9')]);
    expect(om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }], 1100).commands).toHaveLength(1);
    const lost = om.onVenueEvents([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: cid, command: 'cancel', reason: 'timeout', time: 1200 }]);
    expect(lost.issues.map((i) => i.kind)).toEqual(['unknown-outcome']);
    om.onVenueEvents([ack(cid, '9', { time: 1300 })]); // reconciliation: the order is still on the book
    expect(om.orders.get(cid)?.status).toBe('NEW');
    const again = om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }], 1400);
    expect(again.denials).toEqual([]);
    expect(again.commands).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: cid }]);
    // A cancel that did land: its CANCELED still ends the order; a lost answer after the end changes nothing.
    om.onVenueEvents([ack(cid, '9', { status: 'CANCELED', time: 1500 })]);
    expect(om.onVenueEvents([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: cid, command: 'cancel', reason: 'timeout', time: 1600 }]).issues.map((i) => i.kind)).toEqual(['unknown-outcome']);
    expect(om.orders.get(cid)?.status).toBe('CANCELED');
  });

  it('applies both sides of a self-trade: a trade id is applied once per order', () => {
    const { om } = manager();
    const r = om.submit('s1', [buy('100', '1', 'a'), buy('100', '1', 'b')], 1000);
    const [a, b] = r.commands.map(cidOf) as [string, string];
    om.onVenueEvents([ack(a, '9'), ack(b, '10')]);
    const got = om.onVenueEvents([fill(a, 't1', '1', '1', 'FILLED'), fill(b, 't1', '1', '1', 'FILLED'), fill(b, 't1', '1', '1', 'FILLED')]);
    expect(got.events.map((e) => `${e.kind} ${e.kind === 'fill' ? e.fill.clientOrderId : e.update.status}`)).toEqual([`fill ${a}`, 'orderUpdate FILLED', `fill ${b}`, 'orderUpdate FILLED']);
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('2');
  });

  it('cancels by tag or client order id, and refuses what cannot be cancelled', () => {
    const { om } = manager();
    const cid = cidOf(om.submit('s1', [buy('100', '1', 'bid')], 1000).commands[0]!);
    om.onVenueEvents([ack(cid, '9')]);
    const r = om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }], 1100);
    expect(r.commands).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: cid }]);
    expect(om.view('s1').openOrders()[0]?.status).toBe('NEW'); // PENDING_CANCEL shows the status it is cancelling from
    const again = om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: cid }], 1100);
    expect(again.denials[0]?.reasons).toEqual([`cannot cancel ${cid}: a cancel is already pending`]);
    const nothing = om.submit('s1', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'zz' }], 1100).denials[0];
    expect(nothing?.reasons).toEqual(["no open order with tag 'zz' on BTCPHP"]);
    expect(nothing?.update).toBeUndefined(); // no order to report it on
    expect(om.submit('s2', [{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: cid }], 1100).commands).toEqual([]); // not s2's order
    const rejected = om.onVenueEvents([{ kind: 'cancelRejected', symbol: 'BTCPHP', clientOrderId: cid, code: -2011, reason: 'Unknown order sent.', time: 1200 }]);
    expect(rejected.events[0]).toMatchObject({ update: { status: 'NEW', reason: 'cancel rejected: Unknown order sent. (-2011)' } });
  });

  it('replaces an order, crediting what the old one holds to the new one', () => {
    const { om } = manager();
    const old = cidOf(om.submit('s1', [buy('90', '100', 'bid')], 1000).commands[0]!);
    om.onVenueEvents([ack(old, '9'), { kind: 'balance', asset: 'PHP', free: '1000', locked: '9000', time: 2000 }]);
    const r = om.submit('s1', [{ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT', price: '95', quantity: '100', tag: 'bid' } }], 2100);
    expect(r.denials).toEqual([]);
    expect(r.commands).toEqual([{ kind: 'cancelReplace', symbol: 'BTCPHP', cancelClientOrderId: old, order: expect.objectContaining({ clientOrderId: expect.stringMatching(/bid-2$/), price: '95' }) }]);
    const none = om.submit('s1', [{ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'ask', order: { side: 'SELL', type: 'LIMIT', price: '95', quantity: '0.1', tag: 'ask' } }], 2100);
    // No order is concerned: no DENIED update of an order that never was (onDenial's), no client order id spent.
    expect(none.denials[0]).toMatchObject({ tag: 'ask', reasons: ["no open order with tag 'ask' on BTCPHP to replace"] });
    expect(none.denials[0]?.update).toBeUndefined();
    expect(none.commands).toEqual([]);
    // A replacement the checks refuse: DENIED, saying the order it was to replace (the 'bid' now: the
    // replacement above) stays open (it does).
    const current = (r.commands[0] as { order: { clientOrderId: string } }).order.clientOrderId;
    const tooBig = om.submit('s1', [{ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT', price: '95', quantity: '1000', tag: 'bid' } }], 2200);
    expect(tooBig.commands).toEqual([]);
    expect(tooBig.denials[0]?.update).toMatchObject({ status: 'DENIED', tag: 'bid', reason: expect.stringMatching(new RegExp(`\\(replacement of ${current} refused: that order stays open\\)$`)) as string });
    expect(om.orders.get(current)?.isOpen).toBe(true);
  });

  it('reports illegal transitions and unknown orders without applying them; REJECTED and unknown outcomes reach the state', () => {
    const { om } = manager();
    const [a, b] = om.submit('s1', [buy('100', '1', 'a'), buy('100', '1', 'b')], 1000).commands.map(cidOf) as [string, string];
    om.onVenueEvents([ack(a, '9', { status: 'FILLED', executedQty: '1' })]);
    const bad = om.onVenueEvents([ack(a, '9'), ack('web_1', '77')]);
    expect(bad.events).toEqual([]);
    expect(bad.issues.map((i) => i.kind)).toEqual(['illegal-transition', 'unknown-order']);
    expect(om.orders.get(a)?.status).toBe('FILLED');
    const rej = om.onVenueEvents([{ kind: 'rejected', symbol: 'BTCPHP', clientOrderId: b, code: -2010, reason: 'Filter failure: PRICE_FILTER', time: 1500 }]);
    expect(rej.events[0]).toMatchObject({ update: { status: 'REJECTED', reason: 'Filter failure: PRICE_FILTER (-2010)' } });
    const c = cidOf(om.submit('s1', [buy('100', '1', 'c')], 1000).commands[0]!);
    const unknown = om.onVenueEvents([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: c, command: 'place', reason: 'timeout', time: 1600 }]);
    expect(unknown.issues[0]?.kind).toBe('unknown-outcome');
    expect(om.orders.get(c)?.status).toBe('UNKNOWN');
    // The strategy sees UNKNOWN (issue 20), in an update and among its open orders, until resolved.
    expect(unknown.events).toMatchObject([{ kind: 'orderUpdate', strategy: 's1', update: { clientOrderId: c, status: 'UNKNOWN' } }]);
    expect(om.view('s1').openOrders().find((o) => o.clientOrderId === c)?.status).toBe('UNKNOWN');
    const found = om.onVenueEvents([ack(c, '10')]);
    expect(found.events).toMatchObject([{ kind: 'orderUpdate', update: { clientOrderId: c, status: 'NEW' } }]);
  });

  it('keeps the position with its average entry from fills', () => {
    const { om } = manager({ balances: { PHP: '100000' } });
    const [a, b] = om.submit('s1', [buy('100', '1', 'a'), buy('110', '1', 'b')], 1000).commands.map(cidOf) as [string, string];
    om.onVenueEvents([{ ...(fill(a, 't1', '1', '1', 'FILLED') as object), price: '100', commission: '0.001' } as VenueEvent]);
    om.onVenueEvents([{ ...(fill(b, 't2', '1', '1', 'FILLED') as object), price: '110' } as VenueEvent]);
    const p = om.view('s1').position('BTCPHP');
    expect(String(p?.base)).toBe('1.999');
    expect(Number(String(p?.avgEntryPrice))).toBeCloseTo(105.0025, 4);
  });
});
