/**
 * Start-up (issue 25, deliverables 3 and 5): wall time of `halyard --help` and `halyard
 * strategies` as processes, next to `node -e 0` in the same run. Target: each at most 0.3 s slower
 * than `node -e 0` (median of 5).
 *
 * Runs interleaved (one of each, five times) so a burst of load hits them alike; medians reported.
 * The bin runs the built package (HALYARD_BIN=dist; dist/ is built first when stale, as the bin
 * would otherwise run the sources). Also shown: `--version`, `node dist/main.js --help` (the bin's
 * check that dist/ is up to date, which only a checkout makes, is the difference) and the bin on
 * the sources through tsx (HALYARD_BIN=source: what start-up was before the build). Built,
 * `strategies` prints the compiled examples from dist/strategies/descriptions.json (the build
 * makes it): no zod, no strategy layer, no tsx; from the sources it imports each through tsx.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../scripts/ensure-built.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin/halyard.mjs');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const TARGET_S = 0.3;

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

const CASES: readonly Case[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'halyard --help', args: [BIN, '--help'], env: { HALYARD_BIN: 'dist' } },
  { name: 'halyard strategies', args: [BIN, 'strategies'], env: { HALYARD_BIN: 'dist' } },
  { name: 'halyard --version', args: [BIN, '--version'], env: { HALYARD_BIN: 'dist' } },
  { name: 'node dist/main.js --help (no freshness check)', args: [join(ROOT, 'dist/main.js'), '--help'] },
  { name: 'halyard --help from the sources (tsx)', args: [BIN, '--help'], env: { HALYARD_BIN: 'source' } },
];


interface Timing {
  /** Wall time, s. */
  readonly wall: number;
  /** The process's CPU time (user + system), s: unlike the wall time, hardly moved by other load on the machine. */
  readonly cpu: number;
}

/**
 * One run, through `sh -c '... ; times'`: the shell's `times` reports its child's user and system
 * time (POSIX). The shell's own few milliseconds are in every case's wall time alike, the baseline's too.
 */
function timeOnce(c: Case): Timing {
  const start = process.hrtime.bigint();
  const r = spawnSync('/bin/sh', ['-c', '"$0" "$@" >/dev/null || exit $?; times', process.execPath, ...c.args], { cwd: ROOT, env: { ...process.env, ...c.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`startup bench: ${c.name} exited ${r.status}: ${r.stderr}`);
  // `times`: the shell's user and system time, then its children's ("0m0.120s 0m0.030s").
  const children = r.stdout.trim().split('\n').at(-1) ?? '';
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  return { wall, cpu };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** The 1-minute load average and the core count: the figures mean little without them. */
const loadAverage = (): string => `${loadavg()[0]?.toFixed(2) ?? '?'} on ${availableParallelism()} cores`;

export async function run(): Promise<string[]> {
  const built = ensureBuilt();
  for (const c of CASES) timeOnce(c); // warm the file cache (and tsx's compile cache for the sources)
  const times = new Map<string, Timing[]>(CASES.map((c) => [c.name, []]));
  const before = loadAverage();
  for (let i = 0; i < RUNS; i++) for (const c of CASES) times.get(c.name)?.push(timeOnce(c));
  const baseRuns = times.get('node -e 0') ?? [];
  const base = median(baseRuns.map((t) => t.wall));
  const baseCpu = median(baseRuns.map((t) => t.cpu));
  const lines = [
    `startup (${built}; median of ${RUNS}, interleaved; target: halyard --help and strategies at most ${TARGET_S} s over node -e 0; load ${before} before, ${loadAverage()} after)`,
    `  ${''.padEnd(48)} wall       over node -e 0   CPU (user+sys), over node -e 0`,
  ];
  for (const c of CASES) {
    const xs = times.get(c.name) ?? [];
    const m = median(xs.map((t) => t.wall));
    const cpu = median(xs.map((t) => t.cpu));
    const over = m - base;
    const verdict = c.name === 'halyard --help' || c.name === 'halyard strategies' ? (over <= TARGET_S ? ' within target' : ' OVER target') : '';
    const cpuText = `${cpu.toFixed(2)} s${c === CASES[0] ? '' : ` (+${(cpu - baseCpu).toFixed(2)})`}`;
    lines.push(`  ${c.name.padEnd(48)} ${m.toFixed(3)} s  ${(c === CASES[0] ? '(baseline)' : `+${over.toFixed(3)} s${verdict}`).padEnd(24)} ${cpuText.padEnd(16)} runs ${xs.map((x) => x.wall.toFixed(2)).join(' ')}`);
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await run()) console.log(l);
