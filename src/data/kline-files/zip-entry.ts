/**
 * The one CSV file inside a zip (Binance's public data ships each month as `BTCUSDT-1m-2024-03.zip`
 * holding `BTCUSDT-1m-2024-03.csv`), found and streamed without unpacking the zip or holding it.
 *
 * A minimal reader of the format (PKWARE APPNOTE 4.3), careful about what it does not read:
 * - the end-of-central-directory record is searched back from the end (a comment of up to 64 KB
 *   may follow it); a file without one is not a zip, or was cut short;
 * - the central directory lists the entries; directories and macOS's `__MACOSX/` copies are
 *   ignored, and exactly one entry ending in `.csv` (any case) must remain: none or several is an
 *   error naming the entries;
 * - the entry's data starts after its local header, whose own name and extra-field lengths are
 *   used (they may differ from the central directory's); its sizes and CRC-32 are the central
 *   directory's (the local header's are zero when a data descriptor follows the data);
 * - stored (method 0) data is read as is, deflate (8) through zlib's raw inflate; any other
 *   method, an encrypted entry, ZIP64 (sizes or offsets 0xFFFFFFFF), a split archive or a bad
 *   signature is refused with the reason, never guessed at;
 * - the uncompressed size and the CRC-32 are checked as the data streams: a truncated or damaged
 *   download fails at its end (a transaction reading it rolls back) instead of importing part.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { fileChunks } from './file-lines.ts';
import { InflateError, inflatedChunks } from './inflated-chunks.ts';

/** Why a zip cannot be read; `file` names the zip, and the entry once one is chosen ("X.zip (X.csv)"). */
export class ZipError extends Error {
  readonly file: string;
  readonly reason: string;
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'ZipError';
    this.file = file;
    this.reason = reason;
  }
}

