import { describe, expect, it } from 'vitest';
import type { PlaceCommand, VenueEvent, VenueFillEvent, VenueOrderEvent } from '../../ports/venue.ts';
import { SeenLedger } from './seen-ledger.ts';

const place = (cid: string, symbol = 'BTCPHP'): PlaceCommand => ({ kind: 'place', symbol, clientOrderId: cid, side: 'BUY', type: 'LIMIT', quantity: '2', price: '100' });
const order = (cid: string, orderId: string, status: VenueOrderEvent['status'], executedQty = '0', over: Partial<VenueOrderEvent> = {}): VenueOrderEvent => ({ kind: 'order', symbol: 'BTCPHP', clientOrderId: cid, orderId, status, executedQty, cumulativeQuoteQty: '0', working: true, time: 100, ...over });
const fill = (cid: string, orderId: string, tradeId: string, cum: string, status: VenueFillEvent['orderStatus'] = 'PARTIALLY_FILLED', time = 100): VenueFillEvent => ({
  kind: 'fill',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId,
  tradeId,
  side: 'BUY',
  price: '100',
  qty: '0.5',
  quoteQty: '50',
  commission: '0',
  commissionAsset: 'BTC',
  isMaker: true,
  orderStatus: status,
  cumulativeQty: cum,
  cumulativeQuoteQty: '0',
  time,
});
const kinds = (es: readonly VenueEvent[] | readonly { kind: string }[]) => es.map((e) => e.kind);

