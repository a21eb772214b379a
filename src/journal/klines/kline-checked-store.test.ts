import { describe, expect, it } from 'vitest';
import { openJournal } from '../journal.ts';

const M = 60_000;

describe('KlineCheckedStore', () => {
  it('merges a range with every range of the series it overlaps or touches, and keeps series apart', () => {
    const j = openJournal(':memory:');
    const c = j.klineChecked;
    c.add('BTCPHP', '1m', 0, 10 * M);
    c.add('BTCPHP', '1m', 20 * M, 30 * M);
    c.add('BTCPHP', '1m', 40 * M, 50 * M);
    c.add('BTCPHP', '1h', 0, 100 * M);
    c.add('ETHPHP', '1m', 0, 100 * M);
    expect(c.within('BTCPHP', '1m', 0, 100 * M)).toEqual([
      [0, 10 * M],
      [20 * M, 30 * M],
      [40 * M, 50 * M],
    ]);
    // Touching the first, overlapping the second: one range.
    c.add('BTCPHP', '1m', 10 * M, 25 * M);
    expect(c.within('BTCPHP', '1m', 0, 100 * M)).toEqual([
      [0, 30 * M],
      [40 * M, 50 * M],
    ]);
    // Inside one: nothing changes; an empty range is ignored.
    c.add('BTCPHP', '1m', 41 * M, 42 * M);
    c.add('BTCPHP', '1m', 60 * M, 60 * M);
    expect(c.within('BTCPHP', '1m', 0, 100 * M)).toHaveLength(2);
    // Overlapping [from, to), unclipped.
    expect(c.within('BTCPHP', '1m', 29 * M, 41 * M)).toEqual([
      [0, 30 * M],
      [40 * M, 50 * M],
    ]);
    expect(c.within('BTCPHP', '1m', 30 * M, 40 * M)).toEqual([]);
    expect(c.within('BTCPHP', '1h', 0, 1)).toEqual([[0, 100 * M]]);
    j.close();
  });

  it('forgets the range holding a kline row that is deleted: that bar is missing again', () => {
    const j = openJournal(':memory:');
    const row = (t: number) => ({ symbol: 'BTCPHP', interval: '1m', openTime: t, open: '1', high: '1', low: '1', close: '1', volume: '1', closeTime: t + M - 1, source: 'rest' });
    j.klines.insertKlines([row(0), row(M), row(50 * M)]);
    j.klineChecked.add('BTCPHP', '1m', 0, 2 * M);
    j.klineChecked.add('BTCPHP', '1m', 50 * M, 51 * M);
    j.klines.deleteKlines('BTCPHP', '1m', M, 2 * M);
    expect(j.klineChecked.within('BTCPHP', '1m', 0, 100 * M)).toEqual([[50 * M, 51 * M]]);
    j.close();
  });
});