/** The CSV entry of a zip, located and checked, its data not read yet. */
export interface ZipEntry {
  /** The zip file. */
  readonly zip: string;
  /** The entry's name inside the zip (may hold folders: `klines/BTCUSDT-1m-2024-03.csv`). */
  readonly name: string;
  /** The zip and the entry, for messages: `path/BTCUSDT-1m-2024-03.zip (BTCUSDT-1m-2024-03.csv)`. */
  readonly label: string;
  readonly method: 0 | 8;
  /** Offset of the entry's data in the zip file. */
  readonly dataStart: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly crc32: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const MAX_COMMENT = 0xffff;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_BYTES = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_BYTES = 30;
const SATURATED_32 = 0xffffffff;
const SATURATED_16 = 0xffff;
const ENTRIES_NAMED = 10;

/** Methods seen in the wild, named in the refusal. */
const METHOD_NAMES: Record<number, string> = { 1: 'shrink', 6: 'implode', 9: 'deflate64', 12: 'bzip2', 14: 'LZMA', 93: 'zstd', 95: 'xz', 98: 'PPMd', 99: 'AES encryption' };

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/** The zip's one CSV entry. Throws ZipError (or the file system's error when the zip cannot be opened). */
export function zipCsvEntry(zip: string): ZipEntry {
  const fd = openSync(zip, 'r');
  try {
    const size = fstatSync(fd).size;
    const { entries, base, directoryStart } = centralDirectory(fd, size, zip);
    const entry = chooseCsv(entries, zip);
    const label = `${zip} (${shortName(entry.name)})`;
    const fail = (reason: string): never => {
      throw new ZipError(label, reason);
    };
    if ((entry.flags & 1) !== 0) fail('the entry is encrypted: unzip it with its password first');
    if (entry.method !== 0 && entry.method !== 8) {
      const known = METHOD_NAMES[entry.method];
      fail(`the entry is compressed with method ${entry.method}${known ? ` (${known})` : ''}; only stored (0) and deflate (8) are read: unzip it, or zip it again with deflate`);
    }
    if (entry.compressedSize === SATURATED_32 || entry.uncompressedSize === SATURATED_32 || entry.localOffset === SATURATED_32) {
      fail('the entry is in ZIP64 form (as entries of 4 GB or more are written), which is not read: unzip it first');
    }
    if (entry.method === 0 && entry.compressedSize !== entry.uncompressedSize) {
      fail(`the entry is stored but its sizes differ (${entry.compressedSize} bytes stored, ${entry.uncompressedSize} uncompressed): the zip is damaged`);
    }
    const at = base + entry.localOffset;
    const local = readAt(fd, at, LOCAL_BYTES);
    if (local.length < LOCAL_BYTES || local.readUInt32LE(0) !== LOCAL_SIGNATURE) fail(`no local header signature at offset ${at}: the zip is damaged`);
    const dataStart = at + LOCAL_BYTES + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (dataStart + entry.compressedSize > directoryStart) {
      fail(`the entry's ${entry.compressedSize} bytes of data run past the central directory (offset ${directoryStart}): the zip is damaged`);
    }
    return {
      zip,
      name: entry.name,
      label,
      method: entry.method as 0 | 8,
      dataStart,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      crc32: entry.crc32,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The entry's uncompressed bytes, a chunk at a time (each valid until the next is asked for). The
 * size and the CRC-32 are checked as they stream: a mismatch throws ZipError, after the bytes
 * before it were handed out (the reader's transaction rolls back).
 */
export function* zipEntryChunks(entry: ZipEntry): Generator<Uint8Array, void, undefined> {
  const fail = (reason: string): never => {
    throw new ZipError(entry.label, reason);
  };
  const range = { start: entry.dataStart, length: entry.compressedSize };
  const chunks = entry.method === 0 ? fileChunks(entry.zip, range) : inflatedChunks(entry.zip, 'inflate-raw', range);
  let size = 0;
  let crc = 0;
  try {
    for (const chunk of chunks) {
      size += chunk.length;
      if (size > entry.uncompressedSize) fail(`the data is longer than the ${entry.uncompressedSize} bytes the zip lists: the zip is damaged`);
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } catch (e) {
    if (e instanceof InflateError) fail(`cannot inflate the entry (${e.message}): the zip is damaged or cut short`);
    throw e;
  }
  if (size !== entry.uncompressedSize) fail(`the entry gave ${size} bytes, the zip lists ${entry.uncompressedSize}: the zip is cut short or damaged (an interrupted download?)`);
  if (crc !== entry.crc32) fail(`CRC-32 mismatch (${hex(crc)} read, ${hex(entry.crc32)} listed): the zip is damaged or cut short (an interrupted download?)`);
}

/** Characters of an entry's name shown in messages (a name may have up to 65535 bytes). */
const NAME_SHOWN = 200;

/** An entry's name for a message: whole, or its first NAME_SHOWN characters. */
function shortName(name: string): string {
  return name.length <= NAME_SHOWN ? name : `${name.slice(0, NAME_SHOWN)}... (${name.length} characters)`;
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/**
 * The central directory's entries. `base` is what the offsets it lists are shifted by: 0 for a
 * plain zip, the length of whatever precedes the archive (a self-extracting stub) otherwise.
 */
function centralDirectory(fd: number, size: number, zip: string): { entries: CentralEntry[]; base: number; directoryStart: number } {
  const fail = (reason: string): never => {
    throw new ZipError(zip, reason);
  };
  const tailStart = Math.max(0, size - EOCD_BYTES - MAX_COMMENT);
  const tail = readAt(fd, tailStart, size - tailStart);
  const at = findEocd(tail);
  if (at === undefined) throw new ZipError(zip, 'not a zip file, or cut short: no end-of-central-directory record (a zip ends with one)');
  const eocd = tail.subarray(at, at + EOCD_BYTES);
  const eocdOffset = tailStart + at;
  const disk = eocd.readUInt16LE(4);
  const directoryDisk = eocd.readUInt16LE(6);
  const onDisk = eocd.readUInt16LE(8);
  const count = eocd.readUInt16LE(10);
  const directorySize = eocd.readUInt32LE(12);
  const directoryOffset = eocd.readUInt32LE(16);
  if (count === SATURATED_16 || onDisk === SATURATED_16 || directorySize === SATURATED_32 || directoryOffset === SATURATED_32) {
    fail('a ZIP64 archive (as zips of 4 GB or more, or of 65535 entries or more, are written), which is not read: unzip it first');
  }
  if (disk !== 0 || directoryDisk !== 0 || onDisk !== count) fail('a split (multi-part) zip, which is not read: join the parts, or unzip it first');
  const directoryStart = eocdOffset - directorySize;
  const base = directoryStart - directoryOffset;
  if (base < 0) fail(`the central directory (${directorySize} bytes at offset ${directoryOffset}) overlaps its end record: the zip is damaged or cut short`);
  const directory = readAt(fd, directoryStart, directorySize);

  const entries: CentralEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + CENTRAL_BYTES > directory.length || directory.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
      fail(`bad central directory: no entry signature at offset ${directoryStart + p} (entry ${i + 1} of ${count}): the zip is damaged`);
    }
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const next = p + CENTRAL_BYTES + nameLength + extraLength + commentLength;
    if (next > directory.length) fail(`bad central directory: entry ${i + 1} of ${count} runs past its end: the zip is damaged`);
    entries.push({
      // Bit 11 says UTF-8; zips without it are UTF-8 in practice too (or plain ASCII, the same).
      name: directory.toString('utf8', p + CENTRAL_BYTES, p + CENTRAL_BYTES + nameLength),
      flags: directory.readUInt16LE(p + 8),
      method: directory.readUInt16LE(p + 10),
      crc32: directory.readUInt32LE(p + 16),
      compressedSize: directory.readUInt32LE(p + 20),
      uncompressedSize: directory.readUInt32LE(p + 24),
      localOffset: directory.readUInt32LE(p + 42),
    });
    p = next;
  }
  return { entries, base, directoryStart };
}

/**
 * Where the end-of-central-directory record starts in `tail` (the file's last bytes): the last
 * signature whose comment ends the file, else (bytes after the comment) the last whose record fits.
 */
function findEocd(tail: Buffer): number | undefined {
  let fits: number | undefined;
  for (let i = tail.length - EOCD_BYTES; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const end = i + EOCD_BYTES + tail.readUInt16LE(i + 20);
    if (end === tail.length) return i;
    if (end < tail.length && fits === undefined) fits = i;
  }
  return fits;
}

/** The one CSV among the entries (directories and `__MACOSX/` ignored). */
function chooseCsv(entries: readonly CentralEntry[], zip: string): CentralEntry {
  const files = entries.filter((e) => !e.name.endsWith('/') && !/(^|\/)__MACOSX\//.test(e.name));
  const csvs = files.filter((e) => /\.csv$/i.test(e.name));
  if (csvs.length === 1) return csvs[0]!;
  const named = (list: readonly CentralEntry[]) =>
    list
      .slice(0, ENTRIES_NAMED)
      .map((e) => shortName(e.name))
      .join(', ') + (list.length > ENTRIES_NAMED ? `, ... and ${list.length - ENTRIES_NAMED} more` : '');
  if (csvs.length === 0) {
    throw new ZipError(zip, files.length === 0 ? 'the zip holds no file (a kline zip holds one .csv file)' : `no .csv file in the zip (it holds ${named(files)}); a kline zip holds one .csv file`);
  }
  throw new ZipError(zip, `${csvs.length} .csv files in the zip (${named(csvs)}): import holds one series a file; unzip it and import them one by one`);
}
