/**
 * `halyard test`: a strategy and its test kept outside the repository, importing `halyard/strategy`
 * and `halyard/strategy/testing`, run with this installation's vitest and nothing installed or
 * configured beside them. Run as a user runs it (the bin, in a child process: vitest inside this
 * test's own vitest would share its state).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/halyard.mjs');
let dir: string;

const STRATEGY = `import { defineStrategy, place, z } from 'halyard/strategy';
export default defineStrategy({
  name: 'outside-once',
  params: z.object({ symbol: z.string().default('BTCPHP') }),
  symbols: (p) => [p.symbol],
  state: () => ({ done: false }),
  onBar(ctx) {
    if (ctx.state.done) return;
    ctx.state.done = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'once' })];
  },
});
`;
const PASSING = `import { expect, it } from 'vitest';
import { runOnRegime } from 'halyard/strategy/testing';
import once from './once.mts';
it('buys once on the first bar', () => {
  const { fills, run } = runOnRegime(once, 'flat', {});
  expect(run.strategyFailures).toEqual([]);
  expect(fills.map((f) => f.side)).toEqual(['BUY']);
});
`;
const FAILING = `import { expect, it } from 'vitest';
it('is wrong', () => expect(1 + 1).toBe(3));
`;

/** Runs the bin, its output piped; `color` replaces NO_COLOR=1 with these colour variables (none: neither set). */
function halyard(args: string[], color?: Record<string, string>): Promise<{ code: number; out: string }> {
  const { NO_COLOR: _no, FORCE_COLOR: _force, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, env: { ...env, NODE_OPTIONS: '', TERM: 'xterm-256color', ...(color ?? { NO_COLOR: '1' }) } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'halyard-test-cmd-')));
  mkdirSync(path.join(dir, 'good'));
  mkdirSync(path.join(dir, 'bad'));
  mkdirSync(path.join(dir, 'empty'));
  writeFileSync(path.join(dir, 'good', 'once.mts'), STRATEGY);
  writeFileSync(path.join(dir, 'good', 'once.test.mts'), PASSING);
  writeFileSync(path.join(dir, 'bad', 'wrong.test.mts'), FAILING);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('halyard test', () => {
  it("runs a strategy's tests outside the repository, halyard/strategy mapped to this installation: exit 0", async () => {
    const r = await halyard(['test', path.join(dir, 'good')]);
    expect(r.out).toMatch(/1 passed/);
    expect(r.code).toBe(0);
    // Nothing written beside the author's files (vitest's results cache made node_modules/.vite there).
    expect(readdirSync(path.join(dir, 'good')).sort()).toEqual(['once.mts', 'once.test.mts']);
  });

  it('exits 1 when a test fails', async () => {
    const r = await halyard(['test', path.join(dir, 'good'), path.join(dir, 'bad', 'wrong.test.mts')]);
    expect(r.out).toMatch(/1 failed/);
    expect(r.code).toBe(1);
  });

  it('prints no colour codes to a pipe; FORCE_COLOR colours it', async () => {
    // A failing test too: its diff is written by the test worker, which has its own colours.
    const paths = ['test', path.join(dir, 'bad', 'wrong.test.mts')];
    const piped = await halyard(paths, {});
    expect(piped.out).toMatch(/1 failed/);
    expect(piped.out).toMatch(/expected 2 to be 3/);
    expect(piped.out).not.toContain('\u001b[');
    // NO_COLOR over FORCE_COLOR, and a terminal, are src/cli/io.test.ts's.
    const forced = await halyard(paths, { FORCE_COLOR: '1' });
    expect(forced.out).toMatch(/1 failed/);
    expect(forced.out).toContain('\u001b[');
  });

  it('exits 2 for a missing path, a file that is not a test, a folder without tests', async () => {
    expect(await halyard(['test', path.join(dir, 'nope')])).toMatchObject({ code: 2, out: expect.stringContaining('no such file or folder') as string });
    expect(await halyard(['test', path.join(dir, 'good', 'once.mts')])).toMatchObject({ code: 2, out: expect.stringContaining('is not a test file') as string });
    expect(await halyard(['test', path.join(dir, 'empty')])).toMatchObject({ code: 2, out: expect.stringContaining('no test files in') as string });
  });
});
