/**
 * The whole command (issue 25, deliverable 5): `halyard backtest` of a generated year of 1-minute
 * bars (525,600) from a journal, as a user runs it (a child process of bin/halyard.mjs running the
 * built package: start-up, journal read, simulation, metrics, summary, JSON, report), next to the
 * in-process simulation of the same year in the same run (a fresh process timing journal ->
 * simulate -> metrics, as the backtest suite's end-to-end figure). Targets: the command at most
 * 1.5x the simulation's wall time, peak RSS at most 200 MB.
 *
 * Same setup both ways: the SMA crossover with its defaults, the backtest suite's symbol rules
 * (given to the command as --exchange-info), fee 0.001, 100,000 PHP; the fills counted by both are
 * checked equal. The pairs run interleaved (simulation, command, ...) and the medians are
 * reported with every figure. The command's wall time is the parent's, spawn to exit; its peak RSS
 * is the child's own resourceUsage().maxRSS, written as it exits by a preloaded plain-JS module
 * (backtest-command-rss.mjs). The child runs with the node flags of the bin's shebang
 * (`--max-semi-space-size=1`), as `halyard backtest` runs from a shell; `BENCH_BIN_FLAGS=0` leaves
 * them out. dist/ is built first when it is not up to date (bin/dist-fresh.mjs: src/ and the
 * example strategies; the bin would run the sources through tsx otherwise); BENCH_RUNS sets the
 * pairs (default 3).
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseInstrument } from '../src/core/market/instrument.ts';
import { minuteYear } from '../src/core/synthetic/index.ts';
import { jitExecArgv } from '../src/app/jit-tuning.ts';
import { computeMetrics } from '../src/backtest/metrics/metrics.ts';
import { runBacktest } from '../src/backtest/run/run-backtest.ts';
import { journalBars } from '../src/backtest/sources/sources.ts';
import { openJournal } from '../src/journal/journal.ts';
import type { KlineInput } from '../src/journal/klines/kline-store.ts';
import smaCrossover from '../strategies/sma-crossover.ts';
import { BENCH_SYMBOL } from './backtest-symbol.ts';
import { ensureBuilt } from '../scripts/ensure-built.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SIM_FLAG = '--backtest-command-sim-child';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const FEE = '0.001';
const BALANCE = '100000';
/** The node flags of the bin's shebang (`#!/usr/bin/env -S node --max-semi-space-size=1`), read from the file: what a shell runs the command with. */
const BIN_FLAGS: string[] = process.env.BENCH_BIN_FLAGS === '0' ? [] : (readFileSync(new URL('../bin/halyard.mjs', import.meta.url), 'utf8').split('\n')[0] ?? '').split(/\s+/).filter((w) => w.startsWith('--'));

/** The backtest suite's symbol, as the exchangeInfo symbol object the command reads. */
const SYMBOL = BENCH_SYMBOL;

interface Figures {
  /** Wall time, ms. */
  ms: number;
  /** CPU time (user + system, every thread), ms: the simulation's timed part; the command's whole process. */
  cpu: number;
  /** Peak RSS, MB. */
  rss: number;
  fills: number;
}

interface CommandFigures extends Figures {
  jsonBytes: number;
  reportBytes: number;
}

/** In the simulation's child: journal -> simulate -> metrics, timed, as the backtest suite's end-to-end figure. */
function simChild(file: string): Figures {
  const journal = openJournal(file, { readonly: true });
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const run = runBacktest({ strategy: smaCrossover, symbol: 'BTCPHP', interval: '1m', bars: journalBars(journal, 'BTCPHP', '1m'), instrument: parseInstrument(SYMBOL), fees: { maker: FEE, taker: FEE }, balances: { PHP: BALANCE } });
  const fills = computeMetrics(run).fills;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu0);
  const rss = process.resourceUsage().maxRSS / 1024;
  journal.close();
  return { ms, cpu: (used.user + used.system) / 1000, rss, fills };
}

/** One fresh simulation child, with the CLI's V8 tiering settings and tsx (as the backtest suite's). */
function runSim(file: string): Promise<Figures> {
  return new Promise<Figures>((resolve, reject) => {
    const p = fork(fileURLToPath(import.meta.url), [SIM_FLAG, file], { execArgv: [...jitExecArgv(process.env), '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    p.once('message', (m) => resolve(m as Figures));
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`backtest-command bench: simulation child exited with ${String(code)}`))));
  });
}

