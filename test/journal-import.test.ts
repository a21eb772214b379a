/**
 * Issue "Strategy plugins, the SQLite journal and the backtester", deliverables 4-5: the kline CSV
 * loader against the two real sample files (README of /work/shared/data/klines: their known
 * defects), every supported layout, refusals with line numbers, and the import into the journal.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../src/cli/commands/data/import.ts';
import { UsageError } from '../src/cli/errors.ts';
import type { CliIo } from '../src/cli/io.ts';
import { KlineCsvError, parseKlineCsv, readKlineCsv } from '../src/data/kline-files/kline-csv.ts';
import { openJournal } from '../src/journal/journal.ts';

const SAMPLES = fileURLToPath(new URL('../../shared/data/klines/', import.meta.url));
const BTC = join(SAMPLES, 'taeminlee-cp/BTCUSDT-1m.csv');
const LINK = join(SAMPLES, 'owlacar-dotcom-isda/LINKUSDT-1m-2026-02.csv');
const haveSamples = existsSync(BTC) && existsSync(LINK);
const M = 60_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { env, out: (t) => out.push(t), err: (t) => err.push(t) };
  return { cli, out, err };
}

function csvError(text: string, options = {}): KlineCsvError {
  try {
    parseKlineCsv(text, { fileName: 'BTCUSDT-1m.csv', ...options });
  } catch (e) {
    expect(e).toBeInstanceOf(KlineCsvError);
    return e as KlineCsvError;
  }
  throw new Error('expected the CSV to be refused');
}

describe.skipIf(!haveSamples)(`real sample files (${haveSamples ? 'present' : `skipped: ${SAMPLES} is absent`})`, () => {
  it('taeminlee-cp/BTCUSDT-1m.csv: 54 duplicate open times, kept last, 30,900 bars, no gaps', () => {
    const r = readKlineCsv(BTC);
    expect(r.symbol).toBe('BTCUSDT');
    expect(r.interval).toBe('1m');
    expect(r.layout).toEqual({ columns: 6, header: true, timeUnit: 'ms' });
    expect(r.rows).toBe(30_954);
    expect(r.duplicates).toBe(54);
    expect(r.bars).toHaveLength(30_900);
    expect(r.gaps).toEqual([]);
    // 30 paging overlaps (identical rows) and 24 forming candles replaced by the closed one.
    expect(r.duplicateRows.filter((d) => d.identical)).toHaveLength(30);
    expect(r.duplicateRows.filter((d) => !d.identical)).toHaveLength(24);
    expect(r.bars[0]!.openTime).toBe(Date.UTC(2024, 2, 1));
    expect(r.bars.at(-1)!.openTime).toBe(Date.UTC(2024, 2, 22, 10, 59));
    for (let i = 1; i < r.bars.length; i++) expect(r.bars[i]!.openTime - r.bars[i - 1]!.openTime).toBe(M);
    expect(r.bars[0]).toMatchObject({ open: '61130.99', high: '61197.66', low: '61126.0', close: '61196.0', closeTime: Date.UTC(2024, 2, 1) + M - 1 });
  });

  it('owlacar-dotcom-isda/LINKUSDT-1m-2026-02.csv: 40,320 bars, no gaps, no duplicates, 12 columns', () => {
    const r = readKlineCsv(LINK);
    expect(r.symbol).toBe('LINKUSDT');
    expect(r.layout).toEqual({ columns: 12, header: true, timeUnit: 'ms' });
    expect(r.bars).toHaveLength(40_320);
    expect(r.duplicates).toBe(0);
    expect(r.gaps).toEqual([]);
    expect(r.bars[0]).toEqual({
      openTime: 1769904000000,
      open: '9.982',
      high: '9.990',
      low: '9.974',
      close: '9.987',
      volume: '24464.35',
      closeTime: 1769904059999,
      quoteVolume: '244198.04745',
      trades: 782,
      takerBuyBaseVolume: '9388.60',
      takerBuyQuoteVolume: '93722.16297',
    });
    expect(r.bars.at(-1)!.openTime).toBe(Date.UTC(2026, 1, 28, 23, 59));
  });

  it('imports both into a journal; importing again changes nothing', async () => {
    const journal = join(dir, 'samples.db');
    const a = io();
    await runImport(a.cli, { file: BTC, journal });
    expect(a.out.join('\n')).toMatch(/rows +30954 read, 30900 bars/);
    expect(a.out.join('\n')).toMatch(/duplicates +54 rows .*kept the last copy \(30 identical, 24 different\)/);
    expect(a.out.join('\n')).toMatch(/gaps +none/);
    expect(a.out.join('\n')).toMatch(/stored +none at these open times: 30900 new/);
    await runImport(io().cli, { file: LINK, journal });
    const again = io();
    await runImport(again.cli, { file: BTC, journal });
    expect(again.out.join('\n')).toMatch(/stored +30900 already stored, identical \(left as they are\); 0 new/);
    const j = openJournal(journal);
    expect(j.klines.klineRange('BTCUSDT', '1m')).toEqual({ first: Date.UTC(2024, 2, 1), last: Date.UTC(2024, 2, 22, 10, 59), count: 30_900 });
    expect(j.klines.klineRange('LINKUSDT', '1m')?.count).toBe(40_320);
    expect(j.klines.symbols()).toEqual(['BTCUSDT', 'LINKUSDT']);
    const last = j.klines.klines('BTCUSDT', '1m', Date.UTC(2024, 2, 22, 10, 59))[0]!;
    expect(last).toMatchObject({ open: '64694.32', high: '64694.33', low: '64636.54', close: '64685.99', volume: '20.36793', source: 'csv:BTCUSDT-1m.csv' });
    j.close();
  });
});

/** Bars i = 0..n-1 of a 1m series starting at t0, as CSV lines in the given layout. */
function rows(n: number, layout: { columns: 6 | 12; unit?: 'ms' | 'us' | 's'; t0?: number; skip?: number[] }): string[] {
  const t0 = layout.t0 ?? Date.UTC(2024, 0, 1);
  const scale = (ms: number, end = false) => (layout.unit === 'us' ? `${ms}${end ? '999' : '000'}` : layout.unit === 's' ? String(Math.floor(ms / 1000)) : String(ms));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (layout.skip?.includes(i)) continue;
    const t = t0 + i * M;
    const base = [scale(t), `${100 + i}.5`, `${102 + i}.25`, `${99 + i}.0`, `${101 + i}.75`, '12.345'];
    out.push((layout.columns === 6 ? base : [...base, scale(t + M - 1, true), '1234.5', String(10 + i), '6.1', '610.5', '0']).join(','));
  }
  return out;
}
const HEADER6 = 'timestamp,open,high,low,close,volume';
const HEADER12 = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';

