/**
 * Sweeps and walk-forward: orchestration against a fake job runner (ranking, skipped and failed
 * points, fold choice and out-of-sample aggregation), then the real thing: worker threads
 * running runBacktest on a synthetic series with an example strategy.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import smaCrossover from '../strategies/sma-crossover.ts';
import { bestParamArgs, formatSweepTable, sweepToJson } from '../src/backtest/sweep/sweep-format.ts';
import type { BacktestJob, JobOutcome, SweepJob } from '../src/backtest/sweep/sweep-job.ts';
import { executeJob } from '../src/backtest/sweep/sweep-exec.ts';
import { buildGrid, parseSweepSpecs, rankMetric, runSweep } from '../src/backtest/sweep/sweep.ts';
import type { BacktestMetrics } from '../src/backtest/types.ts';
import { formatWalkForward, walkForwardToJson } from '../src/backtest/walk-forward/walk-forward-format.ts';
import { FOLD_CURVE_POINTS, runWalkForward } from '../src/backtest/walk-forward/walk-forward.ts';

const instrument = {
  symbol: 'BTCUSDT',
  status: 'TRADING',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  baseAssetPrecision: 8,
  quoteAssetPrecision: 8,
  orderTypes: ['LIMIT', 'MARKET'],
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '1000', stepSize: '0.00001' },
  ],
};

const job: SweepJob = {
  strategy: 'sma-crossover',
  baseParams: { symbol: 'BTCUSDT', interval: '1m', quoteAmount: '1000' },
  symbol: 'BTCUSDT',
  interval: '1m',
  data: { kind: 'synthetic', seed: 5, bars: 3000, regime: 'flat', startPrice: '30000' },
  instrument,
  fees: { maker: '0.001', taker: '0.001' },
  balances: { USDT: '10000', BTC: '0' },
};

function metrics(over: Partial<BacktestMetrics>): BacktestMetrics {
  return { startEquity: 10_000, endEquity: 10_000, netPnl: 0, returnPct: 0, marketReturnPct: 0, cagrPct: 0, maxDrawdownPct: 0, calmar: 0, sharpe: 0, sortino: 0, winRatePct: 0, profitFactor: 0, exposurePct: 0, feesPaid: 0, trades: 0, fills: 0, ...over };
}

/** Sharpe peaks at fast=10 early in the data and at fast=20 later; fast=25 throws. */
function fakeRun(seen: BacktestJob[]) {
  return (j: BacktestJob): JobOutcome => {
    seen.push(j);
    const fast = j.params['fast'] as number;
    const slow = j.params['slow'] as number;
    if (fast === 25) throw new Error('boom at 25');
    const target = (j.window?.skip ?? 0) < 1000 ? 10 : 20;
    const sharpe = 5 - Math.abs(fast - target) / 5 - slow / 100;
    const returnPct = sharpe;
    return { ok: true, metrics: metrics({ sharpe, returnPct, netPnl: returnPct * 100, maxDrawdownPct: fast / 10, trades: 2 }), barCount: j.window?.take ?? 3000, from: 0, to: 60_000, denials: 0, strategyFailures: 0, logs: 0 };
  };
}

