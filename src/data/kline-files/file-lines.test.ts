import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkLines, fileChunks, fileLines, type LineTooLongError } from './file-lines.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-file-lines-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('fileLines', () => {
  it("gives the lines of text.split('\\n') for any chunk size: CRLF kept, multi-byte characters split across chunks kept whole, the piece after the last newline last", () => {
    const texts = [
      '',
      '\n',
      'a',
      'a\n',
      'a\r\nb\r\n',
      '\ufeffopen_time,open\n1,2\n\n3,4',
      'µs,€,𝄞\nline two ü\n'.repeat(5),
      Array.from({ length: 300 }, (_, i) => `${i},${'9'.repeat(i % 17)}.5`).join('\n') + '\n',
    ];
    for (const text of texts) {
      const file = join(dir, 'f.csv');
      writeFileSync(file, text);
      for (const chunk of [1, 2, 3, 5, 64, 1 << 16]) expect([...fileLines(file, chunk)], `${JSON.stringify(text.slice(0, 20))} in chunks of ${chunk}`).toEqual(text.split('\n'));
    }
  });

  it('closes the file when the reader stops early, and throws the read error of a missing file', () => {
    const file = join(dir, 'f.csv');
    writeFileSync(file, 'a\nb\nc\n');
    const open = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
    const before = open();
    for (const line of fileLines(file, 1)) if (line === 'b') break;
    expect(open()).toBe(before);
    rmSync(file);
    expect(() => [...fileLines(file)]).toThrow(/ENOENT/);
  });

  it('fileChunks reads a byte range (a zip entry\'s data), stopping at the end of the file; chunkLines splits any chunks as fileLines does', () => {
    const file = join(dir, 'f.bin');
    writeFileSync(file, 'HEADERa,b\nc,d\nTRAILER');
    const read = (range: Parameters<typeof fileChunks>[1]) => {
      const copies: Buffer[] = [];
      for (const c of fileChunks(file, range)) copies.push(Buffer.from(c));
      return Buffer.concat(copies).toString();
    };
    expect(read({ start: 6, length: 8, chunkBytes: 3 })).toBe('a,b\nc,d\n');
    expect(read({ start: 6, length: 0 })).toBe('');
    expect(read({ start: 14, length: 1000, chunkBytes: 2 })).toBe('TRAILER');
    expect(read({})).toBe('HEADERa,b\nc,d\nTRAILER');
    const euro = Buffer.from('a€\nb\n');
    expect([...chunkLines([euro.subarray(0, 2), euro.subarray(2, 3), Buffer.alloc(0), euro.subarray(3)])]).toEqual(['a€', 'b', '']);
  });

  it('with maxLine, a longer line throws LineTooLongError naming it as soon as it is too long, whether it ends in a chunk, runs across chunks or ends the text', () => {
    const caught = (chunks: Iterable<Uint8Array>, maxLine: number) => {
      const seen: string[] = [];
      try {
        for (const l of chunkLines(chunks, { maxLine })) seen.push(l);
      } catch (e) {
        return { seen, error: e as LineTooLongError };
      }
      return { seen, error: undefined };
    };
    const text = Buffer.from(`ab\n${'x'.repeat(9)}\ncd\n${'y'.repeat(11)}`);
    for (const size of [1, 2, 3, 4, 7, 64]) {
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.subarray(i * size, (i + 1) * size));
      expect(caught(chunks, 9)).toMatchObject({ seen: ['ab', 'x'.repeat(9), 'cd'], error: { line: 4, maxLine: 9 } });
      expect(caught(chunks, 8)).toMatchObject({ seen: ['ab'], error: { line: 2, maxLine: 8 } });
      expect(caught(chunks, 11).error).toBeUndefined();
    }
    // A source without a newline is read no further than the limit and one chunk past it.
    let handed = 0;
    function* endless(): Generator<Uint8Array> {
      const chunk = Buffer.alloc(1024, 0x31);
      for (;;) {
        handed++;
        yield chunk;
      }
    }
    expect(caught(endless(), 4096)).toMatchObject({ seen: [], error: { line: 1 } });
    expect(handed).toBe(5);
  });

  it('is linear in the length of a line that runs across many chunks (it was quadratic: a 16 MiB line took 54 s)', () => {
    // 12 MiB without a newline, read 64 KB at a time: its 192 pieces are joined once, about a second
    // on a loaded machine; re-splitting the growing line at each chunk took about half a minute.
    const file = join(dir, 'long.csv');
    writeFileSync(file, Buffer.concat([Buffer.alloc(12 << 20, 0x31), Buffer.from('\nz')]));
    const start = performance.now();
    const lines = [...fileLines(file)].map((l) => l.length);
    expect(lines).toEqual([12 << 20, 1]);
    expect(performance.now() - start).toBeLessThan(5000);
  });
});
