/**
 * The live bot (issue 21 acceptance, `npm run bench`): resident memory of the bot running 3
 * strategies on 5 symbols over an hour of 1-minute bars on virtual time (target at most 150 MB),
 * and CPU time per bar per strategy live, next to the backtest's per-bar time for the same
 * strategies on the same bars, measured in the same run.
 *
 * The bot runs in a child process (bench/bot-live-child.ts) so this process's memory does not
 * count, and the sandbox in a process of its own (bench/bot-live-sandbox.ts) so neither its
 * memory nor its CPU does. The children run with the flags `halyard run` runs with (the CLI's V8
 * tiering settings, src/app/jit-tuning.ts, and the node flags of the bin's shebang), compiled as
 * bin/halyard.mjs runs it (below); again compiled with V8's defaults and from the sources through
 * tsx, for comparison. The baseline: a bare Node process that loaded the same modules and did nothing else,
 * its RSS after a full GC, in the same run, split by two more processes that load nothing
 * (bench/bot-live-empty.mjs, with and without tsx): what Node alone, tsx's loader and the modules
 * each hold. The peak is the kernel's high-water mark read before the bench forces its GC. Then
 * the same again with V8's young generation
 * capped (--max-semi-space-size=1): after a GC V8 keeps the semi-spaces it grew committed, which
 * is most of what separates the bot from the target (BENCHMARKS.md, "Live bot").
 *
 * Compiled: `halyard run` now runs dist/ (bin/halyard.mjs), not the sources through tsx. The same
 * child, built by esbuild (it ships with tsx; no new dependency) with every `../src/*.ts` import
 * left external and pointed at its compiled twin in dist/, runs without tsx: the figures the
 * built bin gives, next to the sources' in the same run. The sandbox keeps its tsx process.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { jitExecArgv } from '../src/app/jit-tuning.ts';
import type { BareResult, BotResult } from './bot-live-child.ts';
import { ensureBuilt } from '../scripts/ensure-built.mjs';

const TARGET_MB = 150;
/**
 * The node flags of the bin's shebang (`#!/usr/bin/env -S node --max-semi-space-size=1`): what
 * `halyard run` runs with. Read from the file, so the bench follows the bin. The young generation's
 * size works only on node's command line (V8 sizes the heap before any script runs); its run-time
 * cousin `--semi-space-growth-factor=1` was tried for `run`/`start` (session 17) and measured no
 * better than the defaults (144 MB after GC, 170 MB peak).
 */
const BIN_FLAGS: string[] = (readFileSync(new URL('../bin/halyard.mjs', import.meta.url), 'utf8').split('\n')[0] ?? '').split(/\s+/).filter((w) => w.startsWith('--'));

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Ignored by git (bench/_*); beside the source child so its `./bot-live-sandbox.ts` URL still resolves. */
const COMPILED_CHILD = './_bot-live-child.compiled.mjs';

/** Brings dist/ up to date (scripts/ensure-built.mjs) and builds the child against it: imports of src/ become dist/ files. */
async function compileChild(): Promise<void> {
  ensureBuilt();
  await build({
    entryPoints: [fileURLToPath(new URL('./bot-live-child.ts', import.meta.url))],
    outfile: fileURLToPath(new URL(COMPILED_CHILD, import.meta.url)),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'src-to-dist',
        setup(b) {
          b.onResolve({ filter: /\/src\/.*\.ts$/ }, (args) => {
            const abs = path.resolve(args.resolveDir, args.path);
            const rel = path.relative(path.join(ROOT, 'src'), abs);
            return { path: path.join(ROOT, 'dist', rel.replace(/\.ts$/, '.js')), external: true };
          });
        },
      },
    ],
  });
}

function child<T>(mode: 'bare' | 'bot' | 'empty' | 'node', extra: readonly string[], compiled = false): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const file = mode === 'empty' || mode === 'node' ? './bot-live-empty.mjs' : compiled ? COMPILED_CHILD : './bot-live-child.ts';
    const tsx = mode !== 'node' && !compiled;
    const p = fork(fileURLToPath(new URL(file, import.meta.url)), [mode], {
      execArgv: ['--expose-gc', ...jitExecArgv(process.env), ...extra, ...(tsx ? ['--import', 'tsx'] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    p.once('message', (m) => resolve(m as T));
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`bot-live bench child (${mode}) exited with ${String(code)}`))));
  });
}

const mb = (x: number): string => x.toFixed(0).padStart(5);
const us = (ms: number, n: number): string => ((ms * 1000) / n).toFixed(1);

interface Floor {
  node: number;
  tsx: number;
}