/** One `halyard backtest` child over the year: its wall time from spawn to exit, its own peak RSS, the fills its summary counts. */
function runCommand(dir: string, file: string, rules: string, n: number): Promise<CommandFigures> {
  const out = join(dir, `out-${n}`);
  const rssFile = join(dir, `rss-${n}`);
  const args = [...BIN_FLAGS, '--import', join(ROOT, 'bench/backtest-command-rss.mjs'), join(ROOT, 'bin/halyard.mjs'), 'backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m'];
  args.push('--journal', file, '--exchange-info', rules, '--fee', FEE, '--balance', `PHP=${BALANCE}`, '--out-dir', out);
  return new Promise<CommandFigures>((resolve, reject) => {
    const start = process.hrtime.bigint();
    const p = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, HALYARD_BIN: 'dist', BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.once('error', reject);
    p.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) return reject(new Error(`backtest-command bench: halyard backtest exited with ${String(code)}: ${stderr}`));
      const fills = Number(/Fills +(\d+)/.exec(stdout)?.[1] ?? NaN);
      const json = /^json +(.+)$/m.exec(stdout)?.[1] ?? '';
      const report = /^report +(.+)$/m.exec(stdout)?.[1] ?? '';
      const [maxRss, cpu] = readFileSync(rssFile, 'utf8').split(' ').map(Number) as [number, number];
      resolve({ ms, cpu: cpu / 1000, rss: maxRss / 1024, fills, jsonBytes: statSync(json).size, reportBytes: statSync(report).size });
    });
  });
}

function writeJournal(file: string): void {
  const j = openJournal(file);
  let batch: KlineInput[] = [];
  for (const c of minuteYear(1)) {
    batch.push({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'bench' });
    if (batch.length === 20_000) {
      j.klines.insertKlines(batch);
      batch = [];
    }
  }
  if (batch.length) j.klines.insertKlines(batch);
  j.close();
}


const loadAverage = (): string => `${loadavg()[0]?.toFixed(2) ?? '?'} on ${availableParallelism()} cores`;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export async function run(): Promise<string[]> {
  const built = ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bench-command-'));
  try {
    const file = join(dir, 'year.db');
    writeJournal(file);
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify(SYMBOL));
    const loadBefore = loadAverage();
    const sims: Figures[] = [];
    const commands: CommandFigures[] = [];
    for (let i = 0; i < RUNS; i++) {
      sims.push(await runSim(file));
      commands.push(await runCommand(dir, file, rules, i));
    }
    const fills = new Set([...sims, ...commands].map((r) => r.fills));
    if (fills.size !== 1) throw new Error(`backtest-command bench: the runs' fills differ (${[...fills].join(', ')}): not the same run`);
    const sim = median(sims.map((r) => r.ms));
    const cmd = median(commands.map((r) => r.ms));
    const peak = Math.max(...commands.map((r) => r.rss));
    const ratio = cmd / sim;
    const simCpu = median(sims.map((r) => r.cpu));
    const cmdCpu = median(commands.map((r) => r.cpu));
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const last = commands.at(-1) as CommandFigures;
    return [
      `Whole command: \`halyard backtest\` of a year of one-minute bars from a journal (SMA crossover, ${[...fills][0]} fills), a child process running the built package (${built}) with node${BIN_FLAGS.length === 0 ? "'s defaults" : ` ${BIN_FLAGS.join(' ')}`}, against the in-process simulation of the same year (journal -> simulate -> metrics, a fresh process); the median of ${RUNS}, interleaved`,
      `  in-process simulation        ${s(sim).padStart(8)}  peak RSS ${median(sims.map((r) => r.rss)).toFixed(0)} MB (the runs: ${sims.map((r) => s(r.ms)).join(', ')})`,
      `  halyard backtest             ${s(cmd).padStart(8)}  peak RSS ${median(commands.map((r) => r.rss)).toFixed(0)} MB (the runs: ${commands.map((r) => `${s(r.ms)} ${r.rss.toFixed(0)} MB`).join(', ')})`,
      `  the command ${ratio.toFixed(2)}x the simulation (target <= 1.5x: ${verdict(ratio <= 1.5)}); its highest peak RSS ${peak.toFixed(0)} MB (target <= 200 MB: ${verdict(peak <= 200)}); it wrote the JSON (${mb(last.jsonBytes)}) and the report (${mb(last.reportBytes)})`,
      `  CPU time (user + system, every thread; medians): the simulation's timed part ${s(simCpu)}, the command's whole process ${s(cmdCpu)} (${(cmdCpu / simCpu).toFixed(2)}x): less moved by other processes' load than the wall times`,
      `  load average ${loadBefore} before, ${loadAverage()} after`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === SIM_FLAG && process.argv[3]) {
  const result = simChild(process.argv[3]);
  process.send?.(result, () => process.exit(0));
}
