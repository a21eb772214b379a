/**
 * A text file's lines, read a chunk at a time: what `text.split('\n')` of the whole file gives
 * (the same lines, a trailing '\r' left on, the piece after the last '\n' last, '' when the file
 * ends with one), without ever holding the file. UTF-8, a character split across two chunks
 * kept whole. Synchronous, so a reader can run inside a SQLite transaction (better-sqlite3's are
 * synchronous) and write as it reads; a reader that must stay responsive (to signals: `halyard
 * import`) pauses between lines (data/read-steps.ts).
 *
 * `chunkLines` splits any synchronous source of bytes the same way: a compressed file's
 * decompressed chunks (kline-file-source.ts) are read by the same code as a plain file's.
 *
 * Linear in the text, however long its lines: each chunk is split once, and a line that runs
 * across chunks is kept as its pieces, joined once when its end arrives (joining the rest to each
 * new chunk and splitting again made a line of n chunks cost n^2/2 chunks: a 60 MiB line took
 * 28 s, issue 24). With `maxLine`, a line longer than that throws LineTooLongError as soon as
 * its first maxLine + 1 characters are read, so no more than that and one chunk is ever held.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1 << 16;

export interface LineLimits {
  /** The longest line allowed, in UTF-16 code units (a UTF-8 line has at least as many bytes). Default none. */
  maxLine?: number;
}

/** A line longer than LineLimits.maxLine: its number (1-based) and the limit. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxLine: number,
  ) {
    super(`line ${line} is longer than ${maxLine} characters`);
    this.name = 'LineTooLongError';
  }
}

export function fileLines(path: string, chunkBytes = CHUNK_BYTES, limits: LineLimits = {}): Generator<string, void, undefined> {
  return chunkLines(fileChunks(path, { chunkBytes }), limits);
}

/** The lines of the text whose UTF-8 bytes `chunks` hands out in order (each chunk used before the next is asked for). */
export function* chunkLines(chunks: Iterable<Uint8Array>, limits: LineLimits = {}): Generator<string, void, undefined> {
  const max = limits.maxLine ?? Infinity;
  const decoder = new StringDecoder('utf8');
  /** The start of the line the chunks so far ended inside, in pieces, and its length. */
  let pieces: string[] = [];
  let held = 0;
  /** Lines handed out. */
  let line = 0;
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const lines = decoder.write(chunk).split('\n');
    if (lines.length === 1) {
      // No newline: the line goes on (kept as a piece, not joined yet).
      pieces.push(lines[0]!);
      held += lines[0]!.length;
      if (held > max) throw new LineTooLongError(line + 1, max);
      continue;
    }
    if (held > 0) lines[0] = pieces.join('') + lines[0]!;
    const last = lines.length - 1;
    for (let i = 0; i < last; i++) {
      const l = lines[i]!;
      line++;
      if (l.length > max) throw new LineTooLongError(line, max);
      yield l;
    }
    const rest = lines[last]!;
    pieces = [rest];
    held = rest.length;
    if (held > max) throw new LineTooLongError(line + 1, max);
  }
  const rest = pieces.join('') + decoder.end();
  if (rest.length > max) throw new LineTooLongError(line + 1, max);
  yield rest;
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
