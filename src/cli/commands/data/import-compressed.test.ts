/**
 * `halyard import` of compressed kline files, as exchanges publish them: Binance's monthly
 * `BTCUSDT-1m-2024-03.zip` holding one CSV, and tools' `.csv.gz`. The bars stored must be the
 * plain CSV's; a damaged archive (a bad CRC-32, cut short) imports nothing, like a bad row; the
 * CSV's line numbers are the ones inside. The zips are written here (zip-test-support.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipFixture, type ZipFixtureEntry, type ZipFixtureOptions } from '../../../data/kline-files/zip-test-support.ts';
import { openJournal } from '../../../journal/journal.ts';
import type { CliIo } from '../../io.ts';
import { runCommand } from '../../test-support.ts';
import { importCommand, runImport } from './import.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-compressed-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(importCommand, argv);
const M = 60_000;
const T = Date.UTC(2024, 2, 1);
const NAME = 'BTCUSDT-1m-2024-03';
const HEADER = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
/** Binance's 12 columns; bar 7 missing (a gap), `over` replaces bar i's line. More than one batch (IMPORT_BATCH). */
function csv(n = 5000, over: Record<number, string> = {}): string {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) {
    if (i === 7) continue;
    const p = 61000 + (i % 113);
    lines.push(over[i] ?? [T + i * M, `${p}.5`, `${p + 2}.25`, `${p - 1}.0`, `${p + 1}.75`, `${i % 13}.5`, T + i * M + M - 1, '1234.5', i % 50, '6.1', '610.5', '0'].join(','));
  }
  return lines.join('\n') + '\n';
}
const BAD_ROW = `${T + 3 * M},1.5,1.0,1.0,1.75,10,${T + 4 * M - 1},1,1,1,1,0`;

function write(file: string, data: Buffer | string): string {
  const path = join(dir, file);
  writeFileSync(path, data);
  return path;
}
const zip = (file: string, entries: ZipFixtureEntry[], options: ZipFixtureOptions = {}) => write(file, zipFixture(entries, options));

/**
 * What an import stored: the bars (every column but `source`, a JSON line each: one string compares
 * tens of thousands of rows at once), how many, the block cache (hex) and the sources.
 */
function stored(journal: string) {
  const j = openJournal(journal, { readonly: true });
  try {
    const rows = j.db.prepare('SELECT * FROM klines ORDER BY symbol, interval, open_time').all() as Record<string, unknown>[];
    const blocks = j.db.prepare('SELECT symbol, interval, start, stop, count, hex(data) FROM kline_blocks ORDER BY symbol, interval, start').raw(true).all();
    return {
      count: rows.length,
      klines: rows.map(({ source: _, ...bar }) => JSON.stringify(bar)).join('\n'),
      sources: [...new Set(rows.map((r) => r.source))],
      blocks: blocks.map((b) => JSON.stringify(b)).join('\n'),
    };
  } finally {
    j.close();
  }
}

/** The summary's lines after the first (the file named), as the plain CSV's import prints them. */
const summaryOf = (out: string) => out.split('\n').slice(1);

