/**
 * The kline block format (migration 002, table `kline_blocks`): up to BLOCK_ROWS consecutive
 * klines of one series in one BLOB, columnar, so a replay reads a year of 1-minute bars in ~513
 * reads with no per-row SQLite work.
 *
 * Layout (little-endian): u32 format (BLOCK_FORMAT), u32 row count n, then seven Float64 columns
 * of n values (open time, close time, open, high, low, close, volume), then n + 1 u32 offsets
 * (row i's text is bytes [offset i, offset i+1) of the text), then the text: row by row, the exact
 * open, high, low, close and volume of the row as latin1, each followed by '\n'. Readers take
 * a row's texts when they need them (`rowTexts`: a replay cuts them from a window of rows decoded
 * at once into one string, only for the bars whose texts are read), or a window of rows as an
 * array (`textRows`). Either way the strings a replay makes live about as long as the bars they belong
 * to: none survive long enough to be promoted to the old generation.
 *
 * Exactness: the texts are the TEXT rows' own bytes (the schema allows only digits and one dot in
 * them, so '\n' cannot occur), and each double is `Number(text)`, what a reader of the TEXT rows
 * computes (backtest bar-input.ts): a reader of a block sees exactly what it would have seen from
 * the rows. `decodeBlock` returns undefined for a format it does not know, and the reader falls
 * back to the rows.
 */
import type { BarTuple } from './kline-store.ts';

export const BLOCK_FORMAT = 1;
/**
 * Rows per block when packing. Small enough that a block (its BLOB, columns and texts) is done
 * with before the young generation is collected twice, so it is never promoted: a year of bars
 * is 513 reads, about 0.05 us a bar.
 */
export const BLOCK_ROWS = 1024;

const HEADER = 8;
const NUMBER_COLUMNS = 7;
const TEXT_COLUMNS = 5;

export interface KlineBlock {
  readonly count: number;
  readonly openTime: Float64Array;
  readonly closeTime: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /**
   * Exact texts of rows [from, to): row i's column c (0 open, 1 high, 2 low, 3 close, 4 volume)
   * at `(i - from) * 5 + c`.
   */
  textRows(from: number, to: number): string[];
  /**
   * The exact texts of row i into `into` (new strings, cut from the window of TEXT_WINDOW rows
   * around it, decoded once for the window into one string).
   */
  rowTexts(row: number, into: RowTexts): void;
}

/** Where `rowTexts` puts a row's texts. */
export interface RowTexts {
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** Rows whose text is decoded into one string at a time by `text`. */
const TEXT_WINDOW = 256;

const PLAIN = /^[0-9.]+$/;

/** Pack rows (oldest first, one series) into a block. Throws on text the schema would not hold. */
export function encodeBlock(rows: readonly BarTuple[]): Buffer {
  const n = rows.length;
  if (n === 0) throw new RangeError('a kline block holds at least one row');
  const numbers = new Float64Array(n * NUMBER_COLUMNS);
  const offsets = new Uint32Array(n + 1);
  let text = '';
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    numbers[i] = r[0];
    numbers[n + i] = r[6];
    for (let c = 0; c < TEXT_COLUMNS; c++) {
      const t = r[c + 1] as string;
      if (!PLAIN.test(t)) throw new RangeError(`kline ${r[0]}: '${t}' is not plain decimal text`);
      numbers[(c + 2) * n + i] = Number(t);
      text += t + '\n';
    }
    offsets[i + 1] = text.length;
  }
  const bytes = Buffer.from(text, 'latin1');
  const out = Buffer.alloc(HEADER + numbers.byteLength + offsets.byteLength + bytes.byteLength);
  out.writeUInt32LE(BLOCK_FORMAT, 0);
  out.writeUInt32LE(n, 4);
  out.set(new Uint8Array(numbers.buffer), HEADER);
  out.set(new Uint8Array(offsets.buffer), HEADER + numbers.byteLength);
  out.set(bytes, HEADER + numbers.byteLength + offsets.byteLength);
  return out;
}

