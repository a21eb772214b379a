/**
 * Lossless JSON parsing (protocol notes 5.1, design "facts of the wire").
 *
 * Order and trade ids exceed 2^53 and `JSON.parse` silently rounds them
 * (`1375445991893797391` -> `1375445991893797400`). Numbers that a double cannot hold exactly
 * become decimal strings; all others stay numbers, so codecs accept both (notes 5.2 already
 * makes them accept strings).
 *
 * How (notes 5.1: quote long integer literals before `JSON.parse`): one linear scan finds the
 * number literals outside strings that a double might not hold (16 or more digits, or an
 * exponent), asks lossless-json's `isSafeNumber` about each, and quotes the unsafe ones; then
 * the native `JSON.parse`. lossless-json's own parser, used before for every body with a long id,
 * cost 3.1x `JSON.parse` an executionReport (6.4 against 2.1 us); this path 1.5x (3.0 us), a
 * trade 1.9x against 2.7x, a 500-row myTrades answer 4.3x against 6.0x (bench/lossless-parse.bench.ts,
 * BENCHMARKS.md). `JSON.parse`'s reviver with `context.source` would do it natively, but Node 20
 * has it only behind `--harmony-json-parse-with-source`. Unlike lossless-json, a key repeated in
 * an object keeps its last value (as `JSON.parse`) instead of throwing.
 */
import { isSafeNumber } from 'lossless-json';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;

/** A double holds every decimal of at most 15 significant digits (DBL_DIG) exactly round trip. */
const SAFE_DIGITS = 15;

const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Index just past the string that opens at `open` (a quote), or the text's length when it never
 * closes (JSON.parse then reports it). A quote preceded by an odd run of backslashes is escaped.
 */
function stringEnd(text: string, open: number): number {
  let q = open;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q === -1) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
  }
}

/**
 * Index just past the JSON number grammar's longest match at `start`
 * (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`), or -1 when nothing matches there:
 * such text is left alone for JSON.parse to reject. `stat[0]` gets the digit count before any
 * exponent, `stat[1]` 1 when there is an exponent, `stat[2]` 1 when the literal is an integer.
 */
function numberEnd(text: string, start: number, stat: [number, number, number]): number {
  let i = start;
  if (text.charCodeAt(i) === MINUS) i++;
  const intStart = i;
  if (text.charCodeAt(i) === ZERO) i++;
  else while (isDigit(text.charCodeAt(i))) i++;
  if (i === intStart) return -1;
  let digits = i - intStart;
  const intEnd = i;
  if (text.charCodeAt(i) === DOT) {
    const fracStart = i + 1;
    let j = fracStart;
    while (isDigit(text.charCodeAt(j))) j++;
    if (j === fracStart) return -1;
    digits += j - fracStart;
    i = j;
  }
  stat[0] = digits;
  stat[1] = 0;
  stat[2] = intEnd === i ? 1 : 0;
  const e = text.charCodeAt(i);
  if (e === LOWER_E || e === UPPER_E) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === PLUS || sign === MINUS) j++;
    const expStart = j;
    while (isDigit(text.charCodeAt(j))) j++;
    if (j === expStart) return -1;
    stat[1] = 1;
    stat[2] = 0;
    i = j;
  }
  return i;
}

/** True when the first non-space character at or after `i` is a colon (an object key's place). */
function colonFollows(text: string, i: number): boolean {
  while (isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === COLON;
}

const stat: [number, number, number] = [0, 0, 0];

/** Parses JSON text; unsafe numbers become their literal text. Throws SyntaxError when invalid. */
export function parseJsonLossless(text: string): unknown {
  let out: string | undefined;
  let copied = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c !== MINUS && !isDigit(c)) {
      i++;
      continue;
    }
    const end = numberEnd(text, i, stat);
    if (end === -1) {
      i++;
      continue;
    }
    // Quoting a number turns it into a string, which JSON would accept as a key where a number is
    // invalid; a token followed by a colon is left as it was, so JSON.parse still rejects it.
    if ((stat[0] > SAFE_DIGITS || stat[1] === 1) && !colonFollows(text, end)) {
      const literal = text.slice(i, end);
      // An integer literal is what isSafeNumber would check without its regex and parseInt.
      if (stat[2] === 1 ? !Number.isSafeInteger(Number(literal)) : !isSafeNumber(literal)) {
        out = (out ?? '') + text.slice(copied, i) + '"' + literal + '"';
        copied = end;
      }
    }
    i = end;
  }
  if (out === undefined) return JSON.parse(text) as unknown;
  return JSON.parse(out + text.slice(copied)) as unknown;
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
