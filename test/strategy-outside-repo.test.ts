/**
 * A strategy file outside any project imports `halyard/strategy` (docs/guides/strategy-project.md,
 * "A strategy file outside any project"): the loader resolves the package's bare specifiers to this
 * installation wherever the file is, in this thread and in a sweep worker thread, and the strategy
 * runs a backtest. Run from the sources here (vitest, tsx), the names map to src/ (the
 * `halyard-source` condition); built, to dist/. A project that installed the package needs none of
 * this (test/packed-project.test.ts).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageTargets } from '../src/strategy/loading/package-resolve.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
let dir: string;
let file: string;

// Buys once on its first bar; the testing kit import checks a second export of the package.
const SOURCE = `import { defineStrategy, place, z } from 'halyard/strategy';
import { testInstrument } from 'halyard/strategy/testing';
export const kitInstrument = testInstrument;
export default defineStrategy({
  name: 'outside',
  params: z.object({ symbol: z.string().default('BTCUSDT'), quote: z.string().default('100') }),
  symbols: (p) => [p.symbol],
  state: () => ({ done: false }),
  onBar(ctx) {
    if (ctx.state.done) return;
    ctx.state.done = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quote, tag: 'buy' })];
  },
});
`;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'halyard-outside-')));
  expect(dir.startsWith(ROOT)).toBe(false);
  file = path.join(dir, 'outside.mts');
  writeFileSync(file, SOURCE);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The check runs in a child process started as the CLI runs (Node with tsx registered): under
 * vitest, an import in the test's own process is resolved by Vite, not by Node's loader hooks.
 */
const CHECK = (root: string, strategyFile: string) => `import { runBacktest } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/backtest/run/run-backtest.ts')).href)};
import { buildGrid, parseSweepSpecs, runSweep } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/backtest/sweep/sweep.ts')).href)};
import { loadStrategy } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/strategy/loading/loader.ts')).href)};
import { candlesFromCloses, testInstrument } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/strategy/testing/index.ts')).href)};

const { definition, file } = await loadStrategy(${JSON.stringify(strategyFile)});
const mod = await import(${JSON.stringify(pathToFileURL(strategyFile).href)});
const instrument = testInstrument({ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT' });
const run = runBacktest({ strategy: definition, symbol: 'BTCUSDT', interval: '1m', bars: candlesFromCloses([100, 101, 102, 103, 104]), instrument, fees: { maker: '0.001', taker: '0.001' }, balances: { USDT: '1000' } });
const job = {
  strategy: file, baseParams: {}, symbol: 'BTCUSDT', interval: '1m',
  data: { kind: 'synthetic', seed: 3, bars: 50, regime: 'flat', startPrice: '30000' },
  instrument: { symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', baseAssetPrecision: 8, quoteAssetPrecision: 8, orderTypes: ['LIMIT', 'MARKET'],
    filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' }, { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '1000', stepSize: '0.00001' }] },
  fees: { maker: '0.001', taker: '0.001' }, balances: { USDT: '10000' },
};
const sweep = await runSweep(job, buildGrid(definition, parseSweepSpecs(['quote=100,200']), {}), { workers: 1 });
console.log(JSON.stringify({
  name: definition.name,
  file,
  kitShared: mod.kitInstrument === testInstrument,
  failures: run.strategyFailures,
  fills: run.fills.map((f) => [f.side, f.tag]),
  sweepFailed: sweep.failed,
  sweepFills: sweep.entries.map((e) => e.metrics.fills),
}));
`;

/** A plain `.ts` strategy (and a helper of its own) in a folder without a package.json: Node calls such files CommonJS. */
const PLAIN = `import { defineStrategy, place, z } from 'halyard/strategy';
import { quoteOf } from './plain-helper.ts';
export default defineStrategy({
  name: 'plain',
  params: z.object({}),
  symbols: ['BTCUSDT'],
  state: () => ({ done: false }),
  onBar(ctx) {
    if (ctx.state.done) return;
    ctx.state.done = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: quoteOf(), tag: 'plain' })];
  },
});
`;