describe('kline CSV layouts', () => {
  it.each([
    ['6 columns, header, ms', [HEADER6, ...rows(5, { columns: 6 })], { columns: 6, header: true, timeUnit: 'ms' }],
    ['6 columns, no header, ms', rows(5, { columns: 6 }), { columns: 6, header: false, timeUnit: 'ms' }],
    ['12 columns, header, ms', [HEADER12, ...rows(5, { columns: 12 })], { columns: 12, header: true, timeUnit: 'ms' }],
    ['12 columns, no header, µs (archive files since 2025)', rows(5, { columns: 12, unit: 'us' }), { columns: 12, header: false, timeUnit: 'us' }],
    ['6 columns, no header, µs', rows(5, { columns: 6, unit: 'us' }), { columns: 6, header: false, timeUnit: 'us' }],
    ['6 columns, header, seconds', [HEADER6, ...rows(5, { columns: 6, unit: 's' })], { columns: 6, header: true, timeUnit: 's' }],
  ] as const)('%s', (_name, lines, layout) => {
    const r = parseKlineCsv(lines.join('\n') + '\n', { fileName: 'BTCUSDT-1m.csv' });
    expect(r.layout).toEqual(layout);
    expect(r.bars).toHaveLength(5);
    expect(r.bars[4]).toMatchObject({ openTime: Date.UTC(2024, 0, 1) + 4 * M, open: '104.5', high: '106.25', low: '103.0', close: '105.75', volume: '12.345', closeTime: Date.UTC(2024, 0, 1) + 5 * M - 1 });
    if (layout.columns === 12) expect(r.bars[4]).toMatchObject({ quoteVolume: '1234.5', trades: 14, takerBuyBaseVolume: '6.1', takerBuyQuoteVolume: '610.5' });
    else expect(r.bars[4]!.quoteVolume).toBeUndefined();
  });

  it('tolerates CRLF, a BOM, quoted fields, blank lines and no final newline', () => {
    const text = '\ufeff' + [HEADER6, ...rows(3, { columns: 6 }).map((l) => l.split(',').map((f) => `"${f}"`).join(',')), '', ...rows(5, { columns: 6 }).slice(3)].join('\r\n');
    const r = parseKlineCsv(text, { fileName: 'x.csv', symbol: 'btcusdt', interval: '1m' });
    expect(r.bars).toHaveLength(5);
    expect(r.symbol).toBe('BTCUSDT');
    expect(r.bars[0]!.open).toBe('100.5');
  });

  it('takes the interval from the option, then the file name, then the spacing', () => {
    const five = [HEADER6, ...rows(20, { columns: 6 }).filter((_, i) => i % 5 === 0)].join('\n');
    expect(parseKlineCsv(five, { fileName: 'data.csv' })).toMatchObject({ interval: '5m', intervalSource: 'spacing', symbol: undefined, gaps: [] });
    expect(parseKlineCsv(five, { fileName: 'ETHUSDT-5m.csv' })).toMatchObject({ interval: '5m', intervalSource: 'file-name', symbol: 'ETHUSDT' });
    const asOption = parseKlineCsv(five, { fileName: 'ETHUSDT-1m.csv', interval: '1m' });
    expect(asOption).toMatchObject({ interval: '1m', intervalSource: 'option', missing: 12 });
    expect(asOption.warnings[0]).toMatch(/most common spacing is 5m but the interval is 1m/);
  });

  it('warns when a 12-column file has close times that do not fit the interval', () => {
    const lines = rows(3, { columns: 12 });
    lines[1] = lines[1]!.replace(String(Date.UTC(2024, 0, 1) + 2 * M - 1), String(Date.UTC(2024, 0, 1) + M + 30_000));
    const r = parseKlineCsv([HEADER12, ...lines].join('\n') + '\n', { fileName: 'BTCUSDT-1m.csv' });
    expect(r.warnings).toEqual(['1 row(s) have a close time other than the last ms of their 1m bar (first at line 3)']);
    expect(r.bars[1]!.closeTime).toBe(Date.UTC(2024, 0, 1) + M + 30_000);
  });

  it('warns when the file does not end with a newline: its last row may be cut short (a volume 1 that was 12.5)', () => {
    const lines = rows(3, { columns: 6 });
    const cut = [HEADER6, ...lines].join('\n');
    const r = parseKlineCsv(cut, { fileName: 'BTCUSDT-1m.csv' });
    expect(r.bars).toHaveLength(3);
    expect(r.warnings).toEqual(['the file does not end with a newline: its last row (line 4) was read as it stands; check it is complete (a file cut short ends inside a row)']);
    expect(parseKlineCsv(cut + '\r\n', { fileName: 'BTCUSDT-1m.csv' }).warnings).toEqual([]);
  });

  it('reports gaps as ranges of missing open times', () => {
    const r = parseKlineCsv([HEADER6, ...rows(12, { columns: 6, skip: [3, 4, 5, 9] })].join('\n'), { fileName: 'BTCUSDT-1m.csv' });
    const t0 = Date.UTC(2024, 0, 1);
    expect(r.bars).toHaveLength(8);
    expect(r.gaps).toEqual([
      { from: t0 + 3 * M, to: t0 + 5 * M, missing: 3 },
      { from: t0 + 9 * M, to: t0 + 9 * M, missing: 1 },
    ]);
    expect(r.missing).toBe(4);
  });

  it('a repeated open time replaces the row before it and counts as a duplicate', () => {
    const lines = rows(4, { columns: 6 });
    const replaced = lines[2]!.replace(/,12\.345$/, ',99.9');
    const r = parseKlineCsv([HEADER6, lines[0], lines[1], lines[1], lines[2], replaced, lines[3]].join('\n'), { fileName: 'BTCUSDT-1m.csv' });
    expect(r.bars).toHaveLength(4);
    expect(r.duplicates).toBe(2);
    expect(r.duplicateRows).toEqual([
      { line: 4, openTime: Date.UTC(2024, 0, 1) + M, identical: true },
      { line: 6, openTime: Date.UTC(2024, 0, 1) + 2 * M, identical: false },
    ]);
    expect(r.bars[2]!.volume).toBe('99.9');
  });
});

