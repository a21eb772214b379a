import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from '../../data/json-file.ts';
import { attachEquity, equityColumnsOf, EquityRecorder, runForJson } from './equity-columns.ts';
import { jsonReplacer } from '../metrics/metrics-json.ts';
import type { EquityPoint } from '../types.ts';

describe('EquityRecorder', () => {
  it('keeps every slot in order across chunks, joined exactly once asked, and goes on after', () => {
    const r = new EquityRecorder();
    const n = 150_000;
    for (let i = 0; i < n; i++) r.push(i, i * 2, i % 7);
    const c = r.columns();
    expect([c.length, c.time.length, c.equity.length, c.position.length]).toEqual([n, n, n, n]);
    let bad = 0;
    for (let i = 0; i < n; i++) if (c.time[i] !== i || c.equity[i] !== i * 2 || c.position[i] !== i % 7) bad++;
    expect(bad).toBe(0);
    r.push(-1, -2, -3);
    const d = r.columns();
    expect(d.length).toBe(n + 1);
    expect([d.time[n], d.equity[n], d.position[n], d.time[n - 1]]).toEqual([-1, -2, -3, n - 1]);
    expect(new EquityRecorder().columns().length).toBe(0);
  });

  it('with the number of slots known, fills one allocation and hands it out as it is (and still grows past it)', () => {
    const r = new EquityRecorder(5000);
    for (let i = 0; i < 5000; i++) r.push(i, i, 0);
    const c = r.columns();
    expect(c.length).toBe(5000);
    expect(c.time.buffer.byteLength).toBe(5000 * 8);
    r.push(5000, 5000, 1);
    expect(r.columns().time[5000]).toBe(5000);
  });
});

describe('EquityRecorder.record', () => {
  it('records what push would: the bar close time, quote + base * close, and the base', () => {
    const a = new EquityRecorder();
    const b = new EquityRecorder();
    const held = { quote: 1000.5, base: 0 };
    for (let i = 0; i < 3000; i++) {
      const bar = { closeTime: 60_000 * i + 59_999, close: 100 + Math.sin(i) * 7.3 };
      if (i % 97 === 0) held.base = (i % 3) * 0.013;
      a.record(bar, held);
      b.push(bar.closeTime, held.quote + held.base * bar.close, held.base);
    }
    expect(a.columns()).toEqual(b.columns());
  });
});

describe('runForJson', () => {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-equity-json-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const written = (value: unknown): string => {
    const file = join(dir, 'run.json');
    writeJsonFile(file, value, { replacer: jsonReplacer, onlyNonFinite: true });
    return readFileSync(file, 'utf8');
  };
  /** A run whose equity is the columns of `n` points (a NaN at `bad`), between other fields. */
  const runOf = (n: number, bad = -1) => {
    const r = new EquityRecorder();
    for (let i = 0; i < n; i++) r.push(1_704_067_259_999 + i * 60_000, i === bad ? NaN : 10_000 + Math.sin(i) * 12.345678901, i % 3 === 0 ? 0 : 0.001234567);
    return attachEquity({ strategy: 's', fills: [{ price: '1' }], equity: [] as EquityPoint[], after: { x: Infinity } }, r.columns());
  };

  it('is written as the run itself, its equity from the columns, never built as points', () => {
    for (const n of [0, 5, 1024, 3000]) {
      const run = runOf(n);
      const text = written({ run: runForJson(run), metrics: { sharpe: -Infinity } });
      expect(equityColumnsOf(run), 'equity still unbuilt').toBeDefined();
      expect(text).toBe(JSON.stringify({ run, metrics: { sharpe: -Infinity } }, jsonReplacer, 2));
    }
  });

  it('writes a slice holding a non-finite equity as JSON does (null)', () => {
    const run = runOf(2100, 1500);
    expect(written(runForJson(run))).toBe(JSON.stringify(run, jsonReplacer, 2));
  });

  it('prints any numbers as JSON.stringify does (-0, the smallest and largest doubles, exponents, NaN, infinities)', () => {
    const num = fc.oneof(fc.double(), fc.constantFrom(-0, 5e-324, 1e21, 1.7976931348623157e308, 123456789012345680000, 0.1 + 0.2));
    fc.assert(
      fc.property(fc.array(fc.tuple(num, num, num), { minLength: 1, maxLength: 2100 }), (rows) => {
        const r = new EquityRecorder();
        for (const [t, e, p] of rows) r.push(t, e, p);
        const run = attachEquity({ equity: [] as EquityPoint[] }, r.columns());
        expect(written(runForJson(run))).toBe(JSON.stringify(run, jsonReplacer, 2));
      }),
      { numRuns: 40 },
    );
  });

  it('with entryPerLine, renders each point on one line as the writer prints the points themselves', () => {
    const file = join(dir, 'line.json');
    const lines = (value: unknown): string => {
      writeJsonFile(file, value, { replacer: jsonReplacer, onlyNonFinite: true, entryPerLine: true });
      return readFileSync(file, 'utf8');
    };
    for (const [n, bad] of [[3000, -1], [2100, 1500]] as const) {
      const run = runOf(n, bad);
      const fromColumns = lines({ run: runForJson(run) });
      void run.equity;
      expect(fromColumns).toBe(lines({ run }));
      expect(fromColumns).toContain(`\n      ${JSON.stringify(run.equity[1])},\n`);
    }
  });

  it('is the run itself once its equity is built or replaced', () => {
    const run = runOf(10);
    void run.equity;
    expect(runForJson(run)).toBe(run);
  });
});
