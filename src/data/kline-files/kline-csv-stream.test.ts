import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KlineCsvError, klineCsvFile, parseKlineCsv, type KlineBar } from './kline-csv.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-kline-stream-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const M = 60_000;
const T = Date.UTC(2024, 0, 1);
const HEADER12 = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';

/** Row i of a 1m series; 12 columns with `closeTime`, else 6. */
function row(i: number, o: { columns?: 6 | 12; volume?: string; closeTime?: number } = {}): string {
  const base = [String(T + i * M), `${100 + (i % 50)}.5`, `${102 + (i % 50)}.25`, `${99 + (i % 50)}.0`, `${101 + (i % 50)}.75`, o.volume ?? `${i % 97}.125`];
  return (o.columns === 12 ? [...base, String(o.closeTime ?? T + i * M + M - 1), '1234.5', String(i), '6.1', '610.5', '0'] : base).join(',');
}

/** Every way a file's rows can shape the result: duplicates (identical and not), gaps, odd close times, no final newline. */
function sample(columns: 6 | 12, n: number): string {
  const lines = columns === 12 ? [HEADER12] : ['timestamp,open,high,low,close,volume'];
  for (let i = 0; i < n; i++) {
    if (i % 97 === 13 || i % 389 === 200) continue; // gaps
    lines.push(row(i, { columns, ...(i % 211 === 7 ? { closeTime: T + i * M + 30_000 } : {}) }));
    if (i % 150 === 3) lines.push(row(i, { columns })); // a paging overlap
    if (i % 333 === 5) lines.push(row(i, { columns, volume: '1.5' })); // a candle that was still forming
  }
  return lines.join('\r\n');
}

function streamed(file: string, batchSize: number, options: { interval?: string; symbol?: string; gapsKept?: number } = {}) {
  const batches: KlineBar[][] = [];
  const summary = klineCsvFile(file, options).read(batchSize, (b) => batches.push(b));
  return { summary, batches, bars: batches.flat() };
}

describe('klineCsvFile: the file read in batches', () => {
  it.each([6, 12] as const)('%i columns: the bars and the summary parseKlineCsv gives for the whole text, in batches of any size', (columns) => {
    const text = sample(columns, 3000);
    for (const name of ['BTCUSDT-1m.csv', 'BTCUSDT.csv']) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const whole = parseKlineCsv(text, { fileName: file });
      expect(whole.duplicates).toBeGreaterThan(10);
      expect(whole.gaps.length).toBeGreaterThan(10);
      expect(whole.warnings.length).toBe(columns === 12 ? 2 : 1);
      const { bars: _bars, duplicateRows, ...summary } = whole;
      expect(summary.identicalDuplicates).toBe(duplicateRows.filter((d) => d.identical).length);
      for (const size of [1, 7, 1000, Infinity]) {
        const r = streamed(file, size);
        expect(r.summary).toEqual(summary);
        expect(r.bars).toEqual(whole.bars);
        expect(r.batches.slice(0, -1).every((b) => b.length === size)).toBe(true);
        expect(r.batches.at(-1)!.length).toBeLessThanOrEqual(size);
      }
    }
  });

  it('keeps the first gapsKept gaps and counts them all', () => {
    const file = join(dir, 'BTCUSDT-1m.csv');
    writeFileSync(file, sample(6, 3000));
    const all = parseKlineCsv(sample(6, 3000), { fileName: file });
    const r = streamed(file, 100, { gapsKept: 3 });
    expect(r.summary.gaps).toEqual(all.gaps.slice(0, 3));
    expect(r.summary.gapCount).toBe(all.gaps.length);
    expect(r.summary.missing).toBe(all.missing);
  });

  it('a bad row hands on only the final bars before it; a bad last row none after the batches before it', () => {
    const lines = ['timestamp,open,high,low,close,volume', ...Array.from({ length: 100 }, (_, i) => row(i))];
    const file = join(dir, 'BTCUSDT-1m.csv');
    const bad = row(95).split(',');
    bad[4] = '200';
    writeFileSync(file, [...lines.slice(0, 96), bad.join(','), ...lines.slice(97)].join('\n'));
    const batches: KlineBar[][] = [];
    const e = (() => {
      try {
        klineCsvFile(file).read(10, (b) => batches.push(b));
      } catch (err) {
        return err;
      }
      throw new Error('expected a refusal');
    })();
    expect(e).toBeInstanceOf(KlineCsvError);
    expect((e as KlineCsvError).line).toBe(97);
    expect((e as KlineCsvError).message).toMatch(/BTCUSDT-1m\.csv:97: high 147\.25 is below close 200/);
    expect(batches.flat().map((b) => b.openTime)).toEqual(Array.from({ length: 90 }, (_, i) => T + i * M));

    // Off the grid at the very end: found when the last bar is final, at the end of the file.
    writeFileSync(file, [...lines, `${T + 100 * M + 1},1,1,1,1,1`].join('\n') + '\n');
    expect(() => klineCsvFile(file).read(10, () => {})).toThrow(/:102: open time .* is not on the 1m grid/);
  });

  it('an interval from the spacing is settled by a first pass, which refuses a bad file before any bar is handed on', () => {
    const file = join(dir, 'prices.csv');
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => row(i * 5)).join('\n'));
    const csv = klineCsvFile(file, { symbol: 'ethusdt' });
    expect(csv).toMatchObject({ symbol: 'ETHUSDT', interval: '5m', intervalSource: 'spacing' });
    expect(csv.read(7, () => {})).toMatchObject({ barCount: 50, gapCount: 0 });
    writeFileSync(file, [...Array.from({ length: 50 }, (_, i) => row(i * 5)), 'x,1,1,1,1,1'].join('\n'));
    expect(() => klineCsvFile(file)).toThrow(/prices\.csv:51: open time 'x' is not an integer epoch time/);
    expect(() => klineCsvFile(file, { symbol: 'BTC/USDT' })).toThrow(/symbol 'BTC\/USDT' is not a symbol/);
  });
});
