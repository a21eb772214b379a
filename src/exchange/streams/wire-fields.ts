/**
 * Field readers of the stream decoders (protocol notes 4 and 5). Each reads one wire value and
 * returns it normalised, or throws a DecodeError naming the event type, the field and the reason.
 *
 * Frames are parsed with `transport/lossless-json.ts`: a number a double cannot hold exactly
 * arrives as its literal text, any other as a number. Notes 5.2: the real service also sends
 * numbers as strings. So:
 * - amounts (prices, quantities, volumes): a plain decimal string is kept exactly as sent
 *   (trailing zeros included); a number becomes its decimal text (`toWire`, never exponent form;
 *   the lossless parse guarantees the number is the literal's exact value). Anything else,
 *   `NaN`, `1e-8` as text, `""`, is refused: the venue sends amounts as plain text, and a
 *   string in another form means the frame is not what we think it is.
 * - ids: decimal strings (lossless); a number is accepted only while it is a safe integer (a
 *   larger one was rounded by a parser that was not lossless: refused, not guessed); a bigint is
 *   exact and accepted.
 * - times and counts: numbers; integer text is accepted (notes 5.2).
 * The fast path of each reader is a `typeof` and at most one regex; building the error message
 * is kept out of it.
 */
import { toWire } from '../../core/money/decimal.ts';
import { DecodeError } from './decode-error.ts';

export type WireObject = Record<string, unknown>;

/** Plain decimal text: optional '-', digits, optionally '.' and digits. */
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

export function isWireObject(v: unknown): v is WireObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short rendering of a bad value for an error message. */
export function shown(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (typeof v === 'bigint') return `${String(v)}n`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return `an array of ${String(v.length)}`;
  return typeof v === 'object' ? 'an object' : typeof v;
}

function fail(ev: string, path: string, expected: string, v: unknown, note = ''): never {
  throw new DecodeError(ev, path, `expected ${expected}, got ${shown(v)}${note}`);
}

export function object(v: unknown, ev: string, path: string): WireObject {
  if (isWireObject(v)) return v;
  return fail(ev, path, 'an object', v);
}

export function array(v: unknown, ev: string, path: string): readonly unknown[] {
  if (Array.isArray(v)) return v;
  return fail(ev, path, 'an array', v);
}

export function text(v: unknown, ev: string, path: string): string {
  if (typeof v === 'string') return v;
  return fail(ev, path, 'a string', v);
}

export function optionalText(v: unknown, ev: string, path: string): string | undefined {
  return v === undefined || v === null ? undefined : text(v, ev, path);
}

/** One of a closed set of strings (`allowed` lists them for the message). */
export function oneOf<T extends string>(v: unknown, allowed: ReadonlySet<T>, ev: string, path: string): T {
  if (typeof v === 'string' && allowed.has(v as T)) return v as T;
  return fail(ev, path, `one of ${[...allowed].join(', ')}`, v);
}

export function amount(v: unknown, ev: string, path: string): string {
  if (typeof v === 'string' && PLAIN_DECIMAL.test(v)) return v;
  return amountSlow(v, ev, path);
}

function amountSlow(v: unknown, ev: string, path: string): string {
  if (typeof v === 'number' && Number.isFinite(v)) return toWire(v);
  return fail(ev, path, 'a plain decimal string', v);
}

export function id(v: unknown, ev: string, path: string): string {
  if (typeof v === 'string' && INTEGER_TEXT.test(v)) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return idSlow(v, ev, path);
}

function idSlow(v: unknown, ev: string, path: string): string {
  // Not from the lossless parse, but exact: a caller holding a bigint id may pass it.
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number' && Number.isInteger(v)) return fail(ev, path, 'an integer id', v, ' (beyond 2^53, already rounded: parse the frame losslessly)');
  return fail(ev, path, 'an integer id', v);
}

/** An id where -1 means "none" (`t` of an executionReport without a trade). */
export function idOrNone(v: unknown, ev: string, path: string): string | undefined {
  if (v === -1 || v === '-1') return undefined;
  return id(v, ev, path);
}

/** An id-like text the venue may send as a number or as text (`BI`, a business serial). */
export function idText(v: unknown, ev: string, path: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return fail(ev, path, 'an id (string or integer)', v);
}

/** A time in ms or a count: an integer, as a number or integer text (notes 5.2). */
export function integer(v: unknown, ev: string, path: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  return integerSlow(v, ev, path);
}

function integerSlow(v: unknown, ev: string, path: string): number {
  if (typeof v === 'string' && INTEGER_TEXT.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
  }
  return fail(ev, path, 'an integer (time in ms or count)', v);
}

/** A flag; `"true"`/`"false"` are read too (variants stringify). */
export function flag(v: unknown, ev: string, path: string): boolean {
  if (v === true || v === false) return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fail(ev, path, 'a boolean', v);
}

export type Level = readonly [price: string, qty: string];

/** Book levels `[["0.0024","10"], ...]`: [price, quantity] pairs, neither negative, extra items ignored. */
export function levels(v: unknown, ev: string, path: string): Level[] {
  const rows = array(v, ev, path);
  const out: Level[] = new Array<Level>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row) || row.length < 2) return fail(ev, `${path}[${String(i)}]`, 'a [price, quantity] pair', row);
    const p: unknown = row[0];
    const q: unknown = row[1];
    // Fast path inline: the paths of the error messages are only built when one is needed.
    out[i] = [
      typeof p === 'string' && UNSIGNED_DECIMAL.test(p) ? p : levelAmount(p, ev, `${path}[${String(i)}][0]`),
      typeof q === 'string' && UNSIGNED_DECIMAL.test(q) ? q : levelAmount(q, ev, `${path}[${String(i)}][1]`),
    ];
  }
  return out;
}

const UNSIGNED_DECIMAL = /^\d+(?:\.\d+)?$/;

function levelAmount(v: unknown, ev: string, path: string): string {
  const a = amount(v, ev, path);
  if (a.startsWith('-')) return fail(ev, path, 'a price or quantity of 0 or more', v);
  return a;
}
