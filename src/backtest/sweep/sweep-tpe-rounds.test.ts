/**
 * TPE searches through runSweep with injected runners (no backtests): the rounds, the order
 * recorded, determinism whatever the pool's size and whatever order it finishes in, skipped and
 * failed points, and the point of it all: on a smooth 20x20 grid TPE reaches the optimum in far
 * fewer trials than random search does.
 */
import { describe, expect, it } from 'vitest';
import type { SweepGrid } from './sweep-grid.ts';
import type { BacktestJob, JobOutcome, SweepJob } from './sweep-job.ts';
import type { JobPool } from './sweep-pool.ts';
import { formatSweepTable, sweepToJson } from './sweep-format.ts';
import { sampleIndices, tpeGrid } from './sweep-sample.ts';
import { startupCount, TPE_MAX_BATCH, tpeBatch } from './sweep-tpe-rounds.ts';
import { runSweep } from './sweep.ts';
import type { BacktestMetrics } from '../types.ts';
import { formatWalkForward, walkForwardToJson } from '../walk-forward/walk-forward-format.ts';
import { runWalkForward } from '../walk-forward/walk-forward.ts';

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
    expect(tpeBatch(12)).toBe(1);
    expect(startupCount(12)).toBe(4);
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
    expect(table.split('\n')[1]).toBe('TPE search: 12 of 36 grid points (seed 5): 4 at random, then 8 proposed 1 a round from the results so far, 9 rounds');
    expect(table.split('\n')[2]).toBe(`the best was tried at trial ${result.entries[0]!.trial} of 12, round ${result.entries[0]!.round}`);
    expect(table).toMatch(/^\s*#\s+Trial\s+Round\s+x\s+y\s+Sharpe\*/m);
    const json = sweepToJson(result);
    expect(json.search).toEqual(result.search);
    expect(json.results[0]).toMatchObject({ rank: 1, trial: result.entries[0]!.trial, round: result.entries[0]!.round });
  });

  it('batches a round by the trials alone: one point per 20 trials, a power of two, 1 to 8', () => {
    expect([1, 12, 39, 40, 79, 80, 159, 160, 400, 100000].map(tpeBatch)).toEqual([1, 1, 1, 2, 2, 4, 4, 8, 8, 8]);
    expect(TPE_MAX_BATCH).toBe(8);
    // The startup: about a third of the trials up to 10, never fewer than a batch, never more than the trials.
    expect([1, 2, 3, 12, 30, 40, 80, 160, 1000].map(startupCount)).toEqual([1, 1, 1, 4, 10, 10, 10, 10, 10]);
  });

  it('runs each round\'s batch on the pool: the same points in the same order whatever the pool\'s size and finish order', async () => {
    const grid = squareGrid(10);
    // 80 trials: batch 4, startup 10, then 70 in rounds of 4 (the last of 2).
    const runWith = async (pool: JobPool) => {
      const progress: [number, number][] = [];
      const result = await runSweep(job, tpeGrid(grid, 80, 3), { pool, onProgress: (d, t) => progress.push([d, t]) });
      const tried = [...result.entries, ...result.failed].sort((a, b) => a.trial! - b.trial!).map((e) => `${e.trial}@${e.round}:${key(e.values)}`);
      return { result, tried, progress };
    };
    const batchesOf: number[][] = [];
    const runs = [];
    for (const size of [1, 3, 8, 16]) {
      const batches: number[] = [];
      batchesOf.push(batches);
      runs.push(await runWith(reversePool(size, bowl, batches)));
    }
    // A pool finishing in job order, and the inline pool (size 0), try the same too.
    runs.push(await runWith({ size: 5, run: async (jobs, onProgress) => jobs.map((j, i) => (onProgress?.(i + 1, jobs.length), bowl(j))), close: async () => {} }));
    const inline = await runSweep(job, tpeGrid(grid, 80, 3), { runJob: bowl });
    const [first, ...rest] = runs;
    expect(first!.tried).toHaveLength(80);
    expect(new Set(first!.tried.map((t) => t.split(':')[1])).size).toBe(80);
    for (const r of rest) {
      expect(r.tried).toEqual(first!.tried);
      expect(r.result.entries).toEqual(first!.result.entries);
      expect(r.result.search).toEqual(first!.result.search);
    }
    expect(inline.entries).toEqual(first!.result.entries);
    expect(inline.search).toEqual(first!.result.search);
    expect(first!.result.search).toEqual({ kind: 'tpe', trials: 80, seed: 3, gridSize: 100, startup: 10, batch: 4, rounds: 19 });
    for (const batches of batchesOf) expect(batches).toEqual([10, ...Array.from({ length: 17 }, () => 4), 2]);
    // Each result still says its own pool; progress counts the trials, up to all of them.
    expect(runs.map((r) => r.result.workers)).toEqual([1, 3, 8, 16, 5]);
    expect(inline.workers).toBe(0);
    for (const r of runs) {
      expect(r.progress.at(-1)).toEqual([80, 80]);
      expect(r.progress.every(([, t]) => t === 80)).toBe(true);
    }
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
    expect(result.folds.every((f) => f.chosen?.trial !== undefined && f.chosen.round !== undefined && f.trainRuns === 40 && f.trainSkipped === 0)).toBe(true);
    // 2 folds x (40 train + 1 test) jobs; each test job the fold's choice on the bars after its window.
    expect(seen).toHaveLength(82);
    expect(seen.filter((j) => j.window?.skip === 800).map((j) => j.params)).toEqual([{ x: 4, y: 3 }]);
    // 40 trials: batch 2, startup 10, then 15 rounds of 2 in every window.
    expect(result.search).toEqual({ kind: 'tpe', trials: 40, seed: 7, gridSize: 100, startup: 10, batch: 2, rounds: 16 });
    expect(result.parameterSets).toBe(40);
    // Each window's first round is the same random draw; what follows depends on its results.
    const firstTen = (skip: number): string[] => seen.filter((j) => j.window?.skip === skip).slice(0, 10).map((j) => key(j.params));
    expect(firstTen(400)).toEqual(firstTen(0));
    const text = formatWalkForward(result);
    expect(text).toContain("2 fold(s) of 40 TPE trial(s) each, of the grid's 100 combination(s)");
    expect(text).toMatch(/^Fold\s+Test from\s+Test to\s+Chosen params\s+Trial\s+Train sharpe/m);
    const json = walkForwardToJson(result);
    expect(json.search).toEqual(result.search);
    expect(json.folds[0]!.chosen).toMatchObject({ values: { x: 4, y: 3 }, trial: result.folds[0]!.chosen!.trial });
    expect(json.folds.map((f) => [f.trainRuns, f.trainFailures, f.trainSkipped])).toEqual([
      [40, 0, 0],
      [40, 0, 0],
    ]);
  });

  it('says what each window tried: its trials of the grid\'s size, and the rejected combinations its own search hit', async () => {
    // 36 combinations, 21 rejected (y <= x); the peak moves from (2, 3) to (5, 6) after the first train window.
    const grid = squareGrid(6, (x, y) => y <= x);
    const runJob = (j: BacktestJob): JobOutcome => {
      const late = (j.window?.skip ?? 0) >= 300;
      return ran(-(((j.params['x'] as number) - (late ? 5 : 2)) ** 2 + ((j.params['y'] as number) - (late ? 6 : 3)) ** 2));
    };
    const result = await runWalkForward(job, tpeGrid(grid, 12, 4), { runJob, folds: 3, trainBars: 600, testBars: 300, totalBars: 2000 });
    expect(result.parameterSets).toBe(12);
    expect(result.search).toEqual({ kind: 'tpe', trials: 12, seed: 4, gridSize: 36, startup: 4, batch: 1, rounds: 9 });
    // Each window tried its 12 trials: those that ran and those the schema rejected.
    for (const f of result.folds) expect(f.trainRuns + f.trainFailures + f.trainSkipped).toBe(12);
    const perFold = result.folds.map((f) => f.trainSkipped);
    // The same random startup, then searches that learn the rejected triangle (far fewer than 21 of 36 of 12).
    expect(perFold.every((n) => n < 7)).toBe(true);
    // What each window's own search tried (a sweep of it alone, the same seed): the result's skipped are their union, in grid order, no trial.
    const hit = new Set<string>();
    for (const f of result.folds) {
      const alone = await runSweep(job, tpeGrid(grid, 12, 4), { runJob, window: f.train });
      expect(alone.skipped).toHaveLength(f.trainSkipped);
      for (const sk of alone.skipped) hit.add(key(sk.values));
    }
    const order = grid.skipped.map((sk) => key(sk.values)).filter((k) => hit.has(k));
    expect(result.skipped.map((sk) => key(sk.values))).toEqual(order);
    // Not the grid's 21: only those some window tried.
    expect(result.skipped.length).toBeLessThan(grid.skipped.length);
    expect(result.skipped.every((sk) => sk.trial === undefined && sk.round === undefined && sk.reason === 'y must be above x')).toBe(true);
    const total = perFold.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    const text = formatWalkForward(result);
    expect(text).toContain("3 fold(s) of 12 TPE trial(s) each, of the grid's 36 combination(s)");
    expect(text).toContain(`${total} TPE trial(s) skipped across the train windows, rejected by the params schema (fold 1: ${perFold[0]} of 12, fold 2: ${perFold[1]} of 12, fold 3: ${perFold[2]} of 12; e.g. y must be above x)`);
    expect(text).not.toContain('grid combination(s) skipped');
    expect(walkForwardToJson(result).folds.map((f) => f.trainSkipped)).toEqual(perFold);
  });

  it('a full grid keeps its meaning: every window runs the grid\'s points and skips its rejected ones', async () => {
    const grid = squareGrid(4, (x, y) => y <= x);
    const result = await runWalkForward(job, grid, { runJob: bowl, folds: 2, trainBars: 600, testBars: 300, totalBars: 2000 });
    expect(result.parameterSets).toBe(6);
    expect(result.skipped).toBe(grid.skipped);
    expect(result.search).toBeUndefined();
    expect(result.folds.map((f) => [f.trainRuns, f.trainFailures, f.trainSkipped])).toEqual([
      [6, 0, 10],
      [6, 0, 10],
    ]);
    const text = formatWalkForward(result);
    expect(text).toContain('2 fold(s) of 6 parameter set(s)');
    expect(text).toContain('10 grid combination(s) skipped by the params schema (e.g. y must be above x)');
  });
});
