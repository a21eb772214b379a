/**
 * The example strategies as the build ships them (issue 25, start-up; scripts/build.mjs): each of
 * strategies/ compiled to dist/strategies/, importing the built modules; dist/strategies/
 * descriptions.json, from which the built `halyard strategies` prints, equal to what the command
 * prints from the sources (the cache cannot drift from the code while this passes); the built
 * `halyard strategies` loads neither zod nor tsx, and a backtest of an example by name loads no
 * tsx (a resolve hook refuses them: the command would fail).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../scripts/ensure-built.mjs';
import { runStrategies } from '../src/cli/commands/strategy/strategies.ts';
import { formatStrategy } from '../src/cli/commands/strategy/strategies-format.ts';
import { loadStrategy } from '../src/strategy/loading/loader.ts';
import { listStrategies } from '../src/strategy/loading/strategy-names.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/halyard.mjs');
const BUILT = path.join(ROOT, 'dist/strategies');
let tmp: string;

/** A module for `node --import` registering a resolve hook that fails any import of these packages. */
function refusing(packages: readonly string[]): string {
  const file = path.join(tmp, `refuse-${packages.join('-')}.mjs`);
  const hook = `export async function resolve(s, c, next) { if (/^(${packages.join('|')})(\\/|$)/.test(s)) throw new Error('refused import: ' + s); return next(s, c); }`;
  writeFileSync(file, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`);
  return pathToFileURL(file).href;
}

/** The built bin (HALYARD_BIN=dist), any import of the `refused` packages failing. */
async function builtBin(args: readonly string[], cwd: string, refused: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, HALYARD_BIN: 'dist', NODE_OPTIONS: '', NO_COLOR: '1' };
  return run(process.execPath, ['--import', refusing(refused), BIN, ...args], { cwd, env, maxBuffer: 16 << 20 }).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === 'number' ? e.code : -1, out: e.stdout ?? '', err: e.stderr ?? '' }),
  );
}

beforeAll(async () => {
  ensureBuilt();
  tmp = mkdtempSync(path.join(tmpdir(), 'halyard-strategies-built-'));
}, 600_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

describe('the example strategies, built', () => {
  it('each is compiled to dist/strategies/ and imports the built modules, not the sources', () => {
    const sources = listStrategies(path.join(ROOT, 'strategies'));
    expect(sources.length).toBeGreaterThan(0);
    expect(listStrategies(BUILT)).toEqual(sources);
    for (const name of sources) {
      const js = readFileSync(path.join(BUILT, `${name}.js`), 'utf8');
      expect(js).toMatch(/from "\.\.\/strategy\/index\.js"/);
      expect(js).not.toMatch(/\.\.\/src\/|\.ts["']/);
    }
    expect(readdirSync(BUILT).filter((f) => f.includes('.test.'))).toEqual([]);
  });

  it('descriptions.json holds what `halyard strategies` prints of each, from the sources', async () => {
    const { strategies } = JSON.parse(readFileSync(path.join(BUILT, 'descriptions.json'), 'utf8')) as { strategies: Record<string, { file: string; text: string }> };
    const names = listStrategies(path.join(ROOT, 'strategies'));
    expect(Object.keys(strategies).sort()).toEqual(names);
    for (const name of names) {
      const { definition } = await loadStrategy(name);
      expect(strategies[name], name).toEqual({ file: `${name}.js`, text: formatStrategy(definition) });
    }
  });

  it('the built `halyard strategies` prints what the sources print, loading neither zod nor tsx', async () => {
    const out: string[] = [];
    await runStrategies({ env: {}, out: (t) => out.push(t), err: () => {} }, {} as never);
    const built = await builtBin(['strategies'], ROOT, ['tsx', 'zod']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    expect(built.out).toBe(`${out.join('\n')}\n`);
    const one = await builtBin(['strategies', 'grid'], ROOT, ['tsx', 'zod']);
    expect(one.out).toMatch(/^grid: Evenly spaced LIMIT buys/);
  }, 60_000);

  it('a strategy given by path still loads through tsx when built (the hook refusing tsx makes it fail: the check is real)', async () => {
    const r = await builtBin(['strategies', path.join(ROOT, 'strategies/grid.ts')], ROOT, ['tsx']);
    expect(`${r.out}${r.err}`).toMatch(/grid\.ts: cannot be loaded: refused import: tsx/);
  }, 60_000);

  it('`halyard backtest --strategy sma-crossover` runs the compiled example, with no tsx', async () => {
    const t0 = Date.UTC(2024, 2, 1);
    const rows: string[] = [];
    let close = 3_400_000;
    for (let i = 0; i < 200; i++) {
      const open = close;
      close = Math.round(3_400_000 + 200_000 * Math.sin(i / 15));
      rows.push([t0 + i * 60_000, open, Math.max(open, close) + 500, Math.min(open, close) - 500, close, '1.5', t0 + i * 60_000 + 59_999, '5000000', 10, '0.7', '2400000', '0'].join(','));
    }
    writeFileSync(path.join(tmp, 'BTCPHP-1m-2024-03.csv'), `${rows.join('\n')}\n`);
    const imported = await builtBin(['import', 'BTCPHP-1m-2024-03.csv', '--journal', 'j.db'], tmp, ['tsx']);
    expect(imported.code, imported.err).toBe(0);
    const r = await builtBin(['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', 'j.db', '--out-dir', 'out'], tmp, ['tsx']);
    expect(r.code, `${r.out}${r.err}`).toBe(0);
    expect(r.out).toContain('Strategy  sma-crossover');
    expect(r.out).toMatch(/Fills\s+[1-9]/);
  }, 120_000);
});
