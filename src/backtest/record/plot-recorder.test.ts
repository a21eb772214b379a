import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from '../../data/json-file.ts';
import { runForJson } from './equity-columns.ts';
import { jsonReplacer } from '../metrics/metrics-json.ts';
import { plotColumnsOf, PlotRecorder } from './plot-recorder.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-plots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two lines of `n` points (a NaN at `bad` in the second), one with a colour. */
function plotted(n: number, bad = -1) {
  const r = new PlotRecorder();
  for (let i = 0; i < n; i++) {
    const time = 1_704_067_260_000 + i * 60_000;
    r.add({ strategy: 's', name: 'fast', pane: 'price', time, value: 100 + Math.sin(i) / 3 });
    r.add({ strategy: 's', name: 'rsi', pane: 'below', color: '#f00', time, value: i === bad ? NaN : (i * 7) % 100 });
  }
  return r.plots();
}

let k = 0;
function written(value: unknown, entryPerLine: boolean): string {
  const file = join(dir, `p${k++}.json`);
  writeJsonFile(file, value, { replacer: jsonReplacer, onlyNonFinite: true, entryPerLine });
  return readFileSync(file, 'utf8');
}

describe('PlotRecorder', () => {
  it('keeps a line as columns until its points are read, then as [time, value] pairs in the same place', () => {
    const [fast, rsi] = plotted(3);
    expect(plotColumnsOf(fast!)?.times).toHaveLength(3);
    expect(Object.keys(rsi!)).toEqual(['name', 'pane', 'color', 'points']);
    expect(rsi!.points).toEqual([
      [1_704_067_260_000, 0],
      [1_704_067_320_000, 7],
      [1_704_067_380_000, 14],
    ]);
    expect(plotColumnsOf(rsi!)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(rsi))).toEqual({ name: 'rsi', pane: 'below', color: '#f00', points: rsi!.points });
  });

  it('is written to JSON from its columns as the built pairs are, indented or an entry a line, with or without a non-finite value', () => {
    for (const [n, bad] of [[5, -1], [3000, -1], [2500, 1700]] as const) {
      for (const perLine of [false, true]) {
        const lazy = { strategy: 's', plots: plotted(n, bad), after: 1 };
        const text = written({ run: runForJson(lazy) }, perLine);
        expect(plotColumnsOf(lazy.plots[0]!), 'not built by the write').toBeDefined();
        const built = { strategy: 's', plots: plotted(n, bad), after: 1 };
        for (const line of built.plots) void line.points;
        expect(text, `${n} ${bad} ${perLine}`).toBe(written({ run: built }, perLine));
        if (!perLine) expect(text).toBe(JSON.stringify({ run: built }, jsonReplacer, 2));
      }
    }
  });
});

describe('PlotRecorder columns (grown by chunks, or to the expected size)', () => {
  /** `n` points of one line, a second value at every 10th time replacing the first. */
  function columns(n: number, expected?: number) {
    const r = new PlotRecorder(expected);
    for (let i = 0; i < n; i++) {
      r.add({ strategy: 's', name: 'x', pane: 'price', time: 1000 + i, value: i * 0.5 });
      if (i % 10 === 0) r.add({ strategy: 's', name: 'x', pane: 'price', time: 1000 + i, value: -i });
    }
    return plotColumnsOf(r.plots()[0]!)!;
  }

  it.each([
    ['no size known (doubling, then 65,536-value chunks)', 150_000, undefined],
    ['a size known and reached (one array, filled in place)', 100_000, 100_000],
    ['a size known and passed (that array, then chunks)', 150_000, 100_000],
    ['a size known, the line plotted less', 3_000, 100_000],
  ])('%s: every value in order, a second one at a time replacing the first', (_, n, expected) => {
    const c = columns(n, expected);
    expect(c.times).toHaveLength(n);
    expect(c.values).toHaveLength(n);
    for (const i of [0, 1, 9, 10, 1023, 1024, 1025, n - 1]) {
      if (i >= n) continue;
      expect([c.times[i], c.values[i]]).toEqual([1000 + i, i % 10 === 0 ? -i : i * 0.5]);
    }
    expect(Array.from(c.times).every((t, i) => t === 1000 + i)).toBe(true);
  });
});
