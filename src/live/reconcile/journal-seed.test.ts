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
});
