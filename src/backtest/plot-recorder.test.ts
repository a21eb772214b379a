import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from '../data/json-file.ts';
import { runForJson } from './equity-columns.ts';
import { jsonReplacer } from './metrics-json.ts';
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