describe('kline CSV refusals (the whole file, with the line number)', () => {
  const good = rows(6, { columns: 6 });
  const withLine = (n: number, line: string) => [HEADER6, ...good.slice(0, n - 2), line, ...good.slice(n - 1)].join('\n');

  it.each([
    ['a price that is not a number', withLine(4, good[2]!.replace('102.5', 'abc')), 4, /open 'abc' is not a non-negative decimal/],
    ['exponent notation', withLine(3, good[1]!.replace(',12.345', ',1e-5')), 3, /volume '1e-5'/],
    ['a negative volume', withLine(5, good[3]!.replace(',12.345', ',-1')), 5, /volume '-1'/],
    ['high below close', withLine(4, good[2]!.replace('104.25', '103.0')), 4, /high 103\.0 is below close 103\.75/],
    ['low above open', withLine(6, good[4]!.replace('103.0', '104.6')), 6, /low 104\.6 is above open 104\.5/],
    ['a missing field', withLine(3, '1704067260000,101.5,103.25,100.0,102.75'), 3, /5 fields, expected 6/],
    ['a bad timestamp', withLine(2, `2024-01-01,100.5,102.25,99.0,101.75,1`), 2, /open time '2024-01-01' is not an integer epoch time/],
    ['a 12-digit timestamp', withLine(2, `170406720000,100.5,102.25,99.0,101.75,1`), 2, /12 digits; expected epoch ms \(13\), µs \(16\) or seconds \(10\)/],
    ['a unit switch mid-file', withLine(4, `${Date.UTC(2024, 0, 1) + 2 * M}000,102.5,104.25,101.0,103.75,1`), 4, /in us, earlier rows in ms/],
  ])('%s', (_name, text, line, reason) => {
    const e = csvError(text);
    expect(e.line).toBe(line);
    expect(e.message).toContain(`BTCUSDT-1m.csv:${line}: `);
    expect(e.message).toMatch(reason);
  });

  it('an open time going backwards', () => {
    const e = csvError([HEADER6, good[0], good[2], good[1], good[3]].join('\n'));
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/open time 2024-01-01T00:01:00.000Z goes backwards \(line 3 has 2024-01-01T00:02:00.000Z\)/);
  });

  it('bars closer than the interval, or off its grid', () => {
    expect(csvError([HEADER6, ...good].join('\n'), { interval: '5m' }).message).toMatch(/:3: .*less than one 5m interval after the previous bar/);
    const off = [good[0], good[1]!.replace(String(Date.UTC(2024, 0, 1) + M), String(Date.UTC(2024, 0, 1) + 90_000))].join('\n');
    expect(csvError(off).message).toMatch(/:2: .*not on the 1m grid/);
  });

  it('an empty file, a header only, a wrong column count, a reordered header', () => {
    expect(csvError('').message).toMatch(/empty file/);
    expect(csvError('\n\r\n').message).toMatch(/empty file/);
    expect(csvError(HEADER6 + '\n').message).toMatch(/no data rows \(only a header\)/);
    expect(csvError('a,b,c\n1,2,3').message).toMatch(/:1: 3 columns; a kline file has 6/);
    expect(csvError('time,close,high,low,open,volume\n' + good[0]).message).toMatch(/:1: header column 2 is 'close', expected open/);
  });

  it('an unknown interval or a bad symbol option, and a single bar with no interval to infer', () => {
    expect(csvError(good.join('\n'), { interval: '7m' }).message).toMatch(/unknown interval '7m'/);
    expect(csvError(good.join('\n'), { symbol: 'BTC/USDT' }).message).toMatch(/symbol 'BTC\/USDT' is not a symbol/);
    expect(() => parseKlineCsv(good[0]!, { fileName: 'data.csv' })).toThrow(/cannot tell the interval from a single bar/);
  });
});

