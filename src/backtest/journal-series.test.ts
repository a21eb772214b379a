import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../journal/journal.ts';
import type { Journal } from '../journal/journal.ts';
import { chooseSeries, countSeriesBars, seriesBars, seriesRange, storedRange } from './journal-series.ts';

const M = 60_000;
const T = Date.UTC(2024, 0, 1);
let dir: string;
let j: Journal;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-series-'));
  j = openJournal(join(dir, 'j.db'));
  const rows = (interval: string, len: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ symbol: 'BTCPHP', interval, openTime: T + i * len, closeTime: T + (i + 1) * len - 1, open: '1', high: String(2 + i), low: '0.5', close: '1.5', volume: '1', source: 'test' }));
  j.klines.insertKlines(rows('1m', M, 120));
  j.klines.insertKlines(rows('3m', 3 * M, 40));
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
});
