import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZipError, zipCsvEntry, zipEntryChunks } from './zip-entry.ts';
import { zipFixture, type ZipFixtureEntry, type ZipFixtureOptions } from './zip-test-support.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-zip-entry-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Enough text that deflate makes several output chunks of the worker's 64 KB. */
const TEXT = Array.from({ length: 20_000 }, (_, i) => `${1709251200000 + i * 60_000},61130.99,61197.66,61126.0,61196.0,${i % 97}.125`).join('\n') + '\n';
const NAME = 'BTCUSDT-1m-2024-03.csv';

function zip(entries: ZipFixtureEntry[], options: ZipFixtureOptions = {}, file = 'BTCUSDT-1m-2024-03.zip'): string {
  const path = join(dir, file);
  writeFileSync(path, zipFixture(entries, options));
  return path;
}

/** The entry's bytes, read through zipEntryChunks (each chunk copied before the next is asked for). */
function read(path: string): Buffer {
  const copies: Buffer[] = [];
  for (const chunk of zipEntryChunks(zipCsvEntry(path))) copies.push(Buffer.from(chunk));
  return Buffer.concat(copies);
}

/** The ZipError `fn` throws. */
function zipError(fn: () => unknown): ZipError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ZipError);
    return e as ZipError;
  }
  throw new Error('expected a ZipError');
}

