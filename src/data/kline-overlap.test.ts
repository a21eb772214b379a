import { describe, expect, it } from 'vitest';
import type { KlineTuple } from '../journal/klines/kline-store.ts';
import type { KlineBar } from './kline-files/kline-csv.ts';
import { compareWithStored } from './kline-overlap.ts';

const M = 60_000;
const bar = (i: number, over: Partial<KlineBar> = {}): KlineBar => ({ openTime: i * M, open: '1.5', high: '2', low: '1', close: '1.75', volume: '10', closeTime: i * M + M - 1, ...over });
const stored = (i: number, extra: [string | null, number | null, string | null, string | null] = [null, null, null, null], over: Partial<Record<'open' | 'high', string>> = {}): KlineTuple => [
  i * M,
  over.open ?? '1.50',
  over.high ?? '2.0',
  '1',
  '1.75',
  '10',
  i * M + M - 1,
  ...extra,
];

describe('compareWithStored', () => {
  it('new, identical (decimals by value; stored columns the file lacks kept) and nothing to write for identical', () => {
    const o = compareWithStored([bar(0), bar(1), bar(2), bar(3)], [stored(1), stored(2, ['17.5', 3, '5', '8.75'])]);
    expect(o).toMatchObject({ new: 2, identical: 2, completing: 0, changed: 0, firstChange: undefined });
    expect(o.rows(false).map((b) => b.openTime)).toEqual([0, 3 * M]);
  });

  it('a file giving columns the stored bar lacks completes it, keeping the stored text', () => {
    const o = compareWithStored([bar(1, { quoteVolume: '17.5', trades: 3, takerBuyBaseVolume: '5', takerBuyQuoteVolume: '8.75' })], [stored(1)]);
    expect(o).toMatchObject({ new: 0, identical: 0, completing: 1, changed: 0 });
    expect(o.rows(false)).toEqual([{ openTime: M, open: '1.50', high: '2.0', low: '1', close: '1.75', volume: '10', closeTime: 2 * M - 1, quoteVolume: '17.5', trades: 3, takerBuyBaseVolume: '5', takerBuyQuoteVolume: '8.75' }]);
  });

  it('a different value is a change: counted, the first one described, written only when replacing', () => {
    const o = compareWithStored(
      [bar(0), bar(1, { high: '99999' }), bar(2, { trades: 4 }), bar(3)],
      [stored(1), stored(2, [null, 3, null, null]), stored(3)],
    );
    expect(o).toMatchObject({ new: 1, identical: 1, completing: 0, changed: 2 });
    expect(o.firstChange).toEqual({ openTime: M, changes: [{ field: 'high', stored: '2.0', file: '99999' }] });
    expect(o.rows(false).map((b) => b.openTime)).toEqual([0]);
    expect(o.rows(true).map((b) => [b.openTime, b.high, b.trades])).toEqual([
      [0, '2', undefined],
      [M, '99999', undefined],
      [2 * M, '2', 4],
    ]);
  });

  it('a different close time is a change', () => {
    const s = stored(1);
    s[6] = M + 30_000;
    expect(compareWithStored([bar(1)], [s]).firstChange?.changes).toEqual([{ field: 'closeTime', stored: String(M + 30_000), file: String(2 * M - 1) }]);
  });
});