describe('halyard import', () => {
  it('writes the bars, prints the summary with gaps, and a bad file imports nothing', async () => {
    const file = join(dir, 'ETHUSDT-1m-2024-01.csv');
    writeFileSync(file, [HEADER12, ...rows(10, { columns: 12, skip: [4, 5] })].join('\n'));
    const journal = join(dir, 'sub', 'j.db');
    const a = io();
    const r = await runImport(a.cli, { file, journal });
    expect(r.barCount).toBe(8);
    const text = a.out.join('\n');
    expect(text).toContain(`Imported ETHUSDT 1m from ${file} into ${journal}`);
    expect(text).toMatch(/layout +12 columns, header row, times in ms/);
    expect(text).toMatch(/gaps +1 \(2 bars missing\)\n +2024-01-01T00:04Z \.\. 2024-01-01T00:05Z \(2\)/);
    expect(text).toMatch(/journal +ETHUSDT 1m now holds 8 bars, 2024-01-01T00:00Z \.\. 2024-01-01T00:09Z/);

    const bad = join(dir, 'ETHUSDT-1m-bad.csv');
    const lines = rows(3, { columns: 12, t0: Date.UTC(2024, 0, 1) + 20 * M });
    writeFileSync(bad, [HEADER12, ...lines.slice(0, 2), lines[2]!.replace('104.25', '1.0')].join('\n'));
    const err = await runImport(io().cli, { file: bad, journal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/ETHUSDT-1m-bad\.csv:4: high 1\.0 is below open 102\.5\nnothing was imported/);
    const j = openJournal(journal);
    expect(j.klines.klineRange('ETHUSDT', '1m')?.count).toBe(8);
    j.close();
  });

  it('--dry-run writes nothing; the symbol must be known; a non-journal --journal is refused untouched', async () => {
    const file = join(dir, 'data.csv');
    writeFileSync(file, rows(3, { columns: 6 }).join('\n'));
    await expect(runImport(io().cli, { file })).rejects.toThrow(/cannot tell the symbol from the file name 'data.csv': pass --symbol/);
    const dry = io();
    await runImport(dry.cli, { file, symbol: 'BNBUSDT', dryRun: true, journal: join(dir, 'never.db') });
    expect(dry.out.join('\n')).toMatch(/Checked BNBUSDT 1m .*dry run, nothing written/);
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
    await expect(runImport(io().cli, { file, symbol: 'BNBUSDT', journal: file })).rejects.toThrow(/journal .*data\.csv: not a SQLite database/);
    await expect(runImport(io().cli, { file: join(dir, 'missing.csv') })).rejects.toThrow(/cannot read the file/);
  });

  it('uses $HALYARD_JOURNAL when --journal is not given', async () => {
    const file = join(dir, 'SOLUSDT-1h.csv');
    writeFileSync(file, [HEADER6, ...rows(3, { columns: 6 }).map((l, i) => l.replace(/^\d+/, String(Date.UTC(2024, 0, 1) + i * 3_600_000)))].join('\n'));
    const journal = join(dir, 'env.db');
    await runImport(io({ HALYARD_JOURNAL: journal }).cli, { file });
    const j = openJournal(journal);
    expect(j.klines.series()).toEqual([{ symbol: 'SOLUSDT', interval: '1h', first: Date.UTC(2024, 0, 1), last: Date.UTC(2024, 0, 1, 2), count: 3 }]);
    j.close();
  });
});
