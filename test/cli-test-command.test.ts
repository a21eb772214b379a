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

function halyard(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } }, (error, stdout, stderr) => {
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

  it('exits 2 for a missing path, a file that is not a test, a folder without tests', async () => {
    expect(await halyard(['test', path.join(dir, 'nope')])).toMatchObject({ code: 2, out: expect.stringContaining('no such file or folder') as string });
    expect(await halyard(['test', path.join(dir, 'good', 'once.mts')])).toMatchObject({ code: 2, out: expect.stringContaining('is not a test file') as string });
    expect(await halyard(['test', path.join(dir, 'empty')])).toMatchObject({ code: 2, out: expect.stringContaining('no test files in') as string });
  });
});
