import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InflateError, inflatedChunks } from './inflated-chunks.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-inflated-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** About 4 MB: many 64 KB chunks, more than the worker may have untaken at once. */
const DATA = Buffer.from(Array.from({ length: 100_000 }, (_, i) => `${1709251200000 + i * 60_000},${i % 1000}.5,2.0,0.5,1.5,${(i * 7919) % 100_003}\n`).join(''));

function inflateError(fn: () => unknown): InflateError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InflateError);
    return e as InflateError;
  }
  throw new Error('expected an InflateError');
}

/** The threads of this process (Linux), to see that a worker is gone. */
const threads = () => readdirSync('/proc/self/task').length;

describe('inflatedChunks', () => {
  it('gunzips a whole file, and raw-inflates a byte range of one, chunk by chunk, each chunk the caller\'s to keep', () => {
    writeFileSync(join(dir, 'a.gz'), gzipSync(DATA));
    const chunks = [...inflatedChunks(join(dir, 'a.gz'), 'gunzip')];
    expect(chunks.length).toBeGreaterThan(8);
    expect(Buffer.concat(chunks).equals(DATA)).toBe(true);

    const raw = deflateRawSync(DATA);
    writeFileSync(join(dir, 'a.bin'), Buffer.concat([Buffer.from('local header'), raw, Buffer.from('central directory')]));
    expect(Buffer.concat([...inflatedChunks(join(dir, 'a.bin'), 'inflate-raw', { start: 12, length: raw.length })]).equals(DATA)).toBe(true);
  });

  it('gunzips a file of several gzip members (concatenated .gz files) whole', () => {
    writeFileSync(join(dir, 'm.gz'), Buffer.concat([gzipSync(DATA.subarray(0, 1000)), gzipSync(DATA.subarray(1000))]));
    expect(Buffer.concat([...inflatedChunks(join(dir, 'm.gz'), 'gunzip')]).equals(DATA)).toBe(true);
  });

  it("throws zlib's error at the read that reaches it: a stream cut short, not gzip, a bad gzip check; and a file that cannot be read", () => {
    const gz = gzipSync(DATA);
    writeFileSync(join(dir, 'cut.gz'), gz.subarray(0, gz.length - 1000));
    let before = 0;
    const cut = inflateError(() => {
      for (const c of inflatedChunks(join(dir, 'cut.gz'), 'gunzip')) before += c.length;
    });
    expect(cut).toMatchObject({ message: 'unexpected end of file', code: 'Z_BUF_ERROR' });
    expect(before).toBeGreaterThan(DATA.length / 2);

    writeFileSync(join(dir, 'plain.gz'), DATA);
    expect(inflateError(() => [...inflatedChunks(join(dir, 'plain.gz'), 'gunzip')])).toMatchObject({ message: 'incorrect header check', code: 'Z_DATA_ERROR' });
    const bad = Buffer.from(gz);
    bad.writeUInt32LE((bad.readUInt32LE(bad.length - 8) ^ 1) >>> 0, bad.length - 8); // the CRC-32 in the gzip trailer
    writeFileSync(join(dir, 'bad.gz'), bad);
    expect(inflateError(() => [...inflatedChunks(join(dir, 'bad.gz'), 'gunzip')])).toMatchObject({ message: 'incorrect data check', code: 'Z_DATA_ERROR' });
    expect(inflateError(() => [...inflatedChunks(join(dir, 'missing.gz'), 'gunzip')])).toMatchObject({ code: 'ENOENT' });
    expect(inflateError(() => [...inflatedChunks(join(dir, 'plain.gz'), 'inflate-raw', { start: 0, length: 0 })])).toMatchObject({ message: 'unexpected end of file' });
  });

  it.skipIf(!existsSync('/proc/self/task'))('a reader that stops early (a bad CSV row) ends the worker thread', async () => {
    writeFileSync(join(dir, 'a.gz'), gzipSync(DATA));
    /** The thread count once it drops to `want` (or after 2 s). */
    const settle = async (want: number) => {
      for (let i = 0; i < 100 && threads() > want; i++) await sleep(20);
      return threads();
    };
    /** The thread count once two readings 100 ms apart agree. */
    const steady = async () => {
      for (let last = threads(); ; ) {
        await sleep(100);
        const now = threads();
        if (now === last) return now;
        last = now;
      }
    };
    const once = () => {
      for (const _ of inflatedChunks(join(dir, 'a.gz'), 'gunzip')) break;
    };
    once(); // the first worker starts the thread pools a worker needs; count after it
    const base = await steady();
    for (let i = 0; i < 3; i++) once();
    expect(await settle(base)).toBe(base);
  });
});
