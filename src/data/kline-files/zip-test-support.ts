/**
 * For the tests of zip-entry.ts and of importing zips: writes a zip the way the format lays it out
 * (PKWARE APPNOTE 4.3: local header and data per entry, then the central directory, then the
 * end-of-central-directory record), with knobs for what real zips vary in and what damaged ones
 * get wrong. Not part of the public surface.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipFixtureEntry {
  name: string;
  /** The uncompressed bytes (text as UTF-8); none for a directory. */
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default); another number is written as is over deflated data. */
  method?: number;
  /** General purpose flags (bit 0 encrypted, bit 3 data descriptor: the local header's sizes and CRC are 0). */
  flags?: number;
  /** The CRC-32 the directory lists, instead of the data's. */
  crc?: number;
  /** The uncompressed size the directory lists, instead of the data's. */
  size?: number;
  /** Sizes listed as 0xFFFFFFFF (ZIP64 form). */
  zip64?: boolean;
  /** An extra field in the local header only (the central directory's has none), as many zip tools write. */
  localExtra?: Buffer;
  /** The local header's signature, instead of PK\x03\x04. */
  localSignature?: number;
  /** Bytes cut from the end of the compressed data, the compressed size listed following (a damaged copy). */
  cut?: number;
}

export interface ZipFixtureOptions {
  /** The archive comment after the end record. */
  comment?: string;
  /** Bytes before the archive (a self-extracting stub). */
  prefix?: Buffer;
}

export function zipFixture(entries: readonly ZipFixtureEntry[], options: ZipFixtureOptions = {}): Buffer {
  const prefix = options.prefix ?? Buffer.alloc(0);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.from(e.data ?? '');
    const method = e.method ?? 8;
    const whole = method === 0 ? data : deflateRawSync(data);
    const stored = whole.subarray(0, whole.length - (e.cut ?? 0));
    const flags = (e.flags ?? 0) | 0x0800;
    const crc = e.crc ?? crc32(data);
    const size = e.zip64 ? 0xffffffff : (e.size ?? data.length);
    const compressed = e.zip64 ? 0xffffffff : stored.length;
    const descriptor = (flags & 0x08) !== 0;
    const extra = e.localExtra ?? Buffer.alloc(0);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(e.localSignature ?? 0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x6000, 10); // 12:00
    local.writeUInt16LE(0x5861, 12); // 2024-03-01
    local.writeUInt32LE(descriptor ? 0 : crc, 14);
    local.writeUInt32LE(descriptor ? 0 : compressed, 18);
    local.writeUInt32LE(descriptor ? 0 : size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const trailer = descriptor ? dataDescriptor(crc, compressed, size) : Buffer.alloc(0);
    const block = Buffer.concat([local, name, extra, stored, trailer]);
    locals.push(block);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x6000, 12);
    central.writeUInt16LE(0x5861, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(e.name.endsWith('/') ? 0x10 : 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(Buffer.concat([central, name]));
    offset += block.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([prefix, ...locals, directory, end, comment]);
}

function dataDescriptor(crc: number, compressed: number, size: number): Buffer {
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(crc, 4);
  d.writeUInt32LE(compressed, 8);
  d.writeUInt32LE(size, 12);
  return d;
}
