/**
 * Lossless JSON parsing (protocol notes 5.1, design "facts of the wire").
 *
 * Order and trade ids exceed 2^53 and `JSON.parse` silently rounds them
 * (`1375445991893797391` -> `1375445991893797400`). Numbers that a double cannot hold exactly
 * become decimal strings; all others stay numbers, so codecs accept both (notes 5.2 already
 * makes them accept strings).
 */
import { isSafeNumber, parse } from 'lossless-json';

/**
 * A double holds at most ~15.95 significant digits, so any literal with 16 or more digits (a dot
 * may sit among them) could lose precision. Texts without such a run take the fast path. The
 * run may also sit inside a string; that only costs the slow path, never correctness.
 */
const LONG_DIGIT_RUN = /\d(?:\.?\d){15}/;

function parseNumber(literal: string): number | string {
  return isSafeNumber(literal) ? Number(literal) : literal;
}

/** Parses JSON text; unsafe numbers become their literal text. Throws SyntaxError when invalid. */
export function parseJsonLossless(text: string): unknown {
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text) as unknown;
  return parse(text, null, parseNumber);
}

/**
 * Compact JSON for request bodies: no spaces, non-ASCII unescaped (notes 2.2 signs these exact
 * bytes). Our own bodies carry money and ids as strings, so plain `JSON.stringify` is exact.
 */
export function stringifyCompact(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('stringifyCompact: value has no JSON form');
  return text;
}