describe('runSweep (fake runner)', () => {
  it('runs every valid point, ranks by the metric, keeps skipped and failed apart', async () => {
    const seen: BacktestJob[] = [];
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:25:5', 'slow=20,40']), job.baseParams);
    const progress: number[] = [];
    const result = await runSweep(job, grid, { runJob: fakeRun(seen), onProgress: (d) => progress.push(d) });
    // fast 5..25 x slow 20,40 = 10; slow > fast rejects (20,20) and (25,20).
    expect(grid.skipped.map((s) => s.values)).toEqual([
      { fast: 20, slow: 20 },
      { fast: 25, slow: 20 },
    ]);
    expect(seen).toHaveLength(8);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.failed).toEqual([{ values: { fast: 25, slow: 40 }, error: 'boom at 25' }]);
    expect(result.entries).toHaveLength(7);
    expect(result.entries[0]).toMatchObject({ rank: 1, values: { fast: 10, slow: 20 } });
    expect(result.entries.map((e) => e.metrics.sharpe)).toEqual([...result.entries.map((e) => e.metrics.sharpe)].sort((a, b) => b - a));
    expect(seen[0]!.params).toEqual({ symbol: 'BTCUSDT', interval: '1m', quoteAmount: '1000', fast: 5, slow: 20 });

    const table = formatSweepTable(result);
    expect(table).toMatch(/ranked by sharpe/);
    expect(table.split('\n')[2]).toMatch(/^#\s+fast\s+slow\s+Sharpe\*/);
    expect(table).toMatch(/^\* ranked by this column \(--rank-by sharpe\)$/m);
    // The fake runs trade (2 trades each): rates shown. A run without a trade reads n/a, as in the summary.
    expect(table).not.toContain('n/a');
    const idle = await runSweep(job, buildGrid(smaCrossover, parseSweepSpecs(['fast=5']), { slow: 40 }), { runJob: () => ({ ok: true, metrics: metrics({}), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 0, logs: 0 }) });
    expect(formatSweepTable(idle).split('\n')[3]).toMatch(/ n\/a +n\/a +0$/);
    expect(table).toMatch(/2 combination\(s\) skipped.*slow must be greater than fast/);
    expect(table).toMatch(/1 combination\(s\) failed; e.g. fast=25 slow=40: boom at 25/);
    const json = JSON.parse(JSON.stringify(sweepToJson(result))) as ReturnType<typeof sweepToJson>;
    expect(json.results[0]!.values).toEqual({ fast: 10, slow: 20 });
    // A plain sweep asks no run for its curve, and its JSON has none.
    expect(seen.some((j) => j.curvePoints !== undefined)).toBe(false);
    expect(JSON.stringify(json)).not.toMatch(/"equity"|outOfSample/);
  });

  it('lists each axis in the JSON with its parameter\'s type: numbers for numbers, decimal text for money; the table as before', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:10:5', 'slow=20', 'quoteAmount=500,1000.50']), job.baseParams);
    const result = await runSweep(job, grid, { runJob: fakeRun([]) });
    const json = JSON.parse(JSON.stringify(sweepToJson(result))) as ReturnType<typeof sweepToJson>;
    expect(json.axes).toEqual([
      { name: 'fast', values: [5, 10] },
      { name: 'slow', values: [20] },
      { name: 'quoteAmount', values: ['500', '1000.50'] },
    ]);
    for (const r of json.results) for (const a of json.axes) expect(a.values).toContain(r.values[a.name]);
    const table = formatSweepTable(result).split('\n');
    expect(table[2]).toMatch(/^#\s+fast\s+slow\s+quoteAmount\s+Sharpe\*/);
    expect(table.slice(3, 7).map((l) => l.split(/\s+/).slice(1, 4).join(' ')).sort()).toEqual(['10 20 1000.50', '10 20 500', '5 20 1000.50', '5 20 500']);
  });

  it('ranks ascending for drawdown and keeps infinities ordered', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:15:5']), { slow: 40 });
    const byDd = await runSweep(job, grid, { runJob: fakeRun([]), rankBy: rankMetric('maxDrawdownPct') });
    expect(byDd.entries.map((e) => e.values['fast'])).toEqual([5, 10, 15]);
    const inf = await runSweep(job, grid, {
      runJob: (j) => ({ ok: true, metrics: metrics({ profitFactor: j.params['fast'] === 10 ? Infinity : (j.params['fast'] as number) }), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 0, logs: 0 }),
      rankBy: 'profitFactor',
    });
    expect(inf.entries.map((e) => e.values['fast'])).toEqual([10, 15, 5]);
    expect(sweepToJson(inf).results[0]!.metrics.profitFactor).toBe('Infinity');
    expect(() => rankMetric('sharp')).toThrowError(/unknown --rank-by 'sharp'; one of sharpe, sortino/);
  });
});

