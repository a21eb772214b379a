/**
 * The lines of a kline file as it is published: a plain CSV, a gzip'd one (`BTCUSDT-1m.csv.gz`,
 * as many tools write) or a zip holding one CSV (`BTCUSDT-1m-2024-03.zip`, Binance's public data),
 * told apart by the name's extension. Compressed files are decompressed as they are read, never
 * unpacked to disk nor held (zip-entry.ts, inflated-chunks.ts), and their lines are split by the
 * same code as a plain file's (file-lines.ts), so a CSV's line numbers are the same whether it is
 * read plain or compressed.
 *
 * Every failure is a KlineCsvError naming the file (a zip's with its entry: `X.zip (X.csv)`): the
 * zip's directory is read when the source is made (no CSV in it, encryption, an unknown method
 * refuse the file before anything is opened for writing); a damaged or cut short stream (zlib's
 * error, a zip entry's size or CRC-32) fails at the read that reaches it, and a line longer than a
 * kline row can be (MAX_LINE_BYTES) fails as soon as it is, naming its line.
 */
import { basename } from 'node:path';
import { CHUNK_BYTES, chunkLines, fileLines, LineTooLongError } from './file-lines.ts';
import { InflateError, inflatedChunks } from './inflated-chunks.ts';
import { KlineCsvError } from './kline-csv-error.ts';
import { LONG_LINE_REASON, MAX_LINE_BYTES } from './kline-csv-layout.ts';
import { ZipError, zipCsvEntry, zipEntryChunks, type ZipEntry } from './zip-entry.ts';

export interface KlineFileSource {
  /** The file as messages name it: its path, or for a zip `path/X.zip (X.csv)`. */
  readonly label: string;
  /** Its name without the folder (the journal's `csv:<name>` source): `X.csv.gz`, `X.zip (X.csv)`. */
  readonly name: string;
  /** Names the symbol and the interval are read from, the first that tells (a zip's entry, then the zip). */
  readonly seriesNames: readonly string[];
  /** The file's lines, read afresh on each call (a file whose interval comes from its spacing is read twice). */
  lines(): Generator<string, void, undefined>;
}

/** A kline row is short (kline-csv-layout.ts): a longer line fails there, never read whole. */
const LINE_LIMITS = { maxLine: MAX_LINE_BYTES };

export type KlineFileKind = 'csv' | 'gzip' | 'zip';

export function klineFileKind(path: string): KlineFileKind {
  if (/\.zip$/i.test(path)) return 'zip';
  if (/\.gz$/i.test(path)) return 'gzip';
  return 'csv';
}

/** Throws KlineCsvError for a zip that cannot be read or holds no single CSV. */
export function klineFileSource(path: string): KlineFileSource {
  const kind = klineFileKind(path);
  if (kind === 'zip') return zipSource(path);
  return {
    label: path,
    name: basename(path),
    seriesNames: [path],
    lines: () => readErrors(path, kind === 'gzip' ? chunkLines(inflatedChunks(path, 'gunzip'), LINE_LIMITS) : fileLines(path, CHUNK_BYTES, LINE_LIMITS)),
  };
}

function zipSource(path: string): KlineFileSource {
  let entry: ZipEntry;
  try {
    entry = zipCsvEntry(path);
  } catch (e) {
    if (e instanceof ZipError) throw new KlineCsvError(e.file, undefined, e.reason);
    throw new KlineCsvError(path, undefined, `cannot read the file: ${(e as Error).message}`);
  }
  return {
    label: entry.label,
    name: `${basename(path)} (${entry.name})`,
    seriesNames: [entry.name, path],
    lines: () => readErrors(entry.label, chunkLines(zipEntryChunks(entry), LINE_LIMITS)),
  };
}

/** `lines`, its read and decompression errors as KlineCsvError naming `label`. */
function* readErrors(label: string, lines: Generator<string, void, undefined>): Generator<string, void, undefined> {
  try {
    yield* lines;
  } catch (e) {
    if (e instanceof KlineCsvError) throw e;
    if (e instanceof LineTooLongError) throw new KlineCsvError(label, e.line, LONG_LINE_REASON);
    if (e instanceof ZipError) throw new KlineCsvError(e.file, undefined, e.reason);
    if (e instanceof InflateError && e.code?.startsWith('Z_')) {
      throw new KlineCsvError(
        label,
        undefined,
        e.code === 'Z_BUF_ERROR'
          ? `the gzip data ends early (${e.message}): the file is cut short (an interrupted download?)`
          : `cannot decompress (${e.message}): the file is not gzip data, or is damaged`,
      );
    }
    throw new KlineCsvError(label, undefined, `cannot read the file: ${(e as Error).message}`);
  }
}
