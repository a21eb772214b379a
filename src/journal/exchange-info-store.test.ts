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

  it('does not store again the rules in force already (serverTime aside), and lists a symbol past another symbol\'s snapshot', () => {
    const a = j.exchangeInfo.save(1000, { serverTime: 1000, symbols: [{ symbol: 'BTCPHP', tick: '0.01' }] });
    expect(j.exchangeInfo.save(5000, { serverTime: 5000, symbols: [{ symbol: 'BTCPHP', tick: '0.01' }] })).toBe(a);
    expect(j.exchangeInfo.list()).toHaveLength(1);
    const b = j.exchangeInfo.save(6000, { serverTime: 6000, symbols: [{ symbol: 'ETHPHP', tick: '0.5' }] });
    expect(b).not.toBe(a);
    expect(j.exchangeInfo.listing('BTCPHP', 9000)?.id).toBe(a);
    expect(j.exchangeInfo.listing('ETHPHP', 9000)?.id).toBe(b);
    expect(j.exchangeInfo.listing('ETHPHP', 2000)?.id).toBe(b); // none by then: the first later one
    expect(j.exchangeInfo.listing('XRPPHP', 9000)).toBeUndefined();
  });

  it('two snapshots at the same time: the later write wins', () => {
    j.exchangeInfo.save(1000, { v: 1 });
    j.exchangeInfo.save(1000, { v: 2 });
    expect(j.exchangeInfo.at(1000)?.body).toEqual({ v: 2 });
  });
});