describe('halyard import of .zip and .csv.gz files', () => {
  it('stores exactly the bars of the plain CSV from a .csv.gz, and from a zip: deflated, stored, behind a comment, with a local extra field, with a data descriptor', async () => {
    const text = csv();
    const plain = write(`${NAME}.csv`, text);
    const expected = await run(['import', plain, '--journal', join(dir, 'plain.db')]);
    expect(expected.code).toBe(0);
    const want = stored(join(dir, 'plain.db'));
    expect(want.count).toBe(4999);
    expect(want.sources).toEqual([`csv:${NAME}.csv`]);

    const files: [string, string][] = [
      [write(`${NAME}.csv.gz`, gzipSync(text)), `csv:${NAME}.csv.gz`],
      [zip(`${NAME}.zip`, [{ name: `${NAME}.csv`, data: text }]), `csv:${NAME}.zip (${NAME}.csv)`],
      [zip(`${NAME}-stored.zip`, [{ name: `${NAME}.csv`, data: text, method: 0 }]), `csv:${NAME}-stored.zip (${NAME}.csv)`],
      [zip(`${NAME}-comment.zip`, [{ name: `${NAME}.csv`, data: text, localExtra: Buffer.alloc(9) }], { comment: 'https://data.binance.vision' }), `csv:${NAME}-comment.zip (${NAME}.csv)`],
      [zip(`${NAME}-descriptor.zip`, [{ name: `${NAME}.csv`, data: text, flags: 0x08 }]), `csv:${NAME}-descriptor.zip (${NAME}.csv)`],
    ];
    for (const [file, source] of files) {
      const journal = join(dir, `${source.length}-${files.findIndex((f) => f[0] === file)}.db`);
      const r = await run(['import', file, '--journal', journal]);
      expect(r.err, file).toBe('');
      expect(r.code).toBe(0);
      const named = file.endsWith('.zip') ? `${file} (${NAME}.csv)` : file;
      expect(r.out.split('\n')[0]).toBe(`Imported BTCUSDT 1m from ${named} into ${journal}`);
      expect(summaryOf(r.out)).toEqual(summaryOf(expected.out).map((l) => l.replace(join(dir, 'plain.db'), journal)));
      const got = stored(journal);
      expect(got.klines === want.klines, file).toBe(true);
      expect(got.blocks === want.blocks, file).toBe(true);
      expect(got.sources).toEqual([source]);
    }
  });

  it('reads the symbol and interval from the zip entry\'s name, else from the zip\'s, else the interval from the spacing', async () => {
    const text = csv(50);
    const inside = zip('download.zip', [{ name: `data/${NAME}.csv`, data: text }]);
    let r = await run(['import', inside, '--journal', join(dir, 'a.db')]);
    expect(r.out).toMatch(/^Imported BTCUSDT 1m from .*download\.zip \(data\/BTCUSDT-1m-2024-03\.csv\) into/);
    expect(r.out).toMatch(/series +BTCUSDT 1m \(interval from the file name\)/);

    const outside = zip(`${NAME}.zip`, [{ name: 'klines.csv', data: text }]);
    r = await run(['import', outside, '--journal', join(dir, 'b.db')]);
    expect(r.out).toMatch(/^Imported BTCUSDT 1m from .*BTCUSDT-1m-2024-03\.zip \(klines\.csv\) into/);

    const neither = zip('download2.zip', [{ name: 'klines.csv', data: text }]);
    r = await run(['import', neither, '--journal', join(dir, 'c.db')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: cannot tell the symbol from the file name 'download2.zip (klines.csv)': pass --symbol");
    r = await run(['import', neither, '--symbol', 'ethusdt', '--journal', join(dir, 'c.db')]);
    expect(r.out).toMatch(/series +ETHUSDT 1m \(interval from the bar spacing\)/);
    expect(stored(join(dir, 'c.db')).klines).toBe(stored(join(dir, 'a.db')).klines.replaceAll('"symbol":"BTCUSDT"', '"symbol":"ETHUSDT"'));
  });

  it('a zip without a single readable CSV, or cut short, imports nothing: exit 2 naming the zip and the reason, no journal left', async () => {
    const journal = join(dir, 'j.db');
    const text = csv(50);
    const whole = zipFixture([{ name: `${NAME}.csv`, data: text }]);
    const cases: [string, string][] = [
      [zip('two.zip', [{ name: `${NAME}.csv`, data: text }, { name: 'ETHUSDT-1m-2024-03.csv', data: text }]), `: 2 .csv files in the zip (${NAME}.csv, ETHUSDT-1m-2024-03.csv): import holds one series a file; unzip it and import them one by one`],
      [zip('none.zip', [{ name: 'readme.txt', data: 'x' }]), ': no .csv file in the zip (it holds readme.txt); a kline zip holds one .csv file'],
      [write(`${NAME}-cut.zip`, whole.subarray(0, whole.length - 30)), ': not a zip file, or cut short: no end-of-central-directory record (a zip ends with one)'],
      [zip(`${NAME}-lzma.zip`, [{ name: `${NAME}.csv`, data: text, method: 14 }]), ` (${NAME}.csv): the entry is compressed with method 14 (LZMA); only stored (0) and deflate (8) are read: unzip it, or zip it again with deflate`],
      [zip(`${NAME}-secret.zip`, [{ name: `${NAME}.csv`, data: text, flags: 1 }]), ` (${NAME}.csv): the entry is encrypted: unzip it with its password first`],
    ];
    for (const [file, reason] of cases) {
      for (const dry of [[], ['--dry-run']]) {
        const r = await run(['import', file, '--journal', journal, ...dry]);
        expect(r.code, file).toBe(2);
        expect(r.err).toBe(`error: ${file}${reason}\nnothing was imported`);
        expect(r.out).toBe('');
        expect(existsSync(journal)).toBe(false);
      }
    }
  });

  it('a bad CRC-32 or a stream cut short fails at its end, after batches were written: the transaction rolls back, a journal it created is removed', async () => {
    const text = csv();
    const badCrc = zip(`${NAME}.zip`, [{ name: `${NAME}.csv`, data: text, crc: 0xdeadbeef }]);
    const gz = gzipSync(text);
    const cutGz = write(`${NAME}.csv.gz`, gz.subarray(0, gz.length - 2000));
    const cutEntry = zip(`${NAME}-cut.zip`, [{ name: `${NAME}.csv`, data: text, cut: 500 }]);
    const cases: [string, string][] = [
      [badCrc, `${badCrc} (${NAME}.csv): CRC-32 mismatch (0x${crc32(text).toString(16).padStart(8, '0')} read, 0xdeadbeef listed): the zip is damaged or cut short (an interrupted download?)`],
      [cutGz, `${cutGz}: the gzip data ends early (unexpected end of file): the file is cut short (an interrupted download?)`],
      [cutEntry, `${cutEntry} (${NAME}.csv): cannot inflate the entry (unexpected end of file): the zip is damaged or cut short`],
    ];
    // Into a journal created by the import: removed again.
    const fresh = join(dir, 'fresh.db');
    for (const [file, message] of cases) {
      const r = await run(['import', file, '--journal', fresh]);
      expect(r.code, file).toBe(2);
      expect(r.err).toBe(`error: ${message}\nnothing was imported`);
      expect(existsSync(fresh)).toBe(false);
      const dry = await run(['import', file, '--journal', fresh, '--dry-run']);
      expect(dry.code).toBe(2);
      expect(dry.err).toBe(`error: ${message}\nnothing was imported`);
    }
    // Into a journal holding bars: left byte for byte as it was, with small batches written before the failure.
    const journal = join(dir, 'j.db');
    await run(['import', write('ETHUSDT-1m.csv', csv(300)), '--journal', journal]);
    const before = readFileSync(journal);
    const held = stored(journal);
    for (const [file, message] of cases) {
      const out: string[] = [];
      const io: CliIo = { env: {}, out: (t) => out.push(t), err: () => {} };
      await expect(runImport(io, { file, journal }, { batchSize: 500 })).rejects.toThrow(`${message}\nnothing was imported`);
      expect(stored(journal)).toEqual(held);
      expect(out).toEqual([]);
    }
    expect(readFileSync(journal).equals(before)).toBe(true);
  });

  it("a bad row names the line inside the archive: in X.zip (X.csv), and in X.csv.gz", async () => {
    const text = csv(50, { 3: BAD_ROW });
    const journal = join(dir, 'j.db');
    const inZip = zip(`${NAME}.zip`, [{ name: `${NAME}.csv`, data: text }]);
    let r = await run(['import', inZip, '--journal', journal]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: ${inZip} (${NAME}.csv):5: high 1.0 is below open 1.5\nnothing was imported`);
    const inGz = write(`${NAME}.csv.gz`, gzipSync(text));
    r = await run(['import', inGz, '--journal', journal]);
    expect(r.err).toBe(`error: ${inGz}:5: high 1.0 is below open 1.5\nnothing was imported`);
    expect(existsSync(journal)).toBe(false);
  });

  it('--dry-run checks a zip against the journal the same way, writing nothing', async () => {
    const journal = join(dir, 'j.db');
    const text = csv(100);
    await run(['import', write(`${NAME}.csv`, csv(60)), '--journal', journal]);
    const before = readFileSync(journal);
    const file = zip(`${NAME}.zip`, [{ name: `${NAME}.csv`, data: text }]);
    const r = await run(['import', file, '--journal', journal, '--dry-run']);
    expect(r.err).toBe('');
    expect(r.out).toMatch(new RegExp(`^Checked BTCUSDT 1m in .*${NAME}\\.zip \\(${NAME}\\.csv\\) against .*j\\.db \\(dry run, nothing written\\)`));
    expect(r.out).toMatch(/stored +59 already stored, identical \(left as they are\); 40 new/);
    expect(readFileSync(journal).equals(before)).toBe(true);
    const real = await run(['import', file, '--journal', journal]);
    expect(real.out).toMatch(/stored +59 already stored, identical \(left as they are\); 40 new/);
  });
});

const SAMPLES = fileURLToPath(new URL('../../../../../shared/data/klines/', import.meta.url));
const LINK = join(SAMPLES, 'owlacar-dotcom-isda/LINKUSDT-1m-2026-02.csv');
const haveLink = existsSync(LINK);

describe.skipIf(!haveLink)(`the real LINKUSDT-1m-2026-02.csv zipped and gzipped (${haveLink ? 'present' : `skipped: ${LINK} is absent`})`, () => {
  it('imports the same 40,320 bars as the plain file', async () => {
    const text = readFileSync(LINK);
    const plain = join(dir, 'plain.db');
    expect((await run(['import', LINK, '--journal', plain])).code).toBe(0);
    const want = stored(plain);
    expect(want.count).toBe(40_320);
    const zipped = zip('LINKUSDT-1m-2026-02.zip', [{ name: 'LINKUSDT-1m-2026-02.csv', data: text }]);
    const gz = write('LINKUSDT-1m-2026-02.csv.gz', gzipSync(text));
    for (const file of [zipped, gz]) {
      const journal = join(dir, `${file.endsWith('.zip') ? 'zip' : 'gz'}.db`);
      const r = await run(['import', file, '--journal', journal]);
      expect(r.err).toBe('');
      expect(r.out).toMatch(/rows +40320 read, 40320 bars/);
      expect(r.out).toMatch(/journal +LINKUSDT 1m now holds 40320 bars, 2026-02-01T00:00Z \.\. 2026-02-28T23:59Z/);
      const got = stored(journal);
      expect(got.count).toBe(40_320);
      expect(got.klines === want.klines, file).toBe(true);
      expect(got.blocks === want.blocks, file).toBe(true);
    }
  });
});