/** A block's columns; undefined when the BLOB is of another format or does not hold what its header says. */
export function decodeBlock(data: Uint8Array): KlineBlock | undefined {
  if (data.byteLength < HEADER) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== BLOCK_FORMAT) return undefined;
  const n = view.getUint32(4, true);
  const numberBytes = n * NUMBER_COLUMNS * 8;
  const offsetBytes = (n + 1) * 4;
  const textAt = HEADER + numberBytes + offsetBytes;
  if (n === 0 || data.byteLength < textAt) return undefined;
  // Views of the BLOB's bytes when aligned (a BLOB of this size comes in its own buffer), else copies.
  const at = data.byteOffset + HEADER;
  let numbers: Float64Array;
  if (at % 8 === 0) numbers = new Float64Array(data.buffer, at, n * NUMBER_COLUMNS);
  else {
    numbers = new Float64Array(n * NUMBER_COLUMNS);
    new Uint8Array(numbers.buffer).set(data.subarray(HEADER, HEADER + numberBytes));
  }
  const offsets = new Uint32Array(n + 1);
  new Uint8Array(offsets.buffer).set(data.subarray(HEADER + numberBytes, textAt));
  const text = Buffer.from(data.buffer, data.byteOffset + textAt, data.byteLength - textAt);
  if (offsets[0] !== 0 || offsets[n] !== text.byteLength) return undefined;
  return new DecodedBlock(n, numbers, offsets, text);
}

class DecodedBlock implements KlineBlock {
  readonly openTime: Float64Array;
  readonly closeTime: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** The text of rows [windowFrom, windowTo) as one string; its offset 0 is the text's byte windowBase. */
  private window = '';
  private windowFrom = 0;
  private windowTo = 0;
  private windowBase = 0;
  constructor(
    readonly count: number,
    numbers: Float64Array,
    private readonly offsets: Uint32Array,
    private readonly bytes: Buffer,
  ) {
    const col = (c: number) => numbers.subarray(c * count, (c + 1) * count);
    this.openTime = col(0);
    this.closeTime = col(1);
    this.open = col(2);
    this.high = col(3);
    this.low = col(4);
    this.close = col(5);
    this.volume = col(6);
  }

  textRows(from: number, to: number): string[] {
    const parts = this.bytes.toString('latin1', this.offsets[from]!, this.offsets[to]!).split('\n');
    parts.pop(); // the empty string after the last '\n'
    if (parts.length !== (to - from) * TEXT_COLUMNS) throw new RangeError(`kline block text of rows ${from}..${to} is damaged`);
    return parts;
  }

  rowTexts(row: number, into: RowTexts): void {
    if (!(row >= 0 && row < this.count)) throw new RangeError(`kline block row ${row} is outside 0..${this.count - 1}`);
    const offsets = this.offsets;
    if (row < this.windowFrom || row >= this.windowTo) {
      const to = Math.min(this.count, row + TEXT_WINDOW);
      this.windowBase = offsets[row]!;
      this.window = this.bytes.toString('latin1', this.windowBase, offsets[to]!);
      this.windowFrom = row;
      this.windowTo = to;
    }
    const w = this.window;
    let p = offsets[row]! - this.windowBase;
    // The row's last byte: the '\n' after its volume. Each field ends at the next '\n' before it.
    const last = offsets[row + 1]! - this.windowBase - 1;
    let q = w.indexOf('\n', p);
    if (q < p || q >= last) throw damaged(row);
    into.open = w.slice(p, q);
    p = q + 1;
    q = w.indexOf('\n', p);
    if (q < p || q >= last) throw damaged(row);
    into.high = w.slice(p, q);
    p = q + 1;
    q = w.indexOf('\n', p);
    if (q < p || q >= last) throw damaged(row);
    into.low = w.slice(p, q);
    p = q + 1;
    q = w.indexOf('\n', p);
    if (q < p || q >= last) throw damaged(row);
    into.close = w.slice(p, q);
    p = q + 1;
    if (w.indexOf('\n', p) !== last) throw damaged(row);
    into.volume = w.slice(p, last);
  }
}

function damaged(row: number): RangeError {
  return new RangeError(`kline block text of row ${row} is damaged`);
}

/** Index of the first row of `block` with open time >= t (count when none). */
export function firstAtOrAfter(block: KlineBlock, t: number): number {
  const times = block.openTime;
  let lo = 0;
  let hi = block.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
