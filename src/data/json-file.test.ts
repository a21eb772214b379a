import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonReplacer } from '../backtest/metrics/metrics-json.ts';
import { jsonSlices, writeJsonFile } from './json-file.ts';
import type { JsonReplacer } from './json-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-json-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function written(value: unknown, replacer?: JsonReplacer, onlyNonFinite = false, entryPerLine = false): string {
  const file = join(dir, `v${n++}.json`);
  writeJsonFile(file, value, { replacer, onlyNonFinite, entryPerLine });
  return readFileSync(file, 'utf8');
}

/** A replacer that reads its key and holder: drops keys starting with "x", tags numbers of arrays, keeps the rest. */
const keyed: JsonReplacer = function (this: unknown, key, value) {
  if (key.startsWith('x')) return undefined;
  if (typeof value === 'number' && Array.isArray(this)) return `${key}:${value}`;
  return value;
};

const leaf = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(Infinity),
  fc.constant(() => 1),
);
/** Values with containers both below and above the size from which the writer walks them (64), nested a few levels. */
const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constant('x1'), fc.constant(''));
const small = fc.oneof(fc.array(leaf, { maxLength: 4 }), fc.dictionary(key, leaf, { maxKeys: 3 }));
const inBig = fc.oneof(leaf, small);
const bigArray = fc.array(inBig, { minLength: 60, maxLength: 90 });
const bigObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), inBig, { minKeys: 60, maxKeys: 90 });
const value = fc.oneof(
  leaf,
  small,
  bigArray,
  bigObject,
  fc.record({ a: bigArray, x2: bigObject, c: small, d: fc.array(bigArray, { maxLength: 2 }) }),
);

