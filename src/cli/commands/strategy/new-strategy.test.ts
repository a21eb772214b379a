/**
 * `halyard new-strategy`: every template, written inside this repository (a nested folder: the
 * relative imports) and outside it (`halyard/strategy`), loads with the project's loader and runs
 * a backtest on a canned market without failures; one generated test passes under `halyard test`
 * as the printed next step says; bad input is refused with exit 2, naming the argument.
 *
 * Outside the repository the strategy's `halyard/strategy` resolves through the loader's Node
 * resolve hook, which an import in this test's own process (resolved by Vite) would not use: those
 * strategies are loaded in a child process started as the CLI starts (Node with tsx registered).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStrategy } from '../../../strategy/loading/loader.ts';
import { runOnRegime } from '../../../strategy/testing/index.ts';
import { runCli } from '../../index.ts';
import type { CliIo } from '../../io.ts';
import { runCommand } from '../../test-support.ts';
import { newStrategyCommand, relativeImport, runNewStrategy } from './new-strategy.ts';
import { TEMPLATE_NAMES } from './strategy-templates.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = path.join(ROOT, 'bin/halyard.mjs');
let inside: string; // a temp folder in the repository, the files two levels under it
let outside: string;

beforeAll(() => {
  // A dot folder: not in tsconfig's, vitest's or the strategies folder's reach while it exists.
  inside = mkdtempSync(path.join(ROOT, '.tmp-new-strategy-'));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'halyard-new-strategy-')));
});
afterAll(() => {
  rmSync(inside, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const run = (argv: string[]) => runCommand(newStrategyCommand, argv);

function node(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}

describe('halyard new-strategy inside the repository', () => {
  for (const template of TEMPLATE_NAMES) {
    it(`${template}: writes a strategy importing ../src/strategy relatively from a nested folder; it loads and runs a backtest without failures`, async () => {
      const dir = path.join(inside, 'nested', 'deeper');
      const name = `in-${template}`;
      const r = await run(['new-strategy', name, '--template', template, '--dir', dir]);
      expect(r).toMatchObject({ code: 0, err: '' });
      const source = readFileSync(path.join(dir, `${name}.ts`), 'utf8');
      const depth = path.relative(ROOT, dir).split(path.sep).length;
      const up = '../'.repeat(depth);
      expect(source).toContain(`from '${up}src/strategy/index.ts';`);
      expect(source).toContain(`name: '${name}',`);
      expect(readFileSync(path.join(dir, `${name}.test.ts`), 'utf8')).toContain(`from '${up}src/strategy/testing/index.ts';`);

      const { definition } = await loadStrategy(path.join(dir, `${name}.ts`));
      expect(definition.name).toBe(name);
      const { run: backtest, fills } = runOnRegime(definition, 'downThenUp', {}, { bars: 600 });
      expect(backtest.strategyFailures).toEqual([]);
      expect(backtest.denials).toEqual([]);
      if (template === 'blank') expect(fills).toEqual([]);
      else expect(fills.length).toBeGreaterThan(0);
    });
  }

  it('prints the next steps: the test and backtest commands, with paths from the project folder', async () => {
    const dir = path.join(inside, 'steps');
    const r = await run(['new-strategy', 'my-first', '--template', 'sma', '--dir', dir]);
    const rel = path.relative(process.cwd(), path.join(dir, 'my-first'));
    expect(r.out).toContain(`  npx halyard test ${rel}.test.ts\n`);
    expect(r.out).toContain(`  npx halyard backtest --strategy ${rel}.ts --symbol BTCPHP --interval 1m --journal backtest/out/demo-journal.db\n`);
  });

  it('relative imports: from strategies/ one level up, and always with ./ or ../', () => {
    expect(relativeImport(path.join(ROOT, 'strategies'), path.join(ROOT, 'src/strategy/index.ts'))).toBe('../src/strategy/index.ts');
    expect(relativeImport(path.join(ROOT, 'src'), path.join(ROOT, 'src/strategy/index.ts'))).toBe('./strategy/index.ts');
  });
});

describe('halyard new-strategy outside the repository', () => {
  it('writes every template importing halyard/strategy; each loads with the loader and runs a backtest without failures', async () => {
    const dir = path.join(outside, 'strats', 'nested');
    for (const template of TEMPLATE_NAMES) {
      const r = await run(['new-strategy', `out-${template}`, '--template', template, '--dir', dir]);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toContain(`  npx halyard test ${path.join(dir, `out-${template}.test.ts`)}\n`);
      expect(readFileSync(path.join(dir, `out-${template}.ts`), 'utf8')).toContain("from 'halyard/strategy';");
      expect(readFileSync(path.join(dir, `out-${template}.test.ts`), 'utf8')).toContain("from 'halyard/strategy/testing';");
    }
    const at = (p: string) => JSON.stringify(pathToFileURL(path.join(ROOT, p)).href);
    const check = path.join(outside, 'check.mts');
    writeFileSync(
      check,
      `import { loadStrategy } from ${at('src/strategy/loading/loader.ts')};
import { runOnRegime } from ${at('src/strategy/testing/index.ts')};
const out = {};
for (const template of ${JSON.stringify(TEMPLATE_NAMES)}) {
  const { definition } = await loadStrategy(${JSON.stringify(dir)} + '/out-' + template + '.ts');
  const { run, fills } = runOnRegime(definition, 'downThenUp', {}, { bars: 600 });
  out[template] = { name: definition.name, failures: run.strategyFailures.length, denials: run.denials.length, fills: fills.length };
}
console.log(JSON.stringify(out));
`,
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    // From the temp folder: nothing above it resolves 'halyard' but the loader's hook.
    const r = await node(['--import', tsx, check], outside);
    expect(r.err).toBe('');
    const result = JSON.parse(r.out) as Record<string, { name: string; failures: number; denials: number; fills: number }>;
    for (const template of TEMPLATE_NAMES) {
      expect(result[template]).toMatchObject({ name: `out-${template}`, failures: 0, denials: 0 });
      expect(result[template]!.fills > 0).toBe(template !== 'blank');
    }
  });

  it('its generated test passes under `halyard test`, as the next steps say (exit 0)', async () => {
    const dir = path.join(outside, 'tested');
    expect((await run(['new-strategy', 'guarded', '--template', 'rsi-exits', '--dir', dir])).code).toBe(0);
    const r = await node([BIN, 'test', path.join(dir, 'guarded.test.ts')], ROOT);
    expect(r.out + r.err).toMatch(/3 passed/);
    expect(r.code).toBe(0);
  });
});

describe('halyard new-strategy refuses', () => {
  const dir = () => path.join(outside, 'refused');

  it('a NAME that is not kebab-case, or longer than 40 characters, naming it (exit 2)', async () => {
    for (const bad of ['MyFirst', '1st', 'my_first', 'my--first', 'my-first-', 'a'.repeat(41)]) {
      const r = await run(['new-strategy', bad, '--dir', dir()]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`NAME '${bad}'`);
    }
    expect(existsSync(dir())).toBe(false);
    expect((await run(['new-strategy', 'a'.repeat(40), '--template', 'blank', '--dir', dir()])).code).toBe(0);
  });

  it('an unknown template, listing the templates', async () => {
    const r = await run(['new-strategy', 'x', '--template', 'macd', '--dir', dir()]);
    expect(r).toMatchObject({ code: 2, err: "error: --template 'macd' is not a template: one of sma, rsi-exits, grid, blank" });
  });

  it('an existing file unless --force, which overwrites both', async () => {
    const d = path.join(outside, 'existing');
    expect((await run(['new-strategy', 'twice', '--template', 'blank', '--dir', d])).code).toBe(0);
    writeFileSync(path.join(d, 'twice.ts'), '// mine\n');
    const again = await run(['new-strategy', 'twice', '--template', 'sma', '--dir', d]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/twice\.ts and .*twice\.test\.ts already exist: choose another NAME or --dir, or give --force to overwrite/);
    expect(readFileSync(path.join(d, 'twice.ts'), 'utf8')).toBe('// mine\n');
    expect((await run(['new-strategy', 'twice', '--template', 'sma', '--dir', d, '--force'])).code).toBe(0);
    expect(readFileSync(path.join(d, 'twice.ts'), 'utf8')).toContain('SMA crossover');
  });

  it("the name of a strategy in strategies/ when writing elsewhere (--force or not); in strategies/ it is the existing-file rule", async () => {
    for (const extra of [[], ['--force']]) {
      const r = await run(['new-strategy', 'grid', '--dir', dir(), ...extra]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/NAME 'grid' is the name of a strategy in .*strategies.*; choose another name \(e\.g\. my-grid\)/);
    }
    // A strategies folder of its own (not this repository's, which the test leaves alone).
    const strategiesDir = path.join(outside, 'own-strategies');
    runNewStrategy({ name: 'mine', template: 'blank', dir: strategiesDir });
    expect(() => runNewStrategy({ name: 'mine', dir: strategiesDir }, { strategiesDir })).toThrow(/mine\.ts and .*mine\.test\.ts already exist/);
    expect(runNewStrategy({ name: 'mine', dir: strategiesDir, force: true }, { strategiesDir }).template).toBe('sma');
    expect(() => runNewStrategy({ name: 'mine', dir: path.join(outside, 'elsewhere') }, { strategiesDir })).toThrow(/NAME 'mine' is the name of a strategy/);
  });

  it('through the CLI: registered, and a missing NAME is a usage error (exit 2)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) };
    expect(await runCli(['new-strategy'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/missing <name>: halyard new-strategy <name>/);
    expect(await runCli(['new-strategy', 'via-cli', '--template', 'blank', '--dir', path.join(outside, 'cli')], io)).toBe(0);
    expect(out.join('\n')).toMatch(/Wrote .*via-cli\.ts \(template blank\)/);
  });
});

/** `--project DIR` (issue 25 item 2); that such a project installs, type-checks, tests and backtests is test/packed-project.test.ts's. */
describe('halyard new-strategy --project', () => {
  it('writes package.json (Halyard from this installation, typescript/vitest/@types/node at its versions), tsconfig (strict, exactOptionalPropertyTypes), .gitignore, the strategy and its test importing halyard/strategy', async () => {
    const dir = path.join(outside, 'My Project');
    const r = await run(['new-strategy', 'first', '--project', dir]);
    expect(r.code, r.err).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-project', private: true, type: 'module', dependencies: { halyard: `file:${ROOT.replace(/\/$/, '')}` } });
    for (const dep of ['typescript', 'vitest', '@types/node']) expect(pkg.devDependencies[dep]).toBe(own.devDependencies[dep]);
    const tsconfig = JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, exactOptionalPropertyTypes: true, module: 'NodeNext' });
    expect(readFileSync(path.join(dir, 'first.ts'), 'utf8')).toContain("from 'halyard/strategy'");
    expect(readFileSync(path.join(dir, 'first.test.ts'), 'utf8')).toContain("from 'halyard/strategy/testing'");
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toContain('node_modules/');
    expect(r.out).toMatch(/Wrote a strategy project in .*: first\.ts \(template sma\), first\.test\.ts, package\.json, tsconfig\.json, \.gitignore/);
    expect(r.out).toContain('npm install');
    expect(r.out).toContain('npx halyard backtest --strategy ./first.ts');
  });

  it('refuses existing files (unless --force), a folder inside this installation, and --dir beside it (exit 2, naming them)', async () => {
    const dir = path.join(outside, 'twice');
    expect((await run(['new-strategy', 'again', '--project', dir])).code).toBe(0);
    const again = await run(['new-strategy', 'again', '--project', dir]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/package\.json, .*tsconfig\.json, .*\.gitignore, .*again\.ts, .*again\.test\.ts already exist: choose another --project folder, or give --force/);
    expect((await run(['new-strategy', 'again', '--project', dir, '--force'])).code).toBe(0);
    const inside = await run(['new-strategy', 'inner', '--project', path.join(ROOT, 'tmp-project')]);
    expect(inside.code).toBe(2);
    expect(inside.err).toMatch(/is inside this installation/);
    expect(existsSync(path.join(ROOT, 'tmp-project'))).toBe(false);
    const both = await run(['new-strategy', 'both', '--project', dir, '--dir', dir]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--dir and --project both say where to write/);
  });
});
