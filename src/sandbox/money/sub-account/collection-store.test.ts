import { describe, expect, it } from 'vitest';
import { CollectionStore, SETTLE_DELAY_MS, taskView } from './collection-store.ts';

const T0 = 1_700_000_000_000;

describe('CollectionStore (spec 3.2 collection task, 4.9 rule 6)', () => {
  it('keeps a task INIT until the settle delay has passed, then sets the outcome once', () => {
    const store = new CollectionStore();
    store.add({ masterId: 'm', clientRequestId: 'a', status: 'INIT', comment: '', createdAt: T0 });
    let sweeps = 0;
    const sweep = () => (sweeps++, { moved: 0, leftBehind: [] });
    store.settleDue(T0 + SETTLE_DELAY_MS - 1, sweep);
    expect([store.find('m', 'a')?.status, sweeps]).toEqual(['INIT', 0]);
    store.settleDue(T0 + SETTLE_DELAY_MS, sweep);
    store.settleDue(T0 + 10 * SETTLE_DELAY_MS, sweep);
    expect([taskView(store.find('m', 'a')!), sweeps]).toEqual([{ clientRequestId: 'a', status: 'SUCCESS', comment: '' }, 1]);
  });

  it('reports PARTIAL_SUCCESS when some money stayed, FAILED when none moved', () => {
    const store = new CollectionStore();
    store.add({ masterId: 'm', clientRequestId: 'p', status: 'INIT', comment: '', createdAt: T0 });
    store.add({ masterId: 'n', clientRequestId: 'f', status: 'INIT', comment: '', createdAt: T0 });
    store.settleDue(T0 + SETTLE_DELAY_MS, (t) => (t.masterId === 'm' ? { moved: 2, leftBehind: ['x PHP 1 (locked)'] } : { moved: 0, leftBehind: ['y BTC 1 (frozen)'] }));
    expect(store.ofMaster('m').map(taskView)).toEqual([{ clientRequestId: 'p', status: 'PARTIAL_SUCCESS', comment: 'not collected: x PHP 1 (locked)' }]);
    expect(store.ofMaster('n').map((t) => t.status)).toEqual(['FAILED']);
  });
});
