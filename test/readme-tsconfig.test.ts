/**
 * README's tsconfig.json for a strategy outside this repository ("A strategy outside this
 * repository") type-checks such a strategy and its test with this installation's tsc: the names
 * `halyard/strategy`, `halyard/strategy/testing` and `vitest` resolve, and a `.test.mts` importing
 * a plain `.ts` strategy from a folder without a package.json gets its definition.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
let dir: string;

const STRATEGY = `import { defineStrategy, place, z } from 'halyard/strategy';
export default defineStrategy({
  name: 'outside-typed',
  params: z.object({ symbol: z.string().default('BTCUSDT'), quote: z.string().default('100') }),
  symbols: (p) => [p.symbol],
  onBar(ctx) {
    const rsi = ctx.bars().rsi(14).value;
    if (rsi !== undefined && rsi < 30) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quote })];
  },
});
`;

const TEST = `import { expect, it } from 'vitest';
import { runOnRegime } from 'halyard/strategy/testing';
import strategy from './my-strategy.ts';

it('runs', () => {
  const { run } = runOnRegime(strategy, 'flat');
  expect(run.strategyFailures).toEqual([]);
});
`;

/** README's tsconfig.json block (the one mapping the package's names), for this installation. */
function readmeTsconfig(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes('"halyard/*"'));
  if (block === undefined) throw new Error('README.md has no tsconfig block mapping halyard/*');
  return block.replaceAll('/path/to/halyard/', ROOT);
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'halyard-tsconfig-')));
  writeFileSync(path.join(dir, 'tsconfig.json'), readmeTsconfig());
  writeFileSync(path.join(dir, 'my-strategy.ts'), STRATEGY);
  writeFileSync(path.join(dir, 'my-strategy.test.mts'), TEST);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README's tsconfig for a strategy outside the repository", () => {
  it('type-checks the strategy and its test with no error (and catches a wrong import: the check is real)', async () => {
    // A namespace import is not a definition: the one error expected, so a tsc that checked nothing would fail.
    writeFileSync(path.join(dir, 'wrong.test.mts'), `import { runOnRegime } from 'halyard/strategy/testing';\nimport * as strategy from './my-strategy.ts';\nrunOnRegime(strategy, 'flat');\n`);
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const out = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => '',
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong\.test\.mts\(3,\d+\): error TS2345/);
  }, 120_000);
});
