/**
 * Backtest throughput (issue "Strategy plugins, the SQLite journal and the backtester",
 * deliverable 6): one year of 1-minute bars (525,600) through the SMA crossover, end to end:
 * read the bars from a journal, simulate (runner, order manager, simulated venue, matching
 * engine), compute the metrics. Target: >= 1,000,000 bars/s and peak RSS < 200 MB.
 *
 * The bars are written into a temp journal first (not timed). The timed work runs in a fresh
 * child process so its peak RSS (resourceUsage().maxRSS) is the backtest's, not the bar
 * generation's, and its first run pays the JIT warm-up a user's run pays. Three children run one
 * after the other: a single fresh process varies by about 10% on the standard machine, so the
 * median end-to-end figure is reported (with all three), and the highest peak RSS. The children
 * run with the CLI's V8 tiering settings (src/app/jit-tuning.ts), as a `halyard backtest` does.
 * Printed next to a same-run baseline: a hand-written loop over the same bars in plain arrays
 * computing the SMA cross, no framework; and the stages on their own (the journal read; the
 * simulation from bars already in memory). A fourth fresh process times the year a tenth at a
 * time (its bars counted through a thin iterator, so it is not one of the three), which tells
 * the first tenth's JIT warm-up from the steady state after it.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candle } from '../src/core/indicators/candle.ts';
import { parseInstrument } from '../src/core/market/instrument.ts';
import { minuteYear } from '../src/core/synthetic/index.ts';
import { jitExecArgv } from '../src/app/jit-tuning.ts';
import { computeMetrics } from '../src/backtest/metrics/metrics.ts';
import { runBacktest } from '../src/backtest/run/run-backtest.ts';
import type { BacktestOptions } from '../src/backtest/run/run-backtest.ts';
import type { BacktestRun } from '../src/backtest/types.ts';
import { journalBars } from '../src/backtest/sources/sources.ts';
import { openJournal } from '../src/journal/journal.ts';
import type { KlineInput } from '../src/journal/klines/kline-store.ts';
import smaCrossover from '../strategies/sma-crossover.ts';
import { BENCH_SYMBOL } from './backtest-symbol.ts';
import { row } from './harness.ts';
import type { Measurement } from './harness.ts';

const BARS = 525_600;
const CHILD_FLAG = '--backtest-bench-child';
const TIMELINE_FLAG = '--backtest-bench-timeline';
const TENTHS = 10;
/** Fresh processes run (the median is reported). */
const CHILDREN = 3;

const instrument = parseInstrument(BENCH_SYMBOL);

const options = (bars: Iterable<Candle>): BacktestOptions => ({
  strategy: smaCrossover,
  symbol: 'BTCPHP',
  interval: '1m',
  bars,
  instrument,
  fees: { maker: '0.001', taker: '0.001' },
  balances: { PHP: '100000' },
});

function timed(name: string, ops: number, fn: () => void): Measurement {
  const start = process.hrtime.bigint();
  fn();
  const ns = Number(process.hrtime.bigint() - start);
  return { name, ops, ms: ns / 1e6, nsPerOp: ns / ops, opsPerSec: (ops * 1e9) / ns };
}

/** The baseline: SMA(10) / SMA(30) cross over plain arrays, position flips at the next open, no framework. */
function plainLoop(opens: Float64Array, closes: Float64Array): number {
  let fastSum = 0;
  let slowSum = 0;
  let prevDiff = NaN;
  let held = 0;
  let cash = 100_000;
  for (let i = 0; i < closes.length; i++) {
    const c = closes[i] as number;
    fastSum += c - (i >= 10 ? (closes[i - 10] as number) : 0);
    slowSum += c - (i >= 30 ? (closes[i - 30] as number) : 0);
    if (i < 29 || i + 1 >= closes.length) continue;
    const diff = fastSum / 10 - slowSum / 30;
    const next = opens[i + 1] as number;
    if (diff > 0 && prevDiff <= 0 && held === 0) {
      held = (1000 / next) * 0.999;
      cash -= 1000;
    } else if (diff < 0 && prevDiff >= 0 && held > 0) {
      cash += held * next * 0.999;
      held = 0;
    }
    prevDiff = diff;
  }
  return cash;
}

interface ChildResult {
  e2e: Measurement;
  warm: Measurement;
  read: Measurement;
  sim: Measurement;
  base: Measurement;
  fills: number;
  rss: number;
  startRss: number;
  live: number;
  equityPoints: number;
}

/** In the child: the end-to-end run first (its peak RSS is the one reported), then the stages and the baseline. */
function child(file: string): ChildResult {
  const startRss = process.memoryUsage().rss / 2 ** 20;
  const journal = openJournal(file, { readonly: true });
  let fills = 0;
  let run: BacktestRun | undefined;
  const e2e = timed('end to end: journal -> simulate -> metrics', BARS, () => {
    run = runBacktest(options(journalBars(journal, 'BTCPHP', '1m')));
    fills = computeMetrics(run).fills;
  });
  const rss = process.resourceUsage().maxRSS / 1024;
  (globalThis as { gc?: () => void }).gc?.();
  const live = process.memoryUsage().heapUsed / 2 ** 20;
  // The same again in this process, its code now optimised: what each run of a sweep's worker
  // after its first, or a walk-forward window, costs.
  const warm = timed('end to end again in the same process (warm: a sweep worker\'s later runs)', BARS, () => {
    computeMetrics(runBacktest(options(journalBars(journal, 'BTCPHP', '1m'))));
  });
  let count = 0;
  const read = timed('stage: journal read only (journalBars)', BARS, () => {
    for (const c of journalBars(journal, 'BTCPHP', '1m')) count += c.close > 0 ? 1 : 0;
  });
  const candles: Candle[] = [];
  const opens = new Float64Array(BARS);
  const closes = new Float64Array(BARS);
  for (const c of journalBars(journal, 'BTCPHP', '1m')) {
    opens[candles.length] = c.open;
    closes[candles.length] = c.close;
    candles.push({ ...c, exact: { ...c.exact } });
  }
  journal.close();
  const sim = timed('stage: simulate from bars in memory', BARS, () => void runBacktest(options(candles)));
  let sink = 0;
  const base = timed('plain loop over the same arrays, no framework', BARS, () => (sink = plainLoop(opens, closes)));
  if (count !== BARS || !(sink > 0)) throw new Error('backtest bench: bars were not all read');
  return { e2e, warm, read, sim, base, fills, rss, startRss, live, equityPoints: run?.equity.length ?? 0 };
}

