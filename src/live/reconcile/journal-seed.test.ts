/**
 * seedFromJournal, the case found by issue 22's --kill (kill point fill-journaled-untold): a place
 * whose fill the stream brought and the journal committed, the process killed before the REST
 * answer was journaled (the request still `sent`). The next run must know that fill: the journal
 * holds it and the restarted bot's positions and capital are replayed from it, so delivering it
 * again applied it twice to the order manager (the adopted UNKNOWN order had no trades yet).
 */
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../journal/journal.ts';
import { commandRequest } from '../../journal/request-store.ts';
import type { PlaceCommand, VenueFillEvent, VenueOrderEvent } from '../../ports/venue.ts';
import { SeenLedger } from '../events/seen-ledger.ts';
import { seedFromJournal } from './journal-seed.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');

describe('seedFromJournal', () => {
  it('a pending place whose fill the journal holds: the fill is known (never applied again), the query still ends the order', () => {
    const j = openJournal(':memory:');
    j.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: T0 });
    const cmd: PlaceCommand = { kind: 'place', symbol: 'BTCPHP', clientOrderId: 'c-1', side: 'SELL', type: 'MARKET', quantity: '0.0005' };
    j.orders.insert({ clientOrderId: 'c-1', runId: 'run-1', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', qty: '0.0005', status: 'PENDING_NEW', createdAt: T0 });
    expect(j.requests.record(commandRequest('run-1', cmd, T0))).toBe(true);
    // The stream's NEW and fill, journaled; the REST answer never was.
    j.orders.update('c-1', { status: 'FILLED', updatedAt: T0 + 5, executedQty: '0.0005', exchangeOrderId: '9007199254740993' }, 'fill 9007199254740995');
    j.fills.insert({ symbol: 'BTCPHP', tradeId: '9007199254740995', clientOrderId: 'c-1', exchangeOrderId: '9007199254740993', side: 'SELL', price: '2900000', qty: '0.0005', quoteQty: '1450', commission: '0', commissionAsset: 'PHP', isMaker: false, time: T0 + 5 });

    const ledger = new SeenLedger();
    const state = seedFromJournal(j, ledger, ['BTCPHP'], 'run-2');
    expect(state.pending.map((r) => r.clientOrderId)).toEqual(['c-1']);

    const fill: VenueFillEvent = { kind: 'fill', symbol: 'BTCPHP', clientOrderId: 'c-1', orderId: '9007199254740993', tradeId: '9007199254740995', side: 'SELL', price: '2900000', qty: '0.0005', quoteQty: '1450', commission: '0', commissionAsset: 'PHP', isMaker: false, orderStatus: 'FILLED', cumulativeQty: '0.0005', cumulativeQuoteQty: '1450', time: T0 + 5 };
    const filled: VenueOrderEvent = { kind: 'order', symbol: 'BTCPHP', clientOrderId: 'c-1', orderId: '9007199254740993', status: 'FILLED', executedQty: '0.0005', cumulativeQuoteQty: '1450', working: true, time: T0 + 5 };
    const r = ledger.admit([filled, fill], 'resync');
    expect(r.forward.map((e) => e.kind)).toEqual(['order']);
    expect(r.dropped.map((d) => d.reason)).toEqual([expect.stringContaining('trade 9007199254740995 of order 9007199254740993 (c-1) already applied')]);
    j.close();
  });

  it('an order a crashed run journaled FILLED short of its fills (status found by query, trades lost in the kill): held as filling, the missing trades delivered once', () => {
    const j = openJournal(':memory:');
    j.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: T0 });
    j.orders.insert({ clientOrderId: 'c-2', runId: 'run-1', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '3100000', qty: '0.001', status: 'PENDING_NEW', createdAt: T0 });
    j.orders.update('c-2', { status: 'PARTIALLY_FILLED', updatedAt: T0 + 1, executedQty: '0.0004', exchangeOrderId: '77' }, 'fill 10');
    j.fills.insert({ symbol: 'BTCPHP', tradeId: '10', runId: 'run-1', clientOrderId: 'c-2', exchangeOrderId: '77', side: 'SELL', price: '3100000', qty: '0.0004', quoteQty: '1240', commission: '0', commissionAsset: 'PHP', isMaker: true, time: T0 + 1 });
    // A cancel refused as unknown, the order found FILLED by query: journaled before trades 11 and 12, which the kill lost.
    j.orders.update('c-2', { status: 'FILLED', updatedAt: T0 + 2, executedQty: '0.001' }, 'queryOrder');
    // And one that ended with all its fills journaled: nothing to look for.
    j.orders.insert({ clientOrderId: 'c-3', runId: 'run-1', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', qty: '0.0005', status: 'FILLED', executedQty: '0.0005', exchangeOrderId: '78', createdAt: T0 });
    j.fills.insert({ symbol: 'BTCPHP', tradeId: '13', runId: 'run-1', clientOrderId: 'c-3', exchangeOrderId: '78', side: 'SELL', price: '2900000', qty: '0.0005', quoteQty: '1450', commission: '0', commissionAsset: 'PHP', isMaker: false, time: T0 + 3 });
    expect(j.liveRuns.begin({ id: 'run-2', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: T0 + 60_000 }).crashed.map((r) => r.id)).toEqual(['run-1']);

    const ledger = new SeenLedger();
    const state = seedFromJournal(j, ledger, ['BTCPHP'], 'run-2');
    expect(state.orders.map((o) => [o.clientOrderId, o.status, o.executedQty, o.cumulativeQuoteQty])).toEqual([['c-2', 'PARTIALLY_FILLED', '0.0004', '1240']]);
    expect(ledger.statusOf('c-2')).toBe('PARTIALLY_FILLED');
    const trade = (tradeId: string, cumulativeQty: string, orderStatus: 'PARTIALLY_FILLED' | 'FILLED'): VenueFillEvent => ({ kind: 'fill', symbol: 'BTCPHP', clientOrderId: 'c-2', orderId: '77', tradeId, side: 'SELL', price: '3100000', qty: tradeId === '10' ? '0.0004' : tradeId === '11' ? '0.0004' : '0.0002', quoteQty: '0', commission: '0', commissionAsset: 'PHP', isMaker: true, orderStatus, cumulativeQty, cumulativeQuoteQty: '0', time: T0 + 2 });
    const r = ledger.admit([trade('10', '0.0004', 'PARTIALLY_FILLED'), trade('11', '0.0008', 'PARTIALLY_FILLED'), trade('12', '0.001', 'FILLED')], 'resync');
    expect(r.forward.map((e) => (e.kind === 'fill' ? e.tradeId : e.kind))).toEqual(['11', '12']);
    expect(ledger.statusOf('c-2')).toBe('FILLED');
    j.close();
  });
});
