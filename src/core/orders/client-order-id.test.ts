import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientOrderIds, clientOrderId, MAX_CLIENT_ORDER_ID_LENGTH, parseClientOrderId, runKey } from './client-order-id.ts';

describe('client order ids', () => {
  it('are short, venue-safe and deterministic', () => {
    const id = clientOrderId({ runId: 'run-1', strategy: 'sma-crossover', tag: 'entry', seq: 1 });
    expect(id).toMatch(/^hy[0-9a-z]{7}entry-1$/);
    expect(clientOrderId({ runId: 'run-1', strategy: 'sma-crossover', tag: 'entry', seq: 1 })).toBe(id);
    expect(clientOrderId({ runId: 'run-2', strategy: 'sma-crossover', tag: 'entry', seq: 1 })).not.toBe(id);
    expect(clientOrderId({ runId: 'run-1', strategy: 'grid', tag: 'entry', seq: 1 })).not.toBe(id);
    expect(clientOrderId({ runId: 'run-1', strategy: 'sma-crossover', tag: 'entry', seq: 36 })).toBe(`hy${runKey('run-1', 'sma-crossover')}entry-10`);
    expect(clientOrderId({ runId: 'r', strategy: 's', seq: 5 })).toMatch(/^hy[0-9a-z]{7}-5$/);
  });

  it('round-trip through parse and never exceed 36 characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/), fc.integer({ min: 1, max: 36 ** 6 - 1 }), (runId, strategy, tag, seq) => {
        const id = clientOrderId({ runId, strategy, tag, seq });
        expect(id.length).toBeLessThanOrEqual(MAX_CLIENT_ORDER_ID_LENGTH);
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(parseClientOrderId(id)).toEqual({ key: runKey(runId, strategy), tag, seq });
      }),
    );
  });

  it('refuse what cannot make a valid id', () => {
    expect(() => clientOrderId({ runId: 'r', strategy: 's', tag: 'has space', seq: 1 })).toThrow(RangeError);
    expect(() => clientOrderId({ runId: 'r', strategy: 's', tag: 'x', seq: 0 })).toThrow(RangeError);
    expect(() => clientOrderId({ runId: 'r', strategy: 's', tag: 'x', seq: 36 ** 6 })).toThrow(/does not fit/);
    expect(parseClientOrderId('web_12345')).toBeUndefined();
  });

  it('ClientOrderIds counts per strategy and tag, and can resume', () => {
    const ids = new ClientOrderIds('run');
    expect([ids.next('a', 'bid'), ids.next('a', 'bid'), ids.next('a', 'ask'), ids.next('b', 'bid')].map((id) => parseClientOrderId(id)?.seq)).toEqual([1, 2, 1, 1]);
    const resumed = new ClientOrderIds('run', (strategy, tag) => (strategy === 'a' && tag === 'bid' ? 2 : 0));
    expect(resumed.next('a', 'bid')).toBe(new ClientOrderIds('run', () => 2).next('a', 'bid'));
    expect(parseClientOrderId(resumed.next('a', 'bid'))?.seq).toBe(4);
  });

  it('refuse a second strategy whose key is another one\'s: their ids would be the same', () => {
    // Two names whose FNV-1a keys collide in run 'backtest' (found by search).
    expect(runKey('backtest', 's329599')).toBe(runKey('backtest', 's532382'));
    const ids = new ClientOrderIds('backtest');
    expect(ids.next('s329599', undefined)).toBe(ids.next('s532382', undefined)); // unregistered: the same id for both
    const fresh = new ClientOrderIds('backtest');
    fresh.register('s329599');
    fresh.register('s329599'); // the same strategy again is fine
    expect(() => fresh.register('s532382')).toThrow(/strategies 's329599' and 's532382' would share client order ids in run 'backtest'/);
    expect(() => new ClientOrderIds('other').register('s532382')).not.toThrow();
  });
});
