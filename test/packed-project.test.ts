/**
 * Issue 25's acceptance, as a user meets it (docs/guides/strategy-project.md): Halyard packed with
 * `npm pack`, a fresh project outside the repository scaffolded by `halyard new-strategy --project`,
 * `npm install <tarball>` in it, then its TypeScript strategy type-checks against the shipped
 * declarations under strict + exactOptionalPropertyTypes (no skipLibCheck) with no error inside
 * Halyard, its test passes with the testing kit and vitest, and `npx halyard backtest --strategy
 * ./my-strategy.ts` runs it on a small journal imported from a generated CSV, as `--strategy
 * sma-crossover` runs a shipped example by name (compiled in the package: dist/strategies/).
 *
 * No network: npm runs `--offline`, and the project's lockfile (written here before the install)
 * links each third-party package to this repository's node_modules, so npm fetches nothing and
 * extracts only Halyard's tarball (a plain offline install from the npm cache works too but takes
 * minutes: it extracts typescript, vitest and the rest, and needs their metadata cached, which
 * `npm ci` never stores). Halyard itself is installed from the tarball, as a user's would be.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../scripts/ensure-built.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const NAME = 'my-strategy';
let tmp: string;
let proj: string;
let tarball: string;

/** The environment without npm's own variables (`npm test` sets npm_config_* that would steer the inner npm), uncoloured. */
const cleanEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !['NODE_OPTIONS', 'HALYARD_BIN', 'FORCE_COLOR'].includes(k))),
  NO_COLOR: '1',
});

interface Result {
  code: number;
  out: string;
}
async function sh(cmd: string, args: readonly string[], cwd: string): Promise<Result> {
  return run(cmd, [...args], { cwd, env: cleanEnv(), maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
}


/**
 * A lockfile linking every top-level package of this repository's lockfile to its folder in this
 * repository's node_modules: npm resolves Halyard's dependencies and the project's devDependencies
 * from it with nothing to fetch, and prunes the ones nothing needs.
 */
function linkedLockfile(projectDir: string, pkg: { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }): string {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const root = { name: pkg.name, devDependencies: pkg.devDependencies ?? {} };
  const packages: Record<string, unknown> = { '': root };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || key.slice('node_modules/'.length).includes('node_modules/')) continue;
    const target = path.relative(projectDir, path.join(ROOT, key));
    packages[key] = { resolved: target, link: true };
    const { dev: _dev, devOptional: _devOptional, peer: _peer, resolved: _resolved, integrity: _integrity, ...rest } = entry;
    packages[target] = rest;
  }
  return JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 2);
}

