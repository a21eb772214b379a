import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../journal/journal.ts';
import type { DetailedCandle } from '../../data/resample.ts';
import type { Journal } from '../../journal/journal.ts';
import { chooseSeries, countSeriesBars, detailSeries, seriesBars, seriesRange, seriesSpan, storedRange } from './journal-series.ts';

const M = 60_000;
const H = 60 * M;
const T = Date.UTC(2024, 0, 1);
// XRPPHP 1m: 10:20 .. 12:59, none in the 13:00 hour, 14:00 .. 14:29 and 14:40 .. 15:59, 16:00 .. 16:39.
const GAPPY = [...range(10 * 60 + 20, 13 * 60), ...range(14 * 60, 14 * 60 + 30), ...range(14 * 60 + 40, 16 * 60 + 40)];

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a }, (_, i) => a + i);
}
let dir: string;
let j: Journal;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-series-'));
  j = openJournal(join(dir, 'j.db'));
  const rows = (interval: string, len: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ symbol: 'BTCPHP', interval, openTime: T + i * len, closeTime: T + (i + 1) * len - 1, open: '1', high: String(2 + i), low: '0.5', close: '1.5', volume: '1', source: 'test' }));
  j.klines.insertKlines(rows('1m', M, 120));
  j.klines.insertKlines(rows('3m', 3 * M, 40));
  j.klines.insertKlines(GAPPY.map((m) => ({ symbol: 'XRPPHP', interval: '1m', openTime: T + m * M, closeTime: T + (m + 1) * M - 1, open: '1', high: '2', low: '0.5', close: '1.5', volume: '1', source: 'test' })));
});
afterAll(() => {
  j.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('journal series', () => {
  it('reads the stored interval as it is, else the coarsest stored one that tiles it', () => {
    expect(chooseSeries(j, 'BTCPHP', '1m')).toEqual({ symbol: 'BTCPHP', interval: '1m', stored: '1m' });
    expect(chooseSeries(j, 'BTCPHP', '15m')).toEqual({ symbol: 'BTCPHP', interval: '15m', stored: '3m' });
    expect(chooseSeries(j, 'BTCPHP', '5m')).toEqual({ symbol: 'BTCPHP', interval: '5m', stored: '1m' });
    expect(chooseSeries(j, 'ETHPHP', '5m')).toBeUndefined();
  });

  it('reads the whole periods opening in [from, to)', () => {
    const s = { symbol: 'BTCPHP', interval: '5m' as const, stored: '1m' as const };
    expect(storedRange(s, T + 3 * M, T + 12 * M)).toEqual({ from: T + 5 * M, to: T + 15 * M });
    expect(storedRange(s, T + 5 * M)).toEqual({ from: T + 5 * M });
    const bars = [...seriesBars(j, s, T + 3 * M, T + 12 * M)];
    expect(bars.map((b) => b.openTime)).toEqual([T + 5 * M, T + 10 * M]);
    expect(bars.map((b) => (b as { exact: { high: string; volume: string } }).exact)).toMatchObject([{ high: '11', volume: '5' }, { high: '16', volume: '5' }]);
    expect(seriesRange(j, s, T + 3 * M, T + 12 * M)).toEqual({ first: T + 5 * M, last: T + 10 * M });
    expect(countSeriesBars(j, s)).toBe(24);
    expect(countSeriesBars(j, { symbol: 'BTCPHP', interval: '1m', stored: '1m' })).toBe(120);
  });

  it('leaves out the partial periods at the ends of what is read, as the bars played do; keeps the gappy ones between', () => {
    const s = { symbol: 'XRPPHP', interval: '1h' as const, stored: '1m' as const };
    const played = (from?: number, to?: number) => [...seriesBars(j, s, from, to)].map((b) => b.openTime);
    // The 10:00 hour starts at 10:20 and the 16:00 one ends at 16:39: left out. 13:00 holds nothing; 14:00 lacks ten minutes in its middle: a bar.
    expect(played()).toEqual([T + 11 * H, T + 12 * H, T + 14 * H, T + 15 * H]);
    expect(seriesSpan(j, s)).toEqual({ stored: { first: T + 620 * M, last: T + 999 * M, count: GAPPY.length }, bars: { first: T + 11 * H, last: T + 15 * H }, partial: [T + 10 * H, T + 16 * H] });
    expect(seriesRange(j, s)).toEqual({ first: T + 11 * H, last: T + 15 * H });
    expect(countSeriesBars(j, s)).toBe(4);
    const gappy = [...seriesBars(j, s)][2] as { closeTime: number; volume: number };
    expect(gappy).toMatchObject({ closeTime: T + 15 * H - 1, volume: 50 });
    // The same tests on whatever range is read: [from, to) and the counts agree with the bars played.
    for (const [from, to] of [[T + 14 * H, undefined], [T + 14 * H, T + 16 * H], [T + 11 * H + 5 * M, T + 15 * H + 1], [undefined, T + 13 * H]] as const) {
      const bars = played(from, to);
      expect(countSeriesBars(j, s, from, to)).toBe(bars.length);
      expect(seriesRange(j, s, from, to)).toEqual({ first: bars[0], last: bars.at(-1) });
    }
    expect(seriesSpan(j, s, T + 14 * H)?.partial).toEqual([T + 16 * H]);
    expect(seriesSpan(j, s, T + 14 * H, T + 16 * H)?.partial).toEqual([]);
    expect(played(T + 14 * H, T + 16 * H)).toEqual([T + 14 * H, T + 15 * H]);
    // Only a partial period in the range: stored bars, no bar.
    expect(played(T + 16 * H)).toEqual([]);
    expect(seriesSpan(j, s, T + 16 * H)).toEqual({ stored: { first: T + 960 * M, last: T + 999 * M, count: 40 }, partial: [T + 16 * H] });
    expect(seriesRange(j, s, T + 16 * H)).toBeUndefined();
    expect(countSeriesBars(j, s, T + 16 * H)).toBe(0);
    // A 1d bar: the day starts at 10:20, the journal ends at 16:39; one period, partial at both ends, named once.
    expect(seriesSpan(j, { ...s, interval: '1d' })).toMatchObject({ partial: [T] });
    expect(seriesRange(j, { ...s, interval: '1d' })).toBeUndefined();
    // A detailed series the same, its bars carrying the minutes of whole periods only.
    const d = detailSeries(j, 'XRPPHP', '1h', '1m')!;
    const detailed = [...seriesBars(j, d)] as DetailedCandle[];
    expect(detailed.map((b) => [b.openTime, b.detail.length])).toEqual([[T + 11 * H, 60], [T + 12 * H, 60], [T + 14 * H, 50], [T + 15 * H, 60]]);
    expect(countSeriesBars(j, d)).toBe(4);
  });
});
