import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from './journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

describe('BalanceStore', () => {
  it('records snapshots with their lines and finds the one in force at a time', () => {
    j.balances.record({ takenAt: 10, source: 'rest', balances: [{ asset: 'PHP', free: '1000.00', locked: '0' }, { asset: 'BTC', free: '0.5', locked: '0.1' }] });
    j.runs.start({ id: 'r', kind: 'live', strategy: 's', startedAt: 0 });
    j.balances.record({ takenAt: 20, runId: 'r', source: 'stream', balances: [{ asset: 'BTC', free: '0.6', locked: '0' }] });
    expect(j.balances.at(5)).toBeUndefined();
    expect(j.balances.at(15)).toMatchObject({
      takenAt: 10,
      runId: null,
      source: 'rest',
      balances: [
        { asset: 'BTC', free: '0.5', locked: '0.1' },
        { asset: 'PHP', free: '1000.00', locked: '0' },
      ],
    });
    expect(j.balances.latest()?.takenAt).toBe(20);
    expect(j.balances.latest('r')?.balances).toEqual([{ asset: 'BTC', free: '0.6', locked: '0' }]);
  });

  it('byRun lists a run\'s snapshots oldest first, each with its source (rest, stream, reconciliation)', () => {
    j.runs.start({ id: 'r', kind: 'live', strategy: 's', startedAt: 0 });
    j.balances.record({ takenAt: 30, runId: 'r', source: 'stream', balances: [{ asset: 'BTC', free: '0.7', locked: '0' }] });
    j.balances.record({ takenAt: 10, runId: 'r', source: 'reconciliation', balances: [{ asset: 'BTC', free: '0.5', locked: '0.1' }] });
    j.balances.record({ takenAt: 20, source: 'rest', balances: [] });
    expect(j.balances.byRun('r').map((s) => [s.takenAt, s.source, s.balances])).toEqual([
      [10, 'reconciliation', [{ asset: 'BTC', free: '0.5', locked: '0.1' }]],
      [30, 'stream', [{ asset: 'BTC', free: '0.7', locked: '0' }]],
    ]);
    expect(() => j.balances.record({ takenAt: 40, runId: 'r', source: 'rest', balances: [{ asset: 'BTC', free: 0.5 as unknown as string, locked: '0' }] })).toThrow(/BTC: free must be decimal text/);
  });

  it('a snapshot with a bad line is not written at all', () => {
    expect(() => j.balances.record({ takenAt: 1, source: 'rest', balances: [{ asset: 'A', free: '1', locked: '0' }, { asset: 'B', free: '-1', locked: '0' }] })).toThrow(/balance snapshot at 1/);
    expect(j.balances.latest()).toBeUndefined();
  });
});