/** 300 one-minute BTCPHP bars (Binance's 12-column kline CSV): a slow wave, so the SMA template crosses. */
function klineCsv(): string {
  const t0 = Date.UTC(2024, 2, 1);
  const rows: string[] = [];
  let close = 3_400_000;
  for (let i = 0; i < 300; i++) {
    const open = close;
    close = Math.round(3_400_000 + 200_000 * Math.sin(i / 20));
    rows.push([t0 + i * 60_000, open, Math.max(open, close) + 500, Math.min(open, close) - 500, close, '1.5', t0 + i * 60_000 + 59_999, '5000000', 10, '0.7', '2400000', '0'].join(','));
  }
  return `${rows.join('\n')}\n`;
}

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'halyard-packed-')));
  expect(tmp.startsWith(ROOT)).toBe(false);
  ensureBuilt();
  const pack = await sh('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], ROOT);
  expect(pack.code, pack.out).toBe(0);
  tarball = path.join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz')) as string);

  proj = path.join(tmp, 'my-strategies');
  const scaffold = await sh(process.execPath, [path.join(ROOT, 'bin/halyard.mjs'), 'new-strategy', NAME, '--project', proj], tmp);
  expect(scaffold.code, scaffold.out).toBe(0);
  const pkg = JSON.parse(readFileSync(path.join(proj, 'package.json'), 'utf8')) as { name: string; devDependencies?: Record<string, string> };
  writeFileSync(path.join(proj, 'package-lock.json'), linkedLockfile(proj, pkg));
  const install = await sh('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], proj);
  expect(install.code, install.out).toBe(0);
}, 900_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

describe('Halyard packed and installed in a project of its own', () => {
  it('the tarball ships the built code, its declarations and the bin, not the sources or tests', async () => {
    const { out } = await sh('tar', ['tzf', tarball], tmp);
    const files = out.split('\n').filter(Boolean);
    for (const f of ['package/bin/halyard.mjs', 'package/dist/main.js', 'package/dist/index.d.ts', 'package/dist/strategy/index.d.ts', 'package/dist/strategy/testing/index.js', 'package/LICENSE']) expect(files).toContain(f);
    // The example strategies, compiled, and what `halyard strategies` prints of them.
    for (const f of ['package/dist/strategies/sma-crossover.js', 'package/dist/strategies/grid.js', 'package/dist/strategies/descriptions.json']) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('package/src/') || /\.test\.[jt]s$/.test(f) || f.endsWith('.tsbuildinfo'))).toEqual([]);
    // Installed from the tarball, not linked to this checkout.
    expect(statSync(path.join(proj, 'node_modules/halyard')).isDirectory()).toBe(true);
    expect(realpathSync(path.join(proj, 'node_modules/halyard')).startsWith(ROOT)).toBe(false);
    expect(JSON.parse(readFileSync(path.join(proj, 'package.json'), 'utf8')).dependencies.halyard).toMatch(/^file:.*\.tgz$/);
  });

  it('the strategy and its test type-check under strict + exactOptionalPropertyTypes, no skipLibCheck, with no error inside Halyard (and a wrong use is caught: the check is real)', async () => {
    const tsconfig = JSON.parse(readFileSync(path.join(proj, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, exactOptionalPropertyTypes: true });
    expect(tsconfig.compilerOptions['skipLibCheck']).toBeUndefined();
    // A namespace import is not a definition: the one error expected.
    writeFileSync(path.join(proj, 'wrong-use.ts'), `import { runOnRegime } from 'halyard/strategy/testing';\nimport * as strategy from './${NAME}.ts';\nrunOnRegime(strategy, 'flat');\n`);
    const r = await sh(process.execPath, [path.join(proj, 'node_modules/typescript/bin/tsc'), '-p', '.'], proj);
    rmSync(path.join(proj, 'wrong-use.ts'));
    const errors = r.out.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors, r.out).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong-use\.ts\(3,\d+\): error TS2345/);
  }, 300_000);

  it("the strategy's test passes with the testing kit and vitest", async () => {
    const r = await sh(process.execPath, [path.join(proj, 'node_modules/vitest/vitest.mjs'), 'run'], proj);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Tests\s+\S*\s*\d+ passed/);
  }, 300_000);

  it('`npx halyard backtest --strategy ./my-strategy.ts` runs it on a journal imported from a CSV', async () => {
    writeFileSync(path.join(proj, 'BTCPHP-1m-2024-03.csv'), klineCsv());
    const imported = await sh('npx', ['--offline', 'halyard', 'import', 'BTCPHP-1m-2024-03.csv', '--journal', 'journal.db'], proj);
    expect(imported.code, imported.out).toBe(0);
    const r = await sh('npx', ['--offline', 'halyard', 'backtest', '--strategy', `./${NAME}.ts`, '--symbol', 'BTCPHP', '--interval', '1m', '--journal', 'journal.db'], proj);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`Strategy  ${NAME}`);
    expect(r.out).toMatch(/Fills\s+[1-9]/);
    expect(readdirSync(path.join(proj, 'backtest/out')).some((f) => f.endsWith('.json'))).toBe(true);
    // A shipped example by name: compiled in the package, so it loads with no strategies/ folder and no tsx.
    const byName = await sh('npx', ['--offline', 'halyard', 'backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', 'journal.db'], proj);
    expect(byName.code, byName.out).toBe(0);
    expect(byName.out).toContain('Strategy  sma-crossover');
    expect(byName.out).toMatch(/Fills\s+[1-9]/);
    const listed = await sh('npx', ['--offline', 'halyard', 'strategies'], proj);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toMatch(/^sma-crossover: Long-only SMA crossover/m);
    expect(listed.out).not.toMatch(/cannot be loaded/);
  }, 300_000);
});
