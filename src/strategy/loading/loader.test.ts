import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrategyLoadError } from '../errors.ts';
import { commonJsHint, DEFAULT_STRATEGIES_DIR, listStrategies, loadStrategy, ownFileName, resolveStrategy } from './loader.ts';

const INDEX = fileURLToPath(new URL('../index.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;

const strategyModule = (name: string) => `import { defineStrategy, z } from ${JSON.stringify(INDEX)};
export default defineStrategy({ name: '${name}', params: z.object({}), symbols: ['BTCPHP'], onBar: () => [] });
`;

async function loadError(ref: string): Promise<StrategyLoadError> {
  try {
    await loadStrategy(ref, { strategiesDir: dir, cwd: dir });
  } catch (e) {
    expect(e).toBeInstanceOf(StrategyLoadError);
    return e as StrategyLoadError;
  }
  throw new Error(`expected ${ref} to fail`);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'halyard-strategies-'));
  writeFileSync(path.join(dir, 'alpha.ts'), strategyModule('alpha'));
  writeFileSync(path.join(dir, 'alpha.test.ts'), '// not a strategy');
  mkdirSync(path.join(dir, 'beta'));
  writeFileSync(path.join(dir, 'beta', 'index.ts'), strategyModule('beta'));
  writeFileSync(path.join(dir, 'gamma.mjs'), strategyModule('gamma'));
  writeFileSync(path.join(dir, 'named-only.ts'), strategyModule('named').replace('export default', 'export const named ='));
  writeFileSync(path.join(dir, 'plain.ts'), 'export default { name: "plain", onBar() { return []; } };\n');
  writeFileSync(path.join(dir, 'broken.ts'), 'export default defineStrategy({ name: "broken", \n  params: z.object({ ,\n');
  writeFileSync(path.join(dir, 'throws.ts'), 'throw new Error("top-level boom");\nexport default 1;\n');
  writeFileSync(path.join(dir, 'bad-def.ts'), strategyModule('bad def'));
  mkdirSync(path.join(dir, 'empty-folder'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('listStrategies', () => {
  it('lists files and folders with an index, not tests', () => {
    expect(listStrategies(dir)).toEqual(['alpha', 'bad-def', 'beta', 'broken', 'gamma', 'named-only', 'plain', 'throws']);
  });

  it('lists the project examples by default', () => {
    expect(DEFAULT_STRATEGIES_DIR).toBe(path.join(ROOT, 'strategies') + path.sep);
    expect(listStrategies()).toEqual(expect.arrayContaining(['grid', 'market-maker', 'sma-crossover']));
    expect(listStrategies(path.join(dir, 'nope'))).toEqual([]);
  });
});

describe('loadStrategy', () => {
  it('loads by name: file, folder index, .mjs', async () => {
    expect((await loadStrategy('alpha', { strategiesDir: dir })).definition.name).toBe('alpha');
    const beta = await loadStrategy('beta', { strategiesDir: dir });
    expect(beta.definition.name).toBe('beta');
    expect(beta.file).toBe(path.join(dir, 'beta', 'index.ts'));
    expect((await loadStrategy('gamma', { strategiesDir: dir })).definition.name).toBe('gamma');
  });

  it('loads by relative or absolute path', async () => {
    expect((await loadStrategy('./alpha.ts', { cwd: dir })).definition.name).toBe('alpha');
    expect((await loadStrategy(path.join(dir, 'gamma.mjs'))).file).toBe(path.join(dir, 'gamma.mjs'));
  });

  it('loads the project examples by name', async () => {
    const { definition, file } = await loadStrategy('sma-crossover');
    expect(definition.name).toBe('sma-crossover');
    expect(file).toBe(path.join(ROOT, 'strategies', 'sma-crossover.ts'));
  });

  it('unknown name: lists what is available', async () => {
    const e = await loadError('delta');
    expect(e.reason).toBe('unknown-strategy');
    expect(e.message).toContain(`unknown strategy 'delta'; available in ${dir}: alpha, bad-def, beta, broken, gamma, named-only, plain, throws`);
    expect((await loadError('../etc')).reason).toBe('not-found');
    expect((await loadError('empty-folder')).reason).toBe('unknown-strategy');
    expect((await loadError('')).reason).toBe('bad-reference');
  });

  it('missing file by path', async () => {
    const e = await loadError('./missing.ts');
    expect(e.reason).toBe('not-found');
    expect(e.message).toBe(`strategy file not found: ${path.join(dir, 'missing.ts')}`);
  });

  it('syntax error and top-level throws name the file', async () => {
    const broken = await loadError('broken');
    expect(broken.reason).toBe('import-failed');
    expect(broken.message).toContain(`could not load strategy ${path.join(dir, 'broken.ts')}`);
    expect(broken.file).toBe(path.join(dir, 'broken.ts'));
    const throws = await loadError('throws');
    expect(throws.message).toContain('top-level boom');
    const badDef = await loadError('bad-def');
    expect(badDef.message).toMatch(/strategy 'bad def': name must be/);
  });

  it('a syntax error in an .mts or .cts file names that file, not a .ts one', async () => {
    writeFileSync(path.join(dir, 'syntax.mts'), 'export default {\n  name: ,\n};\n');
    const e = await loadError('./syntax.mts');
    expect(e.message).toContain(`could not load strategy ${path.join(dir, 'syntax.mts')}`);
    expect(e.message).not.toContain(path.join(dir, 'syntax.ts'));
    // tsx's transform (the CLI's) names the file x.ts:line:column
    expect(ownFileName('Transform failed with 1 error:\n/tmp/strat/syntax.ts:2:8: ERROR: Unexpected ","', '/tmp/strat/syntax.mts')).toBe('Transform failed with 1 error:\n/tmp/strat/syntax.mts:2:8: ERROR: Unexpected ","');
    expect(ownFileName('/a/b.ts:1:1: ERROR: x', '/a/b.cts')).toBe('/a/b.cts:1:1: ERROR: x');
    expect(ownFileName('/a/b.ts:1:1: ERROR: x', '/a/b.ts')).toBe('/a/b.ts:1:1: ERROR: x');
  });

  it('no default export, and a default that is not a strategy', async () => {
    const named = await loadError('named-only');
    expect(named.reason).toBe('no-default-export');
    expect(named.message).toContain("(it exports 'named': make it the default export)");
    const plain = await loadError('plain');
    expect(plain.reason).toBe('not-a-strategy');
    expect(plain.message).toContain('is not a strategy: wrap it in defineStrategy');
  });

  it('resolves without importing', () => {
    expect(resolveStrategy('alpha', { strategiesDir: dir })).toBe(path.join(dir, 'alpha.ts'));
  });

  it('says how to load a file that Node took for CommonJS', () => {
    const cycle = Object.assign(new Error('Cannot require() ES Module /x/strat.ts in a cycle.'), { code: 'ERR_REQUIRE_CYCLE_MODULE' });
    expect(commonJsHint('/x/strat.ts', cycle)).toMatch(/loaded as CommonJS .* rename it to strat\.mts, or put a package\.json containing \{"type": "module"\} in its folder/);
    expect(commonJsHint('/x/strat.js', new Error('require() of ES Module /y.ts not supported'))).toMatch(/rename it to strat\.mjs/);
    expect(commonJsHint('/x/strat.ts', new SyntaxError('Unexpected token'))).toBe('');
  });
});