/** The bars of `inner`, the time noted every `every` bars (and at the end): an iterator, not a generator, so a bar costs one more call. */
class TimedBars implements IterableIterator<Candle> {
  readonly marks: number[] = [];
  private n = 0;

  constructor(
    private readonly inner: Iterator<Candle>,
    private readonly every: number,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Candle> {
    if (this.n++ % this.every === 0) this.marks.push(performance.now());
    const r = this.inner.next();
    if (r.done === true) this.marks.push(performance.now());
    return r;
  }
}

/** In a fourth child: the end-to-end run with the time noted every tenth of the bars; ms per tenth, then the metrics. */
function timelineChild(file: string): number[] {
  const journal = openJournal(file, { readonly: true });
  const bars = new TimedBars(journalBars(journal, 'BTCPHP', '1m'), BARS / TENTHS);
  const run = runBacktest(options(bars));
  const t = performance.now();
  computeMetrics(run);
  const metrics = performance.now() - t;
  journal.close();
  const m = bars.marks;
  return [...m.slice(1, TENTHS + 1).map((x, i) => x - (m[i] as number)), metrics];
}

/** The report: the median child's figures (by end-to-end time), the three end-to-end figures, the highest peak RSS. */
function report(results: ChildResult[], timeline: number[]): string[] {
  const sorted = [...results].sort((a, b) => a.e2e.nsPerOp - b.e2e.nsPerOp);
  const m = sorted[Math.floor(sorted.length / 2)] as ChildResult;
  const rss = Math.max(...results.map((r) => r.rss));
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const rate = (x: Measurement) => Math.round(x.opsPerSec).toLocaleString('en-US');
  return [
    `Backtest, SMA crossover 10/30 over ${BARS.toLocaleString('en-US')} one-minute bars (${m.fills} fills), per bar; the median of ${results.length} fresh processes`,
    row(m.base),
    row(m.e2e, m.base),
    row(m.warm, m.base),
    row(m.read, m.base),
    row(m.sim, m.base),
    `  end to end: ${rate(m.e2e)} bars/s (target 1,000,000: ${verdict(m.e2e.opsPerSec >= 1e6)}; the ${results.length} processes: ${results.map((r) => rate(r.e2e)).join(', ')}); ` +
      `peak RSS ${rss.toFixed(0)} MB, the highest of the ${results.length} (target < 200 MB: ${verdict(rss < 200)})`,
    `  memory: ${m.startRss.toFixed(0)} MB RSS before the run (node + tsx + modules); live heap after a full GC, with the result (${m.equityPoints} equity points) kept: ${m.live.toFixed(0)} MB`,
    timelineLine(timeline),
  ];
}

/** "a fresh year by tenths": the ms of each, the steady state (the median of tenths 2-10) and what the first costs above it. */
function timelineLine(t: number[]): string {
  const tenths = t.slice(0, TENTHS);
  const rest = tenths.slice(1).sort((a, b) => a - b);
  const steady = rest[Math.floor(rest.length / 2)] as number;
  return (
    `  a fresh year by tenths (a fourth process): ${tenths.map((x) => x.toFixed(0)).join(', ')} ms, then the metrics ${(t[TENTHS] as number).toFixed(0)} ms; ` +
    `steady state ${((steady * 1000) / (BARS / TENTHS)).toFixed(2)} us/bar (the median tenth after the first); the first tenth's warm-up ${((tenths[0] as number) - steady).toFixed(0)} ms above it`
  );
}

function writeJournal(file: string): void {
  const j = openJournal(file);
  const year = minuteYear(1);
  let batch: KlineInput[] = [];
  for (const c of year) {
    batch.push({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'bench' });
    if (batch.length === 20_000) {
      j.klines.insertKlines(batch);
      batch = [];
    }
  }
  if (batch.length) j.klines.insertKlines(batch);
  j.close();
}

/** One fresh child process over the journal (`flag`: what it runs). */
function runChild<T = ChildResult>(file: string, flag = CHILD_FLAG): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const p = fork(fileURLToPath(import.meta.url), [flag, file], { execArgv: ['--expose-gc', ...jitExecArgv(process.env), '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    p.once('message', (m) => resolve(m as T));
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`backtest bench child exited with ${String(code)}`))));
  });
}

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bench-backtest-'));
  try {
    const file = join(dir, 'year.db');
    writeJournal(file);
    const results: ChildResult[] = [];
    for (let i = 0; i < CHILDREN; i++) results.push(await runChild(file));
    const timeline = await runChild<number[]>(file, TIMELINE_FLAG);
    return report(results, timeline);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === CHILD_FLAG && process.argv[3]) {
  const result = child(process.argv[3]);
  process.send?.(result, () => process.exit(0));
}
if (process.argv[2] === TIMELINE_FLAG && process.argv[3]) {
  const result = timelineChild(process.argv[3]);
  process.send?.(result, () => process.exit(0));
}
