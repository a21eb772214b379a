import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from './journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

describe('TreasuryStore', () => {
  it('records an action once, then updates its status and result', () => {
    expect(j.treasury.record({ id: 't1', time: 10, kind: 'convert', asset: 'PHP', amount: '-5000.00', status: 'planned', payload: { from: 'PHP', to: 'USDT' } })).toBe(true);
    expect(j.treasury.record({ id: 't1', time: 11, kind: 'convert', status: 'planned', payload: {} })).toBe(false);
    expect(j.treasury.setStatus('t1', 'done', 30, { orderId: '1375445991893797391' })).toBe(true);
    expect(j.treasury.get('t1')).toEqual({
      id: 't1',
      runId: null,
      time: 10,
      kind: 'convert',
      asset: 'PHP',
      amount: '-5000.00',
      status: 'done',
      updatedAt: 30,
      payload: { from: 'PHP', to: 'USDT' },
      result: { orderId: '1375445991893797391' },
    });
    expect(j.treasury.setStatus('zz', 'done', 1)).toBe(false);
  });

  it('lists by time range and run; refuses malformed amounts', () => {
    j.runs.start({ id: 'r', kind: 'live', strategy: 's', startedAt: 0 });
    j.treasury.record({ id: 'a', time: 10, kind: 'transfer', status: 'planned', payload: {}, runId: 'r' });
    j.treasury.record({ id: 'b', time: 20, kind: 'withdraw', status: 'planned', payload: {} });
    expect(j.treasury.list().map((a) => a.id)).toEqual(['a', 'b']);
    expect(j.treasury.list({ runId: 'r' }).map((a) => a.id)).toEqual(['a']);
    expect(j.treasury.list({ from: 11 }).map((a) => a.id)).toEqual(['b']);
    for (const bad of ['1-2', '--1', '1e3', 'x']) {
      expect(() => j.treasury.record({ id: `x${bad}`, time: 1, kind: 'k', amount: bad, status: 's', payload: {} })).toThrow(/treasury action/);
    }
  });
});