function memoryLines(label: string, r: BotResult, bare: BareResult, floor: Floor, compiled: boolean): string[] {
  const q = r.rss.byQuarter.map((x) => x.toFixed(0)).join(', ');
  const split = compiled
    ? `node alone ${floor.node.toFixed(0)} MB, + the compiled modules ${(bare.rssMb - floor.node).toFixed(0)} MB`
    : `node alone ${floor.node.toFixed(0)} MB, + tsx's loader ${(floor.tsx - floor.node).toFixed(0)} MB, + the modules ${(bare.rssMb - floor.tsx).toFixed(0)} MB`;
  return [
    `  ${label}`,
    `    where the baseline goes: ${split} (all after a GC); the bot's own: ${(r.rss.afterGcMb - bare.rssMb).toFixed(0)} MB`,
    `    RSS after a full GC at the end of the hour   ${mb(r.rss.afterGcMb)} MB   baseline (bare node + the same modules, after a GC) ${mb(bare.rssMb)} MB: the bot holds ${(r.rss.afterGcMb - bare.rssMb).toFixed(0)} MB above it`,
    `    RSS peak (kernel high-water mark; sampled)   ${mb(r.rss.peakKernelMb)} MB; ${r.rss.peakSampledMb.toFixed(0)} MB (start-up's own peak ${r.rss.peakStartMb.toFixed(0)} MB)   target <= ${TARGET_MB} MB: ${r.rss.peakKernelMb <= TARGET_MB ? 'met' : 'NOT met'}`,
    `    RSS before start ${r.rss.beforeStartMb.toFixed(0)}, after start ${r.rss.afterStartMb.toFixed(0)}, at 15/30/45/60 min ${q} MB; V8 heap used after the GC ${r.rss.heapAfterGcMb.toFixed(1)} MB (baseline ${bare.heapMb.toFixed(1)} MB)`,
  ];
}

export async function run(): Promise<string[]> {
  const floorOf = async (extra: readonly string[]): Promise<Floor> => ({ node: (await child<{ rssMb: number }>('node', extra)).rssMb, tsx: (await child<{ rssMb: number }>('empty', extra)).rssMb });
  await compileChild();
  const floor = await floorOf([]);
  // What `halyard run` runs now (dist/), then the sources through tsx as before the build, then compiled with the young generation capped.
  const floorBin = await floorOf(BIN_FLAGS);
  const bareBuilt = await child<BareResult>('bare', BIN_FLAGS, true);
  const built = await child<BotResult>('bot', BIN_FLAGS, true);
  const bareDefaults = await child<BareResult>('bare', [], true);
  const defaults = await child<BotResult>('bot', [], true);
  const bare = await child<BareResult>('bare', []);
  const r = await child<BotResult>('bot', []);
  const strategyBars = built.bars * (built.strategies / built.symbols);
  const [btFirst, btWarm] = built.backtest.cpuMs as [number, number];
  const liveUs = (built.liveCpuMs * 1000) / strategyBars;
  return [
    `Live bot: 3 strategies (SMA crossover 10/30, RSI exits 14, DCA every 10 min) on each of ${r.symbols} symbols (${r.strategies} instances), ${r.minutes} one-minute bars on virtual time against the sandbox (own process) over HTTP/WebSocket: ${r.bars} bars (${r.missedBars} missed), ${r.orders} orders, ${r.fills} fills`,
    ...memoryLines(`memory, compiled (dist/), the bin's node flags (${BIN_FLAGS.join(' ') || 'none'}): what \`halyard run\` runs`, built, bareBuilt, floorBin, true),
    ...memoryLines('memory, compiled, V8\'s defaults:', defaults, bareDefaults, floor, true),
    ...memoryLines('memory, the sources through tsx, V8\'s defaults (before the build):', r, bare, floor, false),
    `  CPU per bar per strategy (process.cpuUsage of the bot's process, user + system, from the first minute to the last, / ${strategyBars} strategy-bars = ${r.bars} bars x ${r.strategies / r.symbols} strategies):`,
    `    backtest, the same ${r.strategies} instances on the same ${r.backtest.bars} strategy-bars from the run's journal (warm-up bars as history) ${us(btFirst, r.backtest.bars).padStart(8)} us (baseline); again, warm ${us(btWarm, r.backtest.bars)} us`,
    `    live                                                                                ${liveUs.toFixed(1).padStart(8)} us  ${(liveUs / ((btFirst * 1000) / r.backtest.bars)).toFixed(0)}x the backtest`,
    `    (live: the bot's work on bars, orders, fills, both streams and the journal, plus the driver's virtual-scheduler flushes and wall-time polling; the sandbox's ${r.sandboxCpuMs.toFixed(0)} ms CPU ran in its own process and is not counted; start-up ${r.startCpuMs.toFixed(0)} ms CPU not counted; the hour took ${(r.liveWallMs / 1000).toFixed(1)} s of wall time)`,
    `    the sources through tsx: live ${us(r.liveCpuMs, strategyBars)} us, backtest ${us(r.backtest.cpuMs[0] as number, r.backtest.bars)} us; compiled, V8's defaults: live ${us(defaults.liveCpuMs, strategyBars)} us, backtest ${us(defaults.backtest.cpuMs[0] as number, defaults.backtest.bars)} us`,
  ];
}