describe('runSweep: a strategy stopped by a failure', () => {
  it('ranks after every combination that ran to the end, is named under the table and in the JSON, and is never "best"', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:15:5']), { slow: 40 });
    const result = await runSweep(job, grid, {
      runJob: (j) => {
        const fast = j.params['fast'] as number;
        // fast=5 is stopped at once (an idle run's Sharpe of 0 beats the losers' below)
        if (fast === 5) return { ok: true, metrics: metrics({}), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 1, firstFailure: 'onBar at 2024-01-01 00:01 UTC: quantity 0.001 is below the step', logs: 0 };
        return { ok: true, metrics: metrics({ sharpe: -fast }), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 0, logs: 0 };
      },
    });
    expect(result.entries.map((e) => e.values['fast'])).toEqual([10, 15, 5]);
    expect(formatSweepTable(result)).toMatch(/1 combination\(s\) had the strategy stopped by a failure, ranked last .*; e\.g\. fast=5: onBar at 2024-01-01 00:01 UTC: quantity 0\.001 is below the step/);
    expect(sweepToJson(result).results[2]).toMatchObject({ strategyFailures: 1, firstFailure: expect.stringContaining('below the step') });
    expect(bestParamArgs(result)).toBe('--param fast=10');

    const allStopped = await runSweep(job, grid, { runJob: () => ({ ok: true, metrics: metrics({}), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 1, firstFailure: 'stopped', logs: 0 }) });
    expect(bestParamArgs(allStopped)).toBeUndefined();
  });
});

describe('runSweep: a warmup the range never gets past', () => {
  it('is a warning under the table and the run\'s notices in the JSON (real runs, in this process)', async () => {
    const short: SweepJob = { ...job, data: { kind: 'synthetic', seed: 5, bars: 30, regime: 'flat', startPrice: '30000' } };
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['slow=20,40']), { fast: 5 });
    const result = await runSweep(short, grid, { runJob: executeJob });
    expect(formatSweepTable(result)).toMatch(/^Warning: 1 combination\(s\) never traded past the strategy's warmup \(their figures are of an idle run\); e\.g\. slow=40: the strategy's warmup is 41 bars and the run had 30: onBar never ran/m);
    const json = sweepToJson(result).results;
    expect(json.find((r) => r.values['slow'] === 40)?.notices).toEqual([expect.stringContaining('onBar never ran')]);
    expect(json.find((r) => r.values['slow'] === 20)).not.toHaveProperty('notices');
  });
});

describe('runSweep: what the strategy logged', () => {
  it('is counted per combination, the first line kept, and said under the table and in the JSON', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5:15:5']), { slow: 40 });
    const result = await runSweep(job, grid, {
      runJob: (j) => {
        const fast = j.params['fast'] as number;
        const logged = fast === 10 ? { logs: 3, firstLog: '2024-01-01 00:05 UTC  entry order ended DENIED' } : { logs: 0 };
        return { ok: true, metrics: metrics({ sharpe: -fast }), barCount: 1, from: 0, to: 0, denials: 0, strategyFailures: 0, ...logged };
      },
    });
    expect(formatSweepTable(result)).toMatch(/^1 combination\(s\) logged 3 line\(s\) from the strategy \(run one alone for its log file\); e\.g\. fast=10: 2024-01-01 00:05 UTC {2}entry order ended DENIED$/m);
    expect(sweepToJson(result).results.map((r) => [r.logs, r.firstLog])).toEqual([
      [0, undefined],
      [3, '2024-01-01 00:05 UTC  entry order ended DENIED'],
      [0, undefined],
    ]);
  });

  it('executeJob counts the lines a real run logs', async () => {
    // 10 USDT cannot buy 1000 USDT's worth: every entry is denied and the strategy logs it.
    const outcome = await executeJob({ ...job, balances: { USDT: '10', BTC: '0' }, params: { fast: 5, slow: 20 } });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.logs).toBeGreaterThan(0);
    expect(outcome.firstLog).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}entry order ended DENIED/);
  });
});

