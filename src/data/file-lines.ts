/**
 * A text file's lines, read a chunk at a time: what `text.split('\n')` of the whole file gives
 * (the same lines, a trailing '\r' left on, the piece after the last '\n' last, '' when the file
 * ends with one), without ever holding the file. UTF-8, a character split across two chunks
 * kept whole. Synchronous, so a reader can run inside a SQLite transaction (better-sqlite3's are
 * synchronous) and write as it reads.
 *
 * `chunkLines` splits any synchronous source of bytes the same way: a compressed file's
 * decompressed chunks (kline-file-source.ts) are read by the same code as a plain file's.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1 << 16;

export function fileLines(path: string, chunkBytes = CHUNK_BYTES): Generator<string, void, undefined> {
  return chunkLines(fileChunks(path, { chunkBytes }));
}

/** The lines of the text whose UTF-8 bytes `chunks` hands out in order (each chunk used before the next is asked for). */
export function* chunkLines(chunks: Iterable<Uint8Array>): Generator<string, void, undefined> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    for (let i = 0; i < lines.length; i++) yield lines[i]!;
  }
  yield rest + decoder.end();
}

/**
 * The bytes of a file, `chunkBytes` at a time, from `start` (default 0) for `length` bytes (default
 * to the end; a file ending sooner ends the chunks sooner). The chunk handed out is a view of one
 * reused buffer: valid until the next is asked for. The file is closed when the reader stops.
 */
export function* fileChunks(path: string, range: { start?: number; length?: number; chunkBytes?: number } = {}): Generator<Buffer, void, undefined> {
  const chunkBytes = range.chunkBytes ?? CHUNK_BYTES;
  let position = range.start ?? 0;
  let left = range.length ?? Infinity;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    while (left > 0) {
      const n = readSync(fd, buffer, 0, Math.min(chunkBytes, left), position);
      if (n === 0) break;
      position += n;
      left -= n;
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
