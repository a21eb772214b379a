import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from './journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

describe('ExchangeInfoStore', () => {
  it('finds the snapshot in force at a time: the last taken at or before it', () => {
    const a = j.exchangeInfo.save(1000, { symbols: [{ symbol: 'BTCPHP', tick: '0.01' }] });
    const b = j.exchangeInfo.save(2000, { symbols: [{ symbol: 'BTCPHP', tick: '0.1' }] });
    expect(j.exchangeInfo.at(999)).toBeUndefined();
    expect(j.exchangeInfo.at(1000)?.id).toBe(a);
    expect(j.exchangeInfo.at(1999)?.body).toEqual({ symbols: [{ symbol: 'BTCPHP', tick: '0.01' }] });
    expect(j.exchangeInfo.at(2000)?.id).toBe(b);
    expect(j.exchangeInfo.latest()?.takenAt).toBe(2000);
    expect(j.exchangeInfo.list()).toEqual([
      { id: a, takenAt: 1000 },
      { id: b, takenAt: 2000 },
    ]);
  });

  it('two snapshots at the same time: the later write wins', () => {
    j.exchangeInfo.save(1000, { v: 1 });
    j.exchangeInfo.save(1000, { v: 2 });
    expect(j.exchangeInfo.at(1000)?.body).toEqual({ v: 2 });
  });
});