describe('runWalkForward (fake runner)', () => {
  it('optimises each train window and scores the choice out of sample', async () => {
    const seen: BacktestJob[] = [];
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=10,20', 'slow=30']), job.baseParams);
    const result = await runWalkForward(job, grid, { runJob: fakeRun(seen), folds: 3, trainBars: 600, testBars: 400, totalBars: 2000 });
    // Train windows start at 0, 400, 800 (< 1000: fast=10 wins); test windows start at 600, 1000, 1400.
    expect(result.folds.map((f) => f.chosen?.values['fast'])).toEqual([10, 10, 10]);
    expect(result.folds.map((f) => f.test)).toEqual([
      { skip: 600, take: 400 },
      { skip: 1000, take: 400 },
      { skip: 1400, take: 400 },
    ]);
    // Out of sample, fast=10 scores 5 - 0 - 0.3 in fold 1 and 5 - 2 - 0.3 once fast=20 is best.
    expect(result.folds.map((f) => f.testResult?.metrics.sharpe)).toEqual([4.7, 2.7, 2.7]);
    expect(result.aggregate.meanSharpe).toBeCloseTo((4.7 + 2.7 + 2.7) / 3, 10);
    expect(result.aggregate.meanTrainScore).toBeCloseTo(4.7, 10);
    expect(result.aggregate.compoundedReturnPct).toBeCloseTo((1.047 * 1.027 * 1.027 - 1) * 100, 10);
    expect(result.aggregate).toMatchObject({ folds: 3, evaluated: 3, trades: 6, profitableFolds: 3 });
    // 3 folds x (2 train + 1 test) jobs; only the test runs return their curve.
    expect(seen).toHaveLength(9);
    expect(seen.map((j) => j.curvePoints)).toEqual([undefined, undefined, FOLD_CURVE_POINTS, undefined, undefined, FOLD_CURVE_POINTS, undefined, undefined, FOLD_CURVE_POINTS]);
    // The fake returns no curve: each fold is its start and end, chained; the return is the compounded one.
    expect(result.outOfSample.returnPct).toBeCloseTo(result.aggregate.compoundedReturnPct, 10);
    expect(result.outOfSample.equity).toHaveLength(6);
    expect(formatWalkForward(result)).toMatch(/Out of sample \(3 of 3 folds\)/);
    expect(walkForwardToJson(result).folds[1]!.testWindow).toEqual({ skip: 1000, take: 400 });
  });
});

describe('runWalkForward: windows warm up on the bars before them', () => {
  it('hands each window the warmup less one of the bars before it as history (none before the first); the reported windows are the plan\'s', async () => {
    const seen: BacktestJob[] = [];
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=10']), { ...job.baseParams, slow: 30 });
    const result = await runWalkForward(job, grid, { runJob: fakeRun(seen), folds: 2, trainBars: 600, testBars: 400, totalBars: 1400, minWindowBars: 31 });
    expect(seen.map((j) => j.window)).toEqual([
      { skip: 0, take: 600 },
      { skip: 600, take: 400, history: 30 },
      { skip: 400, take: 600, history: 30 },
      { skip: 1000, take: 400, history: 30 },
    ]);
    expect(result.folds.map((f) => f.test)).toEqual([
      { skip: 600, take: 400 },
      { skip: 1000, take: 400 },
    ]);
  });

  it('a window as long as the warmup trades with the bars before it as history, and idles without them (real runs)', async () => {
    const params = { ...job.baseParams, fast: 5, slow: 40 }; // warmup 41
    const cold = await executeJob({ ...job, params, window: { skip: 1000, take: 41 } });
    const warm = await executeJob({ ...job, params, window: { skip: 1000, take: 41, history: 40 } });
    expect(cold.ok && warm.ok).toBe(true);
    if (!cold.ok || !warm.ok) return;
    expect(cold.notices?.[0]).toMatch(/onBar ran only on the last bar/);
    expect(warm.notices).toBeUndefined();
    expect([warm.barCount, warm.from]).toEqual([cold.barCount, cold.from]);
  });
});

