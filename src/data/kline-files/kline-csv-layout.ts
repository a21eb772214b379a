/**
 * The column layouts a kline CSV may have, and how a header row is recognised and checked.
 *
 * - 6 columns: open_time, open, high, low, close, volume (pandas / ccxt style dumps);
 * - 11 columns: the kline array of spec 2.6;
 * - 12 columns: the same plus the trailing `ignore` of the common REST array and archive files.
 * A header is recognised by a first field that is not all digits. When present its names must fit
 * the order above for open..volume: a file with `close` before `open` is refused rather than read
 * silently wrong.
 */
import { quoted } from './kline-csv-error.ts';

export const COLUMN_COUNTS = [6, 11, 12] as const;

/**
 * The longest line a kline file may have, in bytes (checked as UTF-16 code units, never fewer than
 * the bytes). A row is short: Binance's 12 columns take about 130 bytes, and 12 fields of 300
 * characters each (prices with 18 decimals, quoted and padded) would still fit. A longer line is
 * not a kline row (a file with no newlines, a binary file, a CSV of something else), so it is
 * refused as soon as it passes this many bytes, never read whole: a reader never holds more than
 * this plus one chunk of a line, and says which line at once instead of after the whole file.
 */
export const MAX_LINE_BYTES = 4096;

/** What a line longer than MAX_LINE_BYTES is told (kline-csv-rows.ts and kline-file-source.ts say the same). */
export const LONG_LINE_REASON = `longer than ${MAX_LINE_BYTES} bytes; a kline row is about 50 to 200 (open_time,open,high,low,close,volume,...): is this a kline CSV, one row a line?`;
export type ColumnCount = (typeof COLUMN_COUNTS)[number];

/** Epoch unit of the time columns, told apart by digit count: 10 = s, 13 = ms, 16 = µs. */
export type TimeUnit = 's' | 'ms' | 'us';

export interface KlineCsvLayout {
  columns: ColumnCount;
  header: boolean;
  timeUnit: TimeUnit;
}

export function isColumnCount(n: number): n is ColumnCount {
  return (COLUMN_COUNTS as readonly number[]).includes(n);
}

/** Accepted header names per position 1..5 (after lower-casing and dropping `_`, ` `, `-`). */
const EXPECTED: readonly (readonly string[])[] = [
  ['open', 'o', 'openprice'],
  ['high', 'h', 'highprice'],
  ['low', 'l', 'lowprice'],
  ['close', 'c', 'closeprice'],
  ['volume', 'v', 'vol', 'basevolume', 'baseassetvolume'],
];

const norm = (name: string): string => name.toLowerCase().replace(/[_\s-]/g, '');

/** Why this header does not fit the positional layout, or undefined when it does. */
export function headerProblem(names: readonly string[]): string | undefined {
  for (let i = 0; i < EXPECTED.length; i++) {
    const got = names[i + 1] ?? '';
    if (!EXPECTED[i]!.includes(norm(got))) {
      return `header column ${i + 2} is ${quoted(got)}, expected ${EXPECTED[i]![0]} (columns must be open_time, open, high, low, close, volume[, close_time, ...])`;
    }
  }
  return undefined;
}

export function timeUnitOfDigits(digits: number): TimeUnit | undefined {
  return digits === 13 ? 'ms' : digits === 16 ? 'us' : digits === 10 ? 's' : undefined;
}

/** Epoch text to ms. `end` marks a close time: a second-resolution close time means its last ms. */
export function toMs(text: string, unit: TimeUnit, end = false): number {
  if (unit === 'ms') return Number(text);
  if (unit === 'us') return Number(text.slice(0, -3)); // floor to the ms, exact on the digits
  return Number(text) * 1000 + (end ? 999 : 0);
}