const PLAIN_CHECK = (root: string, strategyFile: string) => `import { runBacktest } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/backtest/run/run-backtest.ts')).href)};
import { loadStrategy } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/strategy/loading/loader.ts')).href)};
import { candlesFromCloses, testInstrument } from ${JSON.stringify(pathToFileURL(path.join(root, 'src/strategy/testing/index.ts')).href)};
const { definition } = await loadStrategy(${JSON.stringify(strategyFile)});
const instrument = testInstrument({ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT' });
const run = runBacktest({ strategy: definition, symbol: 'BTCUSDT', interval: '1m', bars: candlesFromCloses([100, 101, 102]), instrument, fees: { maker: '0.001', taker: '0.001' }, balances: { USDT: '1000' } });
console.log(JSON.stringify({ name: definition.name, fills: run.fills.map((f) => [f.side, f.tag]), denials: run.denials.map((d) => d.reasons.join('; ')) }));
`;

describe('a strategy outside the repository importing halyard/strategy', () => {
  it('maps every entry of package.json "exports" to this installation', () => {
    expect(packageTargets()).toEqual({
      halyard: pathToFileURL(path.join(ROOT, 'src/index.ts')).href,
      'halyard/strategy': pathToFileURL(path.join(ROOT, 'src/strategy/index.ts')).href,
      'halyard/strategy/testing': pathToFileURL(path.join(ROOT, 'src/strategy/testing/index.ts')).href,
    });
  });

  it('loads with the loader, runs a backtest, and loads in a sweep worker thread', async () => {
    const check = path.join(dir, 'check.mts');
    writeFileSync(check, CHECK(ROOT, file));
    // From the temp folder: nothing above it resolves 'halyard'.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const { stdout } = await run(process.execPath, ['--import', tsx, check], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(JSON.parse(stdout)).toEqual({
      name: 'outside',
      file,
      kitShared: true,
      failures: [],
      fills: [['BUY', 'buy']],
      sweepFailed: [],
      sweepFills: [1, 1],
    });
  });

  it("a misspelt subpath (halyard/strategi) is named with the exports there are, not as a missing package 'halyard'", async () => {
    const typoDir = path.join(dir, 'typo');
    mkdirSync(typoDir);
    const strategy = path.join(typoDir, 'typo.ts');
    writeFileSync(strategy, PLAIN.replace("'halyard/strategy'", "'halyard/strategi'").replace("import { quoteOf } from './plain-helper.ts';\n", "const quoteOf = () => '1';\n"));
    const bin = path.join(ROOT, 'bin/halyard.mjs');
    const r = await run(process.execPath, [bin, 'strategies', strategy], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } }).then(
      () => ({ code: 0, err: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, err: e.stderr }),
    );
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: could not load strategy ${strategy}: 'halyard/strategi' is not something Halyard exports: import from 'halyard', 'halyard/strategy', 'halyard/strategy/testing'\n`);
  });

  it('loads a plain .ts file, and the helpers it imports, from a folder without a package.json (as ES modules)', async () => {
    const plainDir = path.join(dir, 'plain');
    mkdirSync(plainDir);
    writeFileSync(path.join(plainDir, 'plain.ts'), PLAIN);
    writeFileSync(path.join(plainDir, 'plain-helper.ts'), "export const quoteOf = (): string => '150';\n");
    const check = path.join(dir, 'plain-check.mts');
    writeFileSync(check, PLAIN_CHECK(ROOT, path.join(plainDir, 'plain.ts')));
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const { stdout } = await run(process.execPath, ['--import', tsx, check], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(JSON.parse(stdout)).toEqual({ name: 'plain', fills: [['BUY', 'plain']], denials: [] });
  });
});
