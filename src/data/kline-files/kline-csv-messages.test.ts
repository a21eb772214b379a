/**
 * A refused kline file gets a short message whatever it holds (issue 24: a 60 MiB line once gave a
 * 63 MB error message): generated rows with a field replaced by a long or odd value, in any column
 * and any layout, and lines past the line bound, are refused with the line number and a message
 * quoting at most a few hundred characters of the file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KlineCsvError, parseKlineCsv } from './kline-csv.ts';
import { QUOTE_CHARS } from './kline-csv-error.ts';
import { MAX_LINE_BYTES } from './kline-csv-layout.ts';

const M = 60_000;
const T = Date.UTC(2024, 2, 1);
const FILE = 'BTCUSDT-1m.csv';
/** A message names the file and the line, and quotes a field of at most QUOTE_CHARS (80) characters, twice at most: well under this. */
const SHORT = 400;

function row(i: number, columns: 6 | 12): string[] {
  const p = 61000 + i;
  const six = [String(T + i * M), `${p}.5`, `${p + 2}.25`, `${p - 1}.0`, `${p + 1}.75`, '3.5'];
  return columns === 6 ? six : [...six, String(T + i * M + M - 1), '1234.5', '7', '6.1', '610.5', '0'];
}

/** The KlineCsvError the text is refused with; undefined when it is accepted. */
function refusalOf(text: string): KlineCsvError | undefined {
  try {
    parseKlineCsv(text, { fileName: FILE });
  } catch (e) {
    if (e instanceof KlineCsvError) return e;
    throw e;
  }
  return undefined;
}

function refusal(text: string): KlineCsvError {
  const e = refusalOf(text);
  if (!e) throw new Error('the file was accepted');
  return e;
}

/** Values that break a field: long digits or decimals (which pass the character checks), long junk, quotes, commas left out. */
const badValue = fc.oneof(
  fc.integer({ min: QUOTE_CHARS, max: 3000 }).map((n) => '9'.repeat(n)),
  fc.integer({ min: QUOTE_CHARS, max: 3000 }).map((n) => `1.${'5'.repeat(n)}`),
  fc.string({ minLength: 1, maxLength: 3000, unit: 'grapheme' }).filter((s) => !s.includes('\n') && !s.includes(',')),
  fc.constantFrom('"x"', '-1', '1e5', 'NaN', '', ' '),
);

describe('kline CSV messages stay short', () => {
  it('a row with any field replaced by a bad value, in any layout, header or not: refused naming its line, the message short', () => {
    fc.assert(
      fc.property(fc.constantFrom(6 as const, 12 as const), fc.boolean(), fc.integer({ min: 0, max: 4 }), fc.nat(11), badValue, (columns, header, at, field, value) => {
        const lines = Array.from({ length: 5 }, (_, i) => row(i, columns));
        const target = lines[at]!;
        target[field % columns] = value;
        const text = [...(header ? ['open_time,open,high,low,close,volume' + (columns === 12 ? ',close_time,qv,n,tb,tq,ignore' : '')] : []), ...lines.map((l) => l.join(','))].join('\n') + '\n';
        const e = refusalOf(text);
        // A value that still makes a valid row (a longer volume, say): nothing to check.
        if (!e) return;
        expect(e.line, e.message.slice(0, 200)).toBeGreaterThanOrEqual(1);
        expect(e.message.length, e.message.slice(0, 200)).toBeLessThan(SHORT);
        expect(e.message.startsWith(`${FILE}:`)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a header with a long bad column name, and a line longer than the bound: refused naming the line, the message short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 4000 }), fc.integer({ min: 1, max: 5 }), (n, column) => {
        const names = ['open_time', 'open', 'high', 'low', 'close', 'volume'];
        names[column] = 'x'.repeat(n);
        const e = refusal(`${names.join(',')}\n${row(0, 6).join(',')}\n`);
        expect(e.line).toBe(1);
        expect(e.message.length).toBeLessThan(SHORT);
      }),
      { numRuns: 50 },
    );
    const long = refusal(`${row(0, 6).join(',')}\n${row(1, 6).join(',')}${'0'.repeat(MAX_LINE_BYTES)}\n`);
    expect(long.message).toMatch(new RegExp(`^${FILE}:2: longer than ${MAX_LINE_BYTES} bytes; a kline row is about 50 to 200`));
    expect(long.message.length).toBeLessThan(SHORT);
  });
});