describe('SeenLedger', () => {
  it('forwards a fill once per (order, trade id), whichever road brought it, and journals the drop', () => {
    const l = new SeenLedger();
    l.placed(place('a'));
    expect(kinds(l.admit([order('a', '9', 'NEW'), fill('a', '9', '11', '0.5')], 'stream').forward)).toEqual(['order', 'fill']);
    const again = l.admit([fill('a', '9', '11', '0.5')], 'newOrder');
    expect(again.forward).toEqual([]);
    expect(again.dropped.map((d) => d.reason)).toEqual(['duplicate from newOrder: trade 11 of order 9 (a) already applied']);
    // The two sides of a self-trade share a trade id: two fills.
    l.placed(place('b'));
    expect(kinds(l.admit([fill('b', '10', '11', '0.5')], 'stream').forward)).toEqual(['fill']);
  });

  it('forwards an order event only when it moves the order on (spec 3.1)', () => {
    const l = new SeenLedger();
    l.placed(place('a'));
    const r = l.admit(
      [
        fill('a', '9', '1', '0.5'), // the stream's first fill before the REST acknowledgement
        order('a', '9', 'NEW'), // the ACK, late
        order('a', '9', 'PARTIALLY_FILLED', '0.5'), // a RESULT saying what the fill said
        order('a', '9', 'PARTIALLY_FILLED', '1'), // further
        order('a', '9', 'CANCELED', '1'),
        order('a', '9', 'CANCELED', '1'), // resent
        fill('a', '9', '2', '1'), // a late fill of it still moved money
      ],
      'stream',
    );
    expect(kinds(r.forward)).toEqual(['fill', 'order', 'order', 'fill']);
    expect(r.dropped.map((d) => d.reason)).toEqual([
      'duplicate from stream: NEW 0 of a does not move it on from PARTIALLY_FILLED 0.5',
      'duplicate from stream: PARTIALLY_FILLED 0.5 of a does not move it on from PARTIALLY_FILLED 0.5',
      'duplicate from stream: CANCELED 1 of a, which already ended CANCELED 1',
    ]);
    // A stop whose trigger fired: NEW again, now working.
    l.placed({ ...place('s'), type: 'STOP_LOSS_LIMIT' });
    expect(kinds(l.admit([order('s', '20', 'NEW', '0', { working: false }), order('s', '20', 'NEW', '0', { working: false }), order('s', '20', 'NEW', '0', { working: true })], 'stream').forward)).toEqual(['order', 'order']);
  });

  it('an unknown outcome marks the order; a rejection passes only for an order the venue never acknowledged', () => {
    const l = new SeenLedger();
    l.placed(place('a'));
    l.placed(place('b'));
    l.admit([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: 'a', command: 'place', reason: 'timeout', time: 1 }], 'newOrder');
    expect(l.order('a')?.status).toBe('UNKNOWN');
    const rejected = (cid: string): VenueEvent => ({ kind: 'rejected', symbol: 'BTCPHP', clientOrderId: cid, code: -2013, reason: 'not placed', time: 2 });
    l.admit([order('b', '10', 'NEW')], 'stream');
    const r = l.admit([rejected('a'), rejected('a'), rejected('b')], 'resync');
    expect(kinds(r.forward)).toEqual(['rejected']);
    expect(r.dropped.map((d) => d.reason)).toEqual(['duplicate from resync: rejection of a, already REJECTED', 'duplicate from resync: rejection of b, already NEW']);
  });

  it('drops a balance older than the one applied (an outboundAccountPosition overtaken by account information)', () => {
    const l = new SeenLedger();
    const bal = (time: number): VenueEvent => ({ kind: 'balance', asset: 'PHP', free: String(time), locked: '0', time });
    const r = l.admit([bal(5), bal(5), bal(4), bal(6)], 'stream');
    expect(r.forward.map((e) => e.time)).toEqual([5, 5, 6]);
    expect(r.dropped.map((d) => d.reason)).toEqual(['stale from stream: balance of PHP at 4, older than the one applied (5)']);
  });

  it('keeps the highest trade id per symbol as an integer beyond 2^53, not as text or a number', () => {
    const l = new SeenLedger();
    l.placed(place('a'));
    l.admit([fill('a', '9', '9007199254740993', '0.5'), fill('a', '9', '9007199254740992', '1'), fill('a', '9', '999', '1.5')], 'stream');
    expect(l.highestTradeId('BTCPHP')).toBe('9007199254740993');
    l.noteTradeIds({ BTCPHP: '10000000000000000000', ETHPHP: '7' });
    expect([l.highestTradeId('BTCPHP'), l.highestTradeId('ETHPHP')]).toEqual(['10000000000000000000', '7']);
    expect(() => l.noteTradeIds({ X: '1e5' })).toThrow('X trade id: "1e5" is not a decimal id');
  });

  it('forgets closed orders after the window, and still knows their trades and late reports', () => {
    const l = new SeenLedger({ retainClosedMs: 1000 });
    l.placed(place('done'));
    l.placed(place('open'));
    l.admit([order('open', '8', 'NEW'), fill('done', '9', '500', '0.5', 'PARTIALLY_FILLED', 100), fill('done', '9', '501', '1', 'FILLED', 200)], 'stream');
    l.prune(1199); // closed at 200: held until 1200
    expect(l.size).toBe(2);
    l.prune(1200);
    expect(l.size).toBe(1); // the open order stays, however old
    expect(l.order('open')?.status).toBe('NEW');
    expect(l.forgottenTradeFloor('BTCPHP')).toBe('501');
    const late = l.admit([fill('done', '9', '500', '0.5'), order('done', '9', 'FILLED', '1')], 'stream');
    expect(late.forward).toEqual([]);
    expect(late.dropped.map((d) => d.reason)).toEqual([
      'duplicate from stream: trade 500 of BTCPHP is at or below the highest trade of a forgotten order (501)',
      'duplicate from stream: FILLED of order 9, forgotten after it ended',
    ]);
    // A new trade (above the floor) of an order nobody holds reaches the order manager, which reports it.
    expect(kinds(l.admit([fill('elsewhere', '77', '502', '0.5')], 'stream').forward)).toEqual(['fill']);
  });

  it('holds a closed order whose fills are still to come (a RESULT said FILLED) past the window', () => {
    const l = new SeenLedger({ retainClosedMs: 0 });
    l.placed(place('r'));
    l.admit([order('r', '9', 'FILLED', '1')], 'newOrder');
    l.prune(1000);
    expect(l.order('r')?.status).toBe('FILLED');
    l.admit([fill('r', '9', '1', '0.5')], 'stream');
    l.prune(1000);
    expect(l.order('r')?.trades).toHaveLength(1);
    l.admit([fill('r', '9', '2', '1', 'FILLED', 200)], 'stream');
    l.prune(1000);
    expect(l.size).toBe(0);
  });

  it('bounds the forgotten order ids', () => {
    const l = new SeenLedger({ retainClosedMs: 0, forgottenOrderIds: 2 });
    for (const id of ['1', '2', '3']) {
      l.placed(place(`c${id}`));
      l.admit([order(`c${id}`, id, 'CANCELED')], 'stream');
    }
    l.prune(1000);
    expect(l.size).toBe(0);
    expect(kinds(l.admit([order('c1', '1', 'CANCELED'), order('c3', '3', 'CANCELED')], 'stream').forward)).toEqual(['order']); // 1 fell out of the bound
  });

  it('adopts an order placed before a crash once, counting its later fills from what it had executed', () => {
    const l = new SeenLedger();
    const adopt = { kind: 'adopt', symbol: 'BTCPHP', clientOrderId: 'old', orderId: '5', side: 'SELL', type: 'LIMIT', origQty: '3', status: 'PARTIALLY_FILLED', executedQty: '1', cumulativeQuoteQty: '100', working: true, time: 1 } as const;
    expect(kinds(l.admit([adopt, adopt], 'resync').forward)).toEqual(['adopt']);
    expect(l.order('old')).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '1', adoptedQty: '1', adoptedQuoteQty: '100', orderId: '5' });
    expect(kinds(l.admit([order('old', '5', 'PARTIALLY_FILLED', '1')], 'stream').forward)).toEqual([]);
  });
});
