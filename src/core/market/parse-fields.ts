/**
 * Field readers for exchangeInfo (spec 2.2, 2.3) that name the failing path, e.g.
 * `symbols[0].filters[2].tickSize: "abc" is not a decimal`.
 *
 * Protocol notes 5.2: the real service sends precisions and counts as strings ("8") where the
 * spec says numbers (8), and decimals may arrive either way; every reader accepts both.
 */
import { dec, isDecimalText } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';

export class InstrumentParseError extends Error {
  override readonly name = 'InstrumentParseError';
  constructor(
    /** Where the bad value sits, e.g. `symbols[0].filters[2].tickSize`. */
    readonly path: string,
    readonly value: unknown,
    readonly problem: string,
  ) {
    super(value === undefined ? `${path} is missing` : `${path}: ${show(value)} ${problem}`);
  }
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export type RawObject = Readonly<Record<string, unknown>>;

export const join = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);
export const at = (base: string, index: number): string => `${base}[${index}]`;

export function asObject(value: unknown, path: string): RawObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InstrumentParseError(path, value, 'is not an object');
  }
  return value as RawObject;
}

export function asArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new InstrumentParseError(path, value, 'is not an array');
  return value;
}

export function readString(obj: RawObject, key: string, base: string): string {
  const value = obj[key];
  if (typeof value !== 'string' || value === '') throw new InstrumentParseError(join(base, key), value, 'is not a non-empty string');
  return value;
}

export function readStringArray(obj: RawObject, key: string, base: string): readonly string[] {
  const path = join(base, key);
  return asArray(obj[key], path).map((item, i) => {
    if (typeof item !== 'string') throw new InstrumentParseError(at(path, i), item, 'is not a string');
    return item;
  });
}

/** A non-negative decimal, as a string ("0.01") or a number (0.01). */
export function readDecimal(obj: RawObject, key: string, base: string): Dec {
  const value = obj[key];
  const path = join(base, key);
  const ok = (typeof value === 'string' && isDecimalText(value)) || (typeof value === 'number' && Number.isFinite(value));
  if (!ok) throw new InstrumentParseError(path, value, 'is not a decimal');
  const d = dec(value, path);
  if (d.isNegative()) throw new InstrumentParseError(path, value, 'is negative');
  return d;
}

/** A non-negative integer, as "8" or 8. */
export function readInt(obj: RawObject, key: string, base: string): number {
  const value = obj[key];
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new InstrumentParseError(join(base, key), value, 'is not a non-negative integer');
  }
  return n;
}

/** As `readInt`, but absent (undefined or null) gives undefined. */
export function readOptionalInt(obj: RawObject, key: string, base: string): number | undefined {
  return obj[key] === undefined || obj[key] === null ? undefined : readInt(obj, key, base);
}