describe('writeJsonFile', () => {
  it('writes what JSON.stringify(value, replacer, 2) gives, for any value, with or without a replacer', () => {
    fc.assert(
      fc.property(value, (v) => {
        if (JSON.stringify(v) === undefined) return;
        expect(written(v)).toBe(JSON.stringify(v, null, 2));
        expect(written(v, jsonReplacer)).toBe(JSON.stringify(v, jsonReplacer, 2));
        expect(written(v, jsonReplacer, true)).toBe(JSON.stringify(v, jsonReplacer, 2));
        expect(written(v, keyed)).toBe(JSON.stringify(v, keyed as never, 2));
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it('walks large arrays and objects: a run-like value with 100,000 points is the same text', () => {
    const equity = Array.from({ length: 100_000 }, (_, i) => ({ time: i * 60_000, equity: 1000 + i / 7, position: i % 3 === 0 ? 0 : 0.5 }));
    const big = { run: { strategy: 's', params: { fast: 10 }, equity, fills: [], empty: {} }, metrics: { profitFactor: Infinity, sharpe: -1.5 } };
    for (const only of [false, true]) expect(written(big, jsonReplacer, only)).toBe(JSON.stringify(big, jsonReplacer, 2));
  });

  it('honours toJSON, and the replacer replacing a large container', () => {
    const dated = { at: new Date(0), list: Array.from({ length: 70 }, (_, i) => ({ d: new Date(i), i })) };
    expect(written(dated)).toBe(JSON.stringify(dated, null, 2));
    const swap: JsonReplacer = (key, v) => (key === 'list' ? { replaced: true, n: Infinity } : v);
    expect(written(dated, swap)).toBe(JSON.stringify(dated, swap as never, 2));
  });

  it('refuses a value with no JSON text, and throws where JSON.stringify throws', () => {
    expect(() => written(undefined)).toThrow(TypeError);
    expect(() => written(Array.from({ length: 70 }, () => 1n))).toThrow(TypeError);
  });
});

describe('writeJsonFile: entryPerLine', () => {
  it('writes the same value as JSON.stringify(value, replacer), for any value, with or without a replacer', () => {
    fc.assert(
      fc.property(value, (v) => {
        if (JSON.stringify(v) === undefined) return;
        expect(JSON.parse(written(v, undefined, false, true))).toEqual(JSON.parse(JSON.stringify(v)));
        expect(JSON.parse(written(v, jsonReplacer, true, true))).toEqual(JSON.parse(JSON.stringify(v, jsonReplacer)));
        expect(JSON.parse(written(v, keyed, false, true))).toEqual(JSON.parse(JSON.stringify(v, keyed as never)));
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it('puts each entry of a large array on a line of its own, the rest indented as JSON.stringify(value, replacer, 2)', () => {
    const equity = Array.from({ length: 3000 }, (_, i) => ({ time: i * 60_000, equity: 1000 + i / 7, position: i % 3 === 0 ? 0 : 0.5 }));
    const fills = Array.from({ length: 70 }, (_, i) => ({ price: String(100 + i), tags: ['a', i], at: { n: i } }));
    const run = { strategy: 's', params: { fast: 10 }, equity, fills, bad: [Infinity, ...Array.from({ length: 70 }, (_, i) => i)] };
    const text = written({ run, metrics: { profitFactor: Infinity } }, jsonReplacer, true, true);
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual(['{', '  "run": {', '    "strategy": "s",', '    "params": {', '      "fast": 10', '    },', '    "equity": [']);
    expect(lines.slice(7, 7 + 3000)).toEqual(equity.map((p, i) => `      ${JSON.stringify(p)}${i < 2999 ? ',' : ''}`));
    expect(lines.slice(3009, 3009 + 70)).toEqual(fills.map((f, i) => `      ${JSON.stringify(f)}${i < 69 ? ',' : ''}`));
    // A non-finite number still goes through the replacer, on its own line.
    expect(lines.slice(3079, 3082)).toEqual(['    ],', '    "bad": [', '      "Infinity",']);
    expect(text.endsWith('  "metrics": {\n    "profitFactor": "Infinity"\n  }\n}')).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ run, metrics: { profitFactor: Infinity } }, jsonReplacer)));
  });
});

describe('writeJsonFile: jsonSlices', () => {
  const points = (n: number, bad = -1) => Array.from({ length: n }, (_, i) => ({ t: 1_700_000_000_000 + i, v: i === bad ? Infinity : i / 7, s: `p${i}` }));
  /** The points as slices, rendered (when asked) as JSON.stringify writes each. */
  const slices = (all: ReturnType<typeof points>, render: boolean) =>
    jsonSlices(
      all.length,
      (start, end) => all.slice(start, end),
      render
        ? (start, end, pad, unit) => {
            const part = all.slice(start, end);
            if (part.some((p) => !Number.isFinite(p.v))) return undefined;
            return part.map((p) => `\n${pad}${JSON.stringify(p, undefined, unit).replace(/\n/g, `\n${pad}`)}`).join(',');
          }
        : undefined,
    );

  it('writes the entries as JSON.stringify writes their array, in slices or rendered, at any depth', () => {
    for (const n of [0, 1, 63, 64, 1023, 1024, 1025, 3000]) {
      const all = points(n);
      const expected = JSON.stringify({ run: { a: 1, equity: all, z: [1, 2] }, m: 2 }, undefined, 2);
      for (const render of [false, true]) expect(written({ run: { a: 1, equity: slices(all, render), z: [1, 2] }, m: 2 }), `${n} ${render}`).toBe(expected);
    }
  });

  it('with entryPerLine, writes the entries as it writes their array (a short one indented whole), in slices or rendered', () => {
    for (const n of [0, 1, 63, 64, 1025, 3000]) {
      const all = points(n);
      const expected = written({ run: { a: 1, equity: all, z: [1, 2] }, m: 2 }, undefined, false, true);
      for (const render of [false, true]) expect(written({ run: { a: 1, equity: slices(all, render), z: [1, 2] }, m: 2 }, undefined, false, true), `${n} ${render}`).toBe(expected);
    }
  });

  it('gives the replacer the entries when a slice holds a non-finite number (the render declines it)', () => {
    const all = points(2500, 1500);
    const expected = JSON.stringify({ equity: all }, jsonReplacer, 2);
    expect(written({ equity: slices(all, true) }, jsonReplacer, true)).toBe(expected);
    expect(written({ equity: slices(all, false) }, jsonReplacer, true)).toBe(expected);
  });
});
