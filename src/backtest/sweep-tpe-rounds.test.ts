/**
 * TPE searches through runSweep with injected runners (no backtests): the rounds, the order
 * recorded, determinism whatever order a pool finishes in, skipped and failed points, and the
 * point of it all: on a smooth 20x20 grid TPE reaches the optimum in far fewer trials than
 * random search does.
 */
import { describe, expect, it } from 'vitest';
import type { SweepGrid } from './sweep-grid.ts';
import type { BacktestJob, JobOutcome, SweepJob } from './sweep-job.ts';
import type { JobPool } from './sweep-pool.ts';
import { formatSweepTable, sweepToJson } from './sweep-format.ts';
import { sampleIndices, tpeGrid } from './sweep-sample.ts';
import { startupCount } from './sweep-tpe-rounds.ts';
import { runSweep } from './sweep.ts';
import type { BacktestMetrics } from './types.ts';
import { formatWalkForward, walkForwardToJson } from './walk-forward-format.ts';
import { runWalkForward } from './walk-forward.ts';

const job: SweepJob = { strategy: 'fake', symbol: 'BTCUSDT', interval: '1m', data: { kind: 'synthetic', seed: 1, bars: 10 }, instrument: {}, fees: { maker: '0', taker: '0' }, balances: {} };

const metrics = (sharpe: number): BacktestMetrics => ({ startEquity: 1, endEquity: 1, netPnl: 0, returnPct: 0, marketReturnPct: 0, cagrPct: 0, maxDrawdownPct: 0, calmar: 0, sharpe, sortino: 0, winRatePct: 0, profitFactor: 0, exposurePct: 0, feesPaid: 0, trades: 1, fills: 2 });
const ran = (sharpe: number): JobOutcome => ({ ok: true, metrics: metrics(sharpe), barCount: 10, from: 0, to: 1, denials: 0, strategyFailures: 0, logs: 0 });

/** A grid over x and y, each 1..n; `reject` marks points the schema would skip. */
function squareGrid(n: number, reject: (x: number, y: number) => boolean = () => false): SweepGrid {
  const values = Array.from({ length: n }, (_, i) => i + 1);
  const all = values.flatMap((x) => values.map((y) => ({ values: { x, y }, params: { x, y } })));
  return {
    axes: [
      { name: 'x', values },
      { name: 'y', values },
    ],
    points: all.filter((p) => !reject(p.values.x, p.values.y)),
    skipped: all.filter((p) => reject(p.values.x, p.values.y)).map((p) => ({ values: p.values, reason: 'y must be above x' })),
  };
}

/** A smooth bowl peaking at (14, 6). */
const bowl = (j: BacktestJob): JobOutcome => ran(-(((j.params['x'] as number) - 14) ** 2 + ((j.params['y'] as number) - 6) ** 2) / 50);
const key = (v: Record<string, unknown>): string => `${String(v['x'])},${String(v['y'])}`;

/** A pool of `size` that finishes its jobs in reverse order (as slow workers might). */
function reversePool(size: number, runJob: (j: BacktestJob) => JobOutcome, batches: number[]): JobPool {
  return {
    size,
    async run(jobs, onProgress) {
      batches.push(jobs.length);
      const out = new Array<JobOutcome>(jobs.length);
      for (let i = jobs.length - 1; i >= 0; i--) {
        await new Promise((r) => setTimeout(r, 0));
        out[i] = runJob(jobs[i]!);
        onProgress?.(jobs.length - i, jobs.length);
      }
      return out;
    },
    close: async () => {},
  };
}

