import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../journal.ts';
import { summarizeReconciliation, type ReconciliationReport } from './reconciliation-store.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
  j.liveRuns.begin({ id: 'r', strategies: [{ name: 'grid' }], config: {}, startedAt: 0 });
});
afterEach(() => j.close());

const report: ReconciliationReport = {
  adoptedOrders: [
    { symbol: 'BTCPHP', clientOrderId: 'hyaaaaaaa-1', orderId: '1375445991893797391', status: 'PARTIALLY_FILLED', executedQty: '0.001' },
    { symbol: 'BTCPHP', clientOrderId: 'hyaaaaaaa-2', orderId: '1375445991893797392', status: 'NEW' },
  ],
  missedFills: [{ symbol: 'BTCPHP', orderId: '1375445991893797391', tradeId: '9007199254740993', side: 'BUY', price: '3150000.5', qty: '0.001' }],
  foreignOrders: [{ symbol: 'ETHPHP', orderId: '77', clientOrderId: 'manual-1', action: 'left' }],
  balanceDifferences: [{ asset: 'BTC', expectedFree: '1.000', expectedLocked: '0', venueFree: '1.001', venueLocked: '0' }],
  resolvedRequests: [{ clientOrderId: 'hyaaaaaaa-3', kind: 'place', outcome: 'not found' }],
  symbols: ['BTCPHP', 'ETHPHP'],
};

describe('ReconciliationStore', () => {
  it('round-trips a report as structured JSON with its summary line', () => {
    const id = j.reconciliations.record({ runId: 'r', time: 50, kind: 'startup', report });
    expect(j.reconciliations.byId(id)).toEqual({
      id,
      runId: 'r',
      time: 50,
      kind: 'startup',
      summary: 'start-up: 2 orders adopted, 1 missed fill applied, 1 foreign order (left), 1 pending request resolved, balances differ in BTC',
      report,
    });
    j.reconciliations.record({ runId: 'r', time: 90, kind: 'resync', report: {}, summary: 'resync after listen key expiry: nothing missed' });
    expect(j.reconciliations.byRun('r').map((x) => [x.kind, x.summary])).toEqual([
      ['startup', 'start-up: 2 orders adopted, 1 missed fill applied, 1 foreign order (left), 1 pending request resolved, balances differ in BTC'],
      ['resync', 'resync after listen key expiry: nothing missed'],
    ]);
  });

  it('summarizes counts, cancelled foreign orders, and an empty report', () => {
    expect(summarizeReconciliation('resync', {})).toBe('resync: nothing missed, journal and venue agree');
    expect(summarizeReconciliation('resync', { missedFills: [report.missedFills![0]!, report.missedFills![0]!] })).toBe('resync: 2 missed fills applied');
    const foreign = (action: 'left' | 'cancelled') => ({ symbol: 'X', orderId: '1', clientOrderId: null, action });
    expect(summarizeReconciliation('startup', { foreignOrders: [foreign('cancelled'), foreign('cancelled')] })).toBe('start-up: 2 foreign orders (cancelled)');
    expect(summarizeReconciliation('startup', { foreignOrders: [foreign('cancelled'), foreign('left')] })).toBe('start-up: 2 foreign orders (1 cancelled)');
  });

  it('refuses money as a number, an unknown kind, a report that is not an object', () => {
    const bad = { missedFills: [{ ...report.missedFills![0]!, qty: 0.001 as unknown as string }] };
    expect(() => j.reconciliations.record({ runId: 'r', time: 1, kind: 'resync', report: bad })).toThrow(/resync reconciliation of run r at 1, missedFills\[0\]: qty must be decimal text/);
    const diff = { balanceDifferences: [{ ...report.balanceDifferences![0]!, venueFree: 1 as unknown as string }] };
    expect(() => j.reconciliations.record({ runId: 'r', time: 1, kind: 'resync', report: diff })).toThrow(/balanceDifferences\[0\]: venueFree must be decimal text/);
    expect(() => j.reconciliations.record({ runId: 'r', time: 1, kind: 'start-up' as never, report: {} })).toThrow(/kind must be one of startup, resync/);
    expect(() => j.reconciliations.record({ runId: 'r', time: 1, kind: 'resync', report: [] as never })).toThrow(/report must be an object/);
    expect(j.reconciliations.byRun('r')).toEqual([]);
  });
});
