/**
 * A text file's lines, read a chunk at a time: what `text.split('\n')` of the whole file gives
 * (the same lines, a trailing '\r' left on, the piece after the last '\n' last, '' when the file
 * ends with one), without ever holding the file. UTF-8, a character split across two chunks
 * kept whole. Synchronous, so a reader can run inside a SQLite transaction (better-sqlite3's are
 * synchronous) and write as it reads.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1 << 16;

export function* fileLines(path: string, chunkBytes = CHUNK_BYTES): Generator<string, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (;;) {
      const n = readSync(fd, buffer, 0, chunkBytes, null);
      if (n === 0) break;
      const lines = (rest + decoder.write(buffer.subarray(0, n))).split('\n');
      rest = lines.pop()!;
      for (let i = 0; i < lines.length; i++) yield lines[i]!;
    }
    yield rest + decoder.end();
  } finally {
    closeSync(fd);
  }
}