describe('zipCsvEntry / zipEntryChunks', () => {
  it('reads a deflated and a stored entry back byte for byte, its CRC-32 and size checked', () => {
    for (const method of [8, 0]) {
      const path = zip([{ name: NAME, data: TEXT, method }]);
      const entry = zipCsvEntry(path);
      expect(entry).toMatchObject({ zip: path, name: NAME, label: `${path} (${NAME})`, method, uncompressedSize: Buffer.byteLength(TEXT), crc32: crc32(TEXT) });
      expect(read(path).toString()).toBe(TEXT);
    }
  });

  it('finds the end record behind a comment, and the data behind a local extra field the central directory does not have', () => {
    const path = zip([{ name: NAME, data: TEXT, localExtra: Buffer.alloc(28, 0x55) }], { comment: 'Binance public data PK\x05\x06 not a record'.padEnd(300, '.') });
    expect(read(path).toString()).toBe(TEXT);
    // The longest comment the format allows.
    const long = zip([{ name: NAME, data: 'a,b\n', method: 0 }], { comment: 'c'.repeat(0xffff) });
    expect(read(long).toString()).toBe('a,b\n');
  });

  it('takes the sizes and CRC-32 from the central directory when a data descriptor follows the data (local header zeros)', () => {
    const path = zip([{ name: NAME, data: TEXT, flags: 0x08 }]);
    expect(read(path).toString()).toBe(TEXT);
  });

  it('reads an archive with bytes before it (a self-extracting stub): offsets are shifted by them', () => {
    const path = zip([{ name: 'README.txt', data: 'hello' }, { name: NAME, data: TEXT }], { prefix: Buffer.alloc(1000, 0x90) });
    expect(read(path).toString()).toBe(TEXT);
  });

  it('picks the one .csv (any case) among directories, __MACOSX copies and other files', () => {
    const path = zip([
      { name: 'data/' },
      { name: 'data/readme.txt', data: 'x' },
      { name: '__MACOSX/data/._BTCUSDT-1m-2024-03.CSV', data: 'resource fork' },
      { name: 'data/BTCUSDT-1m-2024-03.CSV', data: TEXT },
    ]);
    expect(zipCsvEntry(path).name).toBe('data/BTCUSDT-1m-2024-03.CSV');
    expect(read(path).toString()).toBe(TEXT);
  });

  it('none or several CSVs: an error naming the entries', () => {
    const none = zip([{ name: 'a.txt', data: 'x' }, { name: 'b.json', data: '{}' }]);
    expect(zipError(() => zipCsvEntry(none)).message).toBe(`${none}: no .csv file in the zip (it holds a.txt, b.json); a kline zip holds one .csv file`);
    const empty = zip([{ name: 'dir/' }]);
    expect(zipError(() => zipCsvEntry(empty)).message).toBe(`${empty}: the zip holds no file (a kline zip holds one .csv file)`);
    const two = zip([{ name: NAME, data: TEXT }, { name: 'ETHUSDT-1m-2024-03.csv', data: TEXT }, { name: '__MACOSX/._x.csv', data: 'x' }]);
    expect(zipError(() => zipCsvEntry(two)).message).toBe(
      `${two}: 2 .csv files in the zip (BTCUSDT-1m-2024-03.csv, ETHUSDT-1m-2024-03.csv): import holds one series a file; unzip it and import them one by one`,
    );
  });

  it('refuses what it does not read, naming the reason: encryption, another method, ZIP64, a bad local signature, a split zip', () => {
    const cases: [ZipFixtureEntry, RegExp][] = [
      [{ name: NAME, data: TEXT, flags: 1 }, /\(BTCUSDT-1m-2024-03\.csv\): the entry is encrypted: unzip it with its password first$/],
      [{ name: NAME, data: TEXT, method: 14 }, /: the entry is compressed with method 14 \(LZMA\); only stored \(0\) and deflate \(8\) are read/],
      [{ name: NAME, data: TEXT, method: 93 }, /method 93 \(zstd\)/],
      [{ name: NAME, data: TEXT, method: 77 }, /method 77; only stored/],
      [{ name: NAME, data: TEXT, zip64: true }, /: the entry is in ZIP64 form \(as entries of 4 GB or more are written\), which is not read: unzip it first$/],
      [{ name: NAME, data: TEXT, localSignature: 0x12345678 }, /: no local header signature at offset 0: the zip is damaged$/],
      [{ name: NAME, data: TEXT, method: 0, cut: 10 }, /: the entry is stored but its sizes differ/],
    ];
    for (const [entry, message] of cases) expect(zipError(() => zipCsvEntry(zip([entry]))).message).toMatch(message);

    const split = zipFixture([{ name: NAME, data: TEXT }]);
    split.writeUInt16LE(1, split.length - 22 + 4); // this is disk 1
    writeFileSync(join(dir, 'split.zip'), split);
    expect(zipError(() => zipCsvEntry(join(dir, 'split.zip'))).reason).toMatch(/^a split \(multi-part\) zip/);
    const z64 = zipFixture([{ name: NAME, data: TEXT }]);
    z64.writeUInt32LE(0xffffffff, z64.length - 22 + 16); // the directory's offset, in the ZIP64 record instead
    writeFileSync(join(dir, 'z64.zip'), z64);
    expect(zipError(() => zipCsvEntry(join(dir, 'z64.zip'))).reason).toMatch(/^a ZIP64 archive \(as zips of 4 GB or more, or of 65535 entries or more, are written\), which is not read/);
  });

  it('not a zip, or a zip cut short (no end record): refused when opened', () => {
    const whole = zipFixture([{ name: NAME, data: TEXT }]);
    writeFileSync(join(dir, 'cut.zip'), whole.subarray(0, whole.length >> 1));
    writeFileSync(join(dir, 'text.zip'), TEXT);
    writeFileSync(join(dir, 'empty.zip'), '');
    for (const f of ['cut.zip', 'text.zip', 'empty.zip']) {
      expect(zipError(() => zipCsvEntry(join(dir, f))).message).toBe(`${join(dir, f)}: not a zip file, or cut short: no end-of-central-directory record (a zip ends with one)`);
    }
    expect(() => zipCsvEntry(join(dir, 'missing.zip'))).toThrow(/ENOENT/);
  });

  it('a bad CRC-32, a wrong size or data cut short fail at the end of the stream, after the bytes before it', () => {
    const badCrc = zip([{ name: NAME, data: TEXT, crc: 0x12345678 }]);
    const seen: number[] = [];
    const e = zipError(() => {
      for (const c of zipEntryChunks(zipCsvEntry(badCrc))) seen.push(c.length);
    });
    expect(seen.reduce((a, b) => a + b, 0)).toBe(Buffer.byteLength(TEXT));
    expect(e.message).toBe(`${badCrc} (${NAME}): CRC-32 mismatch (0x${crc32(TEXT).toString(16).padStart(8, '0')} read, 0x12345678 listed): the zip is damaged or cut short (an interrupted download?)`);

    const stored = zip([{ name: NAME, data: TEXT, method: 0, crc: 1 }]);
    expect(zipError(() => read(stored)).reason).toMatch(/^CRC-32 mismatch/);

    const longer = zip([{ name: NAME, data: TEXT, size: Buffer.byteLength(TEXT) + 5 }]);
    expect(zipError(() => read(longer)).reason).toBe(`the entry gave ${Buffer.byteLength(TEXT)} bytes, the zip lists ${Buffer.byteLength(TEXT) + 5}: the zip is cut short or damaged (an interrupted download?)`);
    const shorter = zip([{ name: NAME, data: TEXT, size: 1000 }]);
    expect(zipError(() => read(shorter)).reason).toBe('the data is longer than the 1000 bytes the zip lists: the zip is damaged');

    const cut = zip([{ name: NAME, data: TEXT, cut: 100 }]);
    expect(zipError(() => read(cut)).reason).toBe('cannot inflate the entry (unexpected end of file): the zip is damaged or cut short');
    const garbage = zipFixture([{ name: NAME, data: TEXT }]);
    garbage.fill(0xff, 30 + NAME.length, 30 + NAME.length + 8); // the first deflate block's header
    writeFileSync(join(dir, 'garbage.zip'), garbage);
    expect(zipError(() => read(join(dir, 'garbage.zip'))).reason).toMatch(/^cannot inflate the entry \(invalid .*\): the zip is damaged or cut short$/);
  });

  it('a reader may stop early (the inflating worker is stopped) and read the entry again', async () => {
    const path = zip([{ name: NAME, data: TEXT.repeat(5) }]);
    for (let round = 0; round < 5; round++) {
      let n = 0;
      for (const _ of zipEntryChunks(zipCsvEntry(path))) if (++n === 1) break;
      expect(n).toBe(1);
    }
    expect(read(path).toString()).toBe(TEXT.repeat(5));
  });
});