describe('runSweep with a TPE search', () => {
  it('reaches the optimum of a smooth 20x20 grid in far fewer trials than random search, over several seeds', async () => {
    const grid = squareGrid(20);
    const optimum = (14 - 1) * 20 + (6 - 1);
    const tpe: number[] = [];
    const random: number[] = [];
    for (let seed = 1; seed <= 6; seed++) {
      const result = await runSweep(job, tpeGrid(grid, 120, seed), { runJob: bowl });
      expect(result.entries[0]!.values).toEqual({ x: 14, y: 6 });
      tpe.push(result.entries[0]!.trial!);
      // Random search draws in Fisher-Yates order: the optimum is drawn at the first k that holds it.
      let k = 1;
      while (!sampleIndices(400, k, seed).includes(optimum)) k++;
      random.push(k);
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    // Random search needs ~200 draws on average to meet one point of 400; TPE about 20.
    expect(mean(tpe)).toBeLessThan(40);
    expect(mean(tpe) * 3).toBeLessThan(mean(random));
  });

  it('records the order: trials 1..N, round 1 the random startup (random search\'s first draws), one point a round after it in this thread', async () => {
    const grid = squareGrid(6);
    const result = await runSweep(job, tpeGrid(grid, 12, 5), { runJob: bowl });
    const tried = [...result.entries, ...result.failed].sort((a, b) => a.trial! - b.trial!);
    expect(tried.map((e) => e.trial)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(new Set(tried.map((e) => key(e.values))).size).toBe(12);
    // 12 trials, batch 1: the startup is max(1, min(10, ceil(12 / 3))) = 4, then 8 rounds of one.
    expect(startupCount(12, 1)).toBe(4);
    expect(tried.map((e) => e.round)).toEqual([1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const startup = sampleIndices(36, 4, 5).map((i) => `${Math.floor(i / 6) + 1},${(i % 6) + 1}`);
    expect(tried.slice(0, 4).map((e) => key(e.values))).toEqual(startup);
    expect(result.search).toEqual({ kind: 'tpe', trials: 12, seed: 5, gridSize: 36, startup: 4, batch: 1, rounds: 9 });
    // The same seed, the same search; another seed, another.
    const again = await runSweep(job, tpeGrid(grid, 12, 5), { runJob: bowl });
    expect(again.entries).toEqual(result.entries);
    const other = await runSweep(job, tpeGrid(grid, 12, 6), { runJob: bowl });
    expect(other.entries.map((e) => key(e.values)).sort()).not.toEqual(result.entries.map((e) => key(e.values)).sort());
    // The table and the JSON say so.
    const table = formatSweepTable(result);
    expect(table.split('\n')[1]).toBe('TPE search: 12 of 36 grid points (seed 5): 4 at random, then 8 proposed 1 a round (one worker) from the results so far, 9 rounds');
    expect(table.split('\n')[2]).toBe(`the best was tried at trial ${result.entries[0]!.trial} of 12, round ${result.entries[0]!.round}`);
    expect(table).toMatch(/^\s*#\s+Trial\s+Round\s+x\s+y\s+Sharpe\*/m);
    const json = sweepToJson(result);
    expect(json.search).toEqual(result.search);
    expect(json.results[0]).toMatchObject({ rank: 1, trial: result.entries[0]!.trial, round: result.entries[0]!.round });
  });

  it('runs a round of proposals per pool batch (its size), the same points whatever order the workers finish in', async () => {
    const grid = squareGrid(10);
    const batches: number[] = [];
    const progress: [number, number][] = [];
    const result = await runSweep(job, tpeGrid(grid, 20, 3), { pool: reversePool(3, bowl, batches), onProgress: (d, t) => progress.push([d, t]) });
    // Startup max(3, min(10, ceil(20 / 3))) = 7, then rounds of 3 (the last of 1).
    expect(batches).toEqual([7, 3, 3, 3, 3, 1]);
    expect(result.search).toMatchObject({ startup: 7, batch: 3, rounds: 6 });
    expect(result.workers).toBe(3);
    expect(progress.at(-1)).toEqual([20, 20]);
    expect(progress.every(([, t]) => t === 20)).toBe(true);
    // A pool of the same size finishing in job order gives the same search.
    const inOrder: JobPool = { size: 3, run: async (jobs) => jobs.map(bowl), close: async () => {} };
    const same = await runSweep(job, tpeGrid(grid, 20, 3), { pool: inOrder });
    expect(same.entries).toEqual(result.entries);
  });

  it('counts a point the schema rejects as a trial, worst, never run; a failed run is worst too; trials = the grid tries every point once', async () => {
    const grid = squareGrid(6, (x, y) => y <= x);
    const seen: string[] = [];
    const runJob = (j: BacktestJob): JobOutcome => {
      seen.push(key(j.params));
      if (j.params['x'] === 1) throw new Error('boom at x=1');
      return bowl(j);
    };
    const result = await runSweep(job, tpeGrid(grid, 36, 2), { runJob });
    expect(result.skipped).toHaveLength(21);
    expect(result.skipped.every((s) => s.trial !== undefined && s.round !== undefined && s.reason === 'y must be above x')).toBe(true);
    expect(result.failed).toHaveLength(5);
    expect(result.failed[0]!.error).toBe('boom at x=1');
    expect(result.entries).toHaveLength(10);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(15);
    const trials = [...result.entries, ...result.failed, ...result.skipped].map((e) => e.trial!).sort((a, b) => a - b);
    expect(trials).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
    // On a smaller budget it learns the lower triangle is rejected: fewer skipped than uniform draws would hit (21 of 36).
    const few = await runSweep(job, tpeGrid(grid, 18, 2), { runJob: bowl });
    expect(few.skipped.length).toBeLessThan(10);
  });
});

describe('runWalkForward with a TPE search', () => {
  it('runs a search of its own in each train window (the same seed) and tests each window\'s best', async () => {
    const seen: BacktestJob[] = [];
    // The peak moves: x=4 in the first train window, x=9 in the windows after it.
    const runJob = (j: BacktestJob): JobOutcome => {
      seen.push(j);
      const peak = (j.window?.skip ?? 0) < 300 ? 4 : 9;
      return ran(-(((j.params['x'] as number) - peak) ** 2 + ((j.params['y'] as number) - 3) ** 2));
    };
    const grid = tpeGrid(squareGrid(10), 40, 7);
    const result = await runWalkForward(job, grid, { runJob, folds: 2, trainBars: 800, testBars: 400, totalBars: 2000 });
    expect(result.folds.map((f) => f.chosen?.values)).toEqual([
      { x: 4, y: 3 },
      { x: 9, y: 3 },
    ]);
    expect(result.folds.every((f) => f.chosen?.trial !== undefined && f.chosen.round !== undefined && f.trainRuns === 40)).toBe(true);
    // 2 folds x (40 train + 1 test) jobs; each test job the fold's choice on the bars after its window.
    expect(seen).toHaveLength(82);
    expect(seen.filter((j) => j.window?.skip === 800).map((j) => j.params)).toEqual([{ x: 4, y: 3 }]);
    expect(result.search).toEqual({ kind: 'tpe', trials: 40, seed: 7, gridSize: 100, startup: 10, batch: 1 });
    // Each window's first round is the same random draw; what follows depends on its results.
    const firstTen = (skip: number): string[] => seen.filter((j) => j.window?.skip === skip).slice(0, 10).map((j) => key(j.params));
    expect(firstTen(400)).toEqual(firstTen(0));
    const text = formatWalkForward(result);
    expect(text).toContain('2 fold(s) of 40 TPE trial(s) of 100 parameter set(s)');
    expect(text).toMatch(/^Fold\s+Test from\s+Test to\s+Chosen params\s+Trial\s+Train sharpe/m);
    const json = walkForwardToJson(result);
    expect(json.search).toEqual(result.search);
    expect(json.folds[0]!.chosen).toMatchObject({ values: { x: 4, y: 3 }, trial: result.folds[0]!.chosen!.trial });
  });
});
