import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

describe('RunStore', () => {
  it('starts, finishes and lists runs with their JSON params, config and result', () => {
    j.runs.start({ id: 'b1', kind: 'backtest', strategy: 'sma', params: { fast: 5, slow: 20 }, config: { fee: '0.001' }, startedAt: 10 });
    j.runs.start({ id: 'l1', kind: 'live', strategy: 'grid', startedAt: 20 });
    expect(j.runs.finish('b1', 99, { trades: 3, pnl: '12.5' })).toBe(true);
    expect(j.runs.finish('zz', 99, {})).toBe(false);
    expect(j.runs.get('b1')).toEqual({
      id: 'b1',
      kind: 'backtest',
      strategy: 'sma',
      params: { fast: 5, slow: 20 },
      config: { fee: '0.001' },
      startedAt: 10,
      endedAt: 99,
      result: { trades: 3, pnl: '12.5' },
    });
    expect(j.runs.get('l1')).toMatchObject({ params: {}, config: {}, endedAt: null, result: null });
    expect(j.runs.list().map((r) => r.id)).toEqual(['b1', 'l1']);
    expect(j.runs.list({ kind: 'live' }).map((r) => r.id)).toEqual(['l1']);
    expect(j.runs.list({ strategy: 'sma' }).map((r) => r.id)).toEqual(['b1']);
  });

  it('refuses an unknown kind and a duplicate id', () => {
    expect(() => j.runs.start({ id: 'x', kind: 'paper' as never, strategy: 's', startedAt: 1 })).toThrow(/CHECK/);
    j.runs.start({ id: 'x', kind: 'live', strategy: 's', startedAt: 1 });
    expect(() => j.runs.start({ id: 'x', kind: 'live', strategy: 's', startedAt: 1 })).toThrow(/run x/);
  });

  it('keeps intents in time order with their payload', () => {
    j.runs.start({ id: 'r', kind: 'sandbox', strategy: 's', startedAt: 0 });
    j.runs.addIntent({ runId: 'r', time: 20, strategy: 's', kind: 'cancel', payload: { clientOrderId: 'a' }, clientOrderId: 'a' });
    j.runs.addIntent({ runId: 'r', time: 10, strategy: 's', kind: 'place', payload: { side: 'BUY', price: '1.5' } });
    expect(j.runs.intents('r').map((i) => [i.time, i.kind, i.clientOrderId, i.payload])).toEqual([
      [10, 'place', null, { side: 'BUY', price: '1.5' }],
      [20, 'cancel', 'a', { clientOrderId: 'a' }],
    ]);
  });
});