describe('runWalkForward: what a test run says about itself', () => {
  it('a stopped strategy and a warmup the test window barely passes are lines under the table and fields in the JSON', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=10']), job.baseParams);
    const runJob = (j: BacktestJob): JobOutcome => {
      const test = (j.window?.skip ?? 0) >= 600;
      const base: JobOutcome = { ok: true, metrics: metrics({ sharpe: 1 }), barCount: 400, from: 0, to: 60_000, denials: 0, strategyFailures: 0, logs: 0 };
      if (!test) return base;
      if (j.window?.skip === 600) return { ...base, strategyFailures: 1, firstFailure: 'onBar at 2024-01-01 10:00 UTC: boom' };
      return { ...base, notices: ["the strategy's warmup is 400 bars and the run had 400: onBar ran only on the last bar, too late for its orders to fill"] };
    };
    const result = await runWalkForward(job, grid, { runJob, folds: 2, trainBars: 600, testBars: 400, totalBars: 1400 });
    const text = formatWalkForward(result);
    expect(text).toMatch(/^Fold 1: the strategy was stopped on the test window \(its figures are of a stopped run\): onBar at 2024-01-01 10:00 UTC: boom$/m);
    expect(text).toMatch(/^Warning: fold 2: the strategy's warmup is 400 bars and the run had 400: onBar ran only on the last bar/m);
    const folds = walkForwardToJson(result).folds;
    expect(folds[0]!.testResult).toMatchObject({ firstFailure: 'onBar at 2024-01-01 10:00 UTC: boom' });
    expect(folds[1]!.testResult?.notices).toHaveLength(1);
    expect(folds[1]!.testResult).not.toHaveProperty('firstFailure');
  });
});

const runBacktestFile = new URL('../src/backtest/run/run-backtest.ts', import.meta.url);

describe.skipIf(!existsSync(runBacktestFile))('sweep in worker threads with runBacktest', () => {
  it('runs sma-crossover over a synthetic series on 2 workers, same results as in-process', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5,10', 'slow=20,40']), job.baseParams);
    const threaded = await runSweep(job, grid, { workers: 2 });
    expect(threaded.workers).toBe(2);
    expect(threaded.failed).toEqual([]);
    expect(threaded.entries).toHaveLength(4);
    for (const e of threaded.entries) {
      expect(e.barCount).toBe(3000);
      expect(Number.isNaN(e.metrics.sharpe)).toBe(false);
    }
    expect(threaded.entries.some((e) => e.metrics.trades > 0)).toBe(true);
    const inline = await runSweep(job, grid, { workers: 0 });
    expect(inline.entries.map((e) => [e.values, e.metrics])).toEqual(threaded.entries.map((e) => [e.values, e.metrics]));
  }, 120_000);

  it('walks forward in worker threads', async () => {
    const grid = buildGrid(smaCrossover, parseSweepSpecs(['fast=5,10', 'slow=30']), job.baseParams);
    const result = await runWalkForward(job, grid, { workers: 2, folds: 2, trainBars: 1000, testBars: 1000 });
    expect(result.folds).toHaveLength(2);
    expect(result.folds.every((f) => f.testResult?.barCount === 1000)).toBe(true);
    expect(result.aggregate.evaluated).toBe(2);
    // Each test run's curve came back from its worker: its start, then a point a bar (under the bound).
    expect(result.folds.map((f) => f.testResult?.equity?.length)).toEqual([1001, 1001]);
    const o = result.outOfSample;
    expect(o.equity).toHaveLength(2002);
    expect(o.equity[0]).toEqual([result.folds[0]!.testResult!.from, 10_000]);
    expect(o.returnPct).toBeCloseTo(result.aggregate.compoundedReturnPct, 9);
    expect(o.maxDrawdownPct).toBeGreaterThanOrEqual(result.aggregate.worstDrawdownPct - 1e-9);
  }, 120_000);

  it('a test run returns its equity curve thinned to the bound asked, and a run that does not ask none', async () => {
    const params = { ...job.baseParams, fast: 5, slow: 20 };
    const plain = await executeJob({ ...job, params });
    const thin = await executeJob({ ...job, params, curvePoints: 50 });
    expect(plain.ok && thin.ok).toBe(true);
    if (!plain.ok || !thin.ok) return;
    expect(plain).not.toHaveProperty('equity');
    expect(thin.metrics).toEqual(plain.metrics);
    const curve = thin.equity!;
    expect(curve.length).toBeLessThanOrEqual(50);
    expect(curve[0]).toEqual([thin.from, thin.metrics.startEquity]);
    expect(curve[curve.length - 1]![1]).toBe(thin.metrics.endEquity);
    expect(Math.max(...curve.map((p) => p[1]))).toBeGreaterThanOrEqual(thin.metrics.startEquity);
  });
});
