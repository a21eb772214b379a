import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileLines } from './file-lines.ts';

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
});
