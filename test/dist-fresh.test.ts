/**
 * bin/dist-fresh.mjs: when the bin may run dist/ in a checkout (issue 25). dist/ is up to date only
 * while no source it compiles changed after its build started: src/ and, since the examples are
 * compiled into dist/strategies/, strategies/ too (an edited, added or removed example).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distUpToDate } from '../bin/dist-fresh.mjs';

let root: string;
const built = new Date('2026-01-01T12:00:00Z');
const before = new Date('2026-01-01T11:00:00Z');
const after = new Date('2026-01-01T13:00:00Z');

/** A file with its time set (and its folder's, which writing it moved, put back before the build). */
function file(rel: string, at: Date): void {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, '');
  utimesSync(p, at, at);
  utimesSync(path.dirname(p), before, before);
}
const fresh = () => distUpToDate(pathToFileURL(`${root}/`));

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'halyard-dist-fresh-'));
  file('src/main.ts', before);
  file('src/cli/index.ts', before);
  file('strategies/sma-crossover.ts', before);
  file('dist/.built', built);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('distUpToDate', () => {
  it('is up to date when every source predates the build, and not without a stamp', () => {
    expect(fresh()).toBe(true);
    rmSync(path.join(root, 'dist/.built'));
    expect(fresh()).toBe(false);
  });

  it('a source under src/ edited after the build makes it stale; a test does not', () => {
    file('src/cli/index.test.ts', after);
    expect(fresh()).toBe(true);
    file('src/cli/index.ts', after);
    expect(fresh()).toBe(false);
  });

  it('an example strategy edited, added or removed after the build makes it stale', () => {
    file('strategies/sma-crossover.test.ts', after);
    expect(fresh()).toBe(true);
    file('strategies/sma-crossover.ts', after);
    expect(fresh()).toBe(false);
    file('strategies/sma-crossover.ts', before);
    expect(fresh()).toBe(true);
    // Added or removed: the folder's own time moves.
    rmSync(path.join(root, 'strategies/sma-crossover.ts'));
    expect(fresh()).toBe(false);
  });

  it('an installed package (no src/, no strategies/) is up to date with its stamp', () => {
    rmSync(path.join(root, 'src'), { recursive: true });
    rmSync(path.join(root, 'strategies'), { recursive: true });
    expect(fresh()).toBe(true);
  });
});
