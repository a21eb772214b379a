/**
 * The rounds of a TPE search (`--search tpe --trials N [--seed S]`) on the sweep's worker pool:
 * round 1 runs random startup points (random search's first draws with the same seed), then each
 * round asks the estimator (sweep-tpe.ts) for `batch` new points from every result so far and runs
 * them as one batch of JobPool.run, until N points were tried or the grid is exhausted. The batch
 * is a function of N alone (tpeBatch), never of the pool's size: the points proposed depend on the
 * seed, N and the grid only, so a seed repeats its search whatever --workers is and on any
 * machine (as a seed does in Optuna or Freqtrade's hyperopt). The pool runs each round's points
 * in parallel and the results are applied in job order once the whole round is back, never in the
 * order the workers finished. A point the params schema rejects is tried without running: it
 * counts as one of the N, as in a random search, and as the worst result (the estimator steers away).
 */
import { D } from '../../core/money/decimal.ts';
import { mulberry32 } from '../../core/synthetic/prng.ts';
import { isPlainNumberText } from '../sources/cli-input.ts';
import type { GridPoint, ParamValue, SkippedPoint, SweepGrid, TpeSearch, TrialOrder } from './sweep-grid.ts';
import type { BarWindow, JobOutcome, SweepJob } from './sweep-job.ts';
import type { JobPool, Progress } from './sweep-pool.ts';
import { rankBy, score } from './sweep-rank.ts';
import type { RankMetric } from './sweep-rank.ts';
import { gridSize, sampleIndices } from './sweep-sample.ts';
import { encodePoint, proposePoints } from './sweep-tpe.ts';
import type { TpeAxis } from './sweep-tpe.ts';

/** A point that ran, with its outcome and when it was tried. */
export interface TriedRun extends TrialOrder {
  point: GridPoint;
  outcome: JobOutcome;
}

export interface TpeRounds {
  runs: TriedRun[];
  /** Points the schema rejected among those tried, with when. */
  skipped: (SkippedPoint & TrialOrder)[];
  search: TpeSearch;
}

/** The largest batch: past it a round would propose many points from the same results. */
export const TPE_MAX_BATCH = 8;

/** One point of a round's batch per this many trials: a search so keeps about this many rounds of proposals or more. */
const TRIALS_PER_BATCH_POINT = 20;

/**
 * Points proposed per round after the first, from the trials alone (never the workers): one per
 * 20 trials rounded down to a power of two, from 1 up to TPE_MAX_BATCH (under 40 trials 1, under
 * 80 2, under 160 4, else 8). A small search learns from every result, one point a round; a large
 * one keeps about 20 rounds of learning or more while a round feeds several workers (a power of
 * two: 2, 4 or 8 of them divide it, none left idle at the round's end).
 */
export function tpeBatch(trials: number): number {
  let batch = 1;
  while (batch * 2 <= TPE_MAX_BATCH && batch * 2 * TRIALS_PER_BATCH_POINT <= trials) batch *= 2;
  return batch;
}

/** Random points of round 1: at least a batch, about a third of the trials up to 10 (Optuna starts with 10). */
export const startupCount = (trials: number): number => Math.min(trials, Math.max(tpeBatch(trials), Math.min(10, Math.ceil(trials / 3))));

/** An axis's values in the estimator's order: numbers (and decimal text) ascending, so neighbours are near; others as given. */
function tpeOrder(values: readonly ParamValue[]): { ordinal: boolean; order: number[] } {
  const order = values.map((_, i) => i);
  const numeric = values.every((v) => typeof v === 'number' || (typeof v === 'string' && isPlainNumberText(v)));
  if (!numeric) return { ordinal: false, order };
  order.sort((a, b) => new D(String(values[a])).cmp(new D(String(values[b]))));
  return { ordinal: true, order };
}

const keyOf = (values: readonly ParamValue[]): string => JSON.stringify(values);

export async function runTpeRounds(job: SweepJob, grid: SweepGrid, pool: JobPool, options: { rankBy: RankMetric; window?: BarWindow; onProgress?: Progress }): Promise<TpeRounds> {
  const search = grid.search;
  if (search?.kind !== 'tpe') throw new Error('runTpeRounds needs a grid marked for a TPE search (tpeGrid)');
  const { trials, seed } = search;
  const axes = grid.axes.map((a) => ({ ...a, ...tpeOrder(a.values) }));
  const space: TpeAxis[] = axes.map((a) => ({ size: a.values.length, ordinal: a.ordinal }));
  // The grid's points and skipped points by their values in axis order, and a value's estimator position.
  const byKey = new Map<string, { point?: GridPoint; skipped?: SkippedPoint }>();
  for (const point of grid.points) byKey.set(keyOf(axes.map((a) => point.values[a.name]!)), { point });
  for (const skipped of grid.skipped) byKey.set(keyOf(axes.map((a) => skipped.values[a.name]!)), { skipped });
  const valueAt = (at: readonly number[]): ParamValue[] => axes.map((a, k) => a.values[a.order[at[k]!]!]!);

  // Of the trials alone: the same seed proposes the same points whatever the pool's size.
  const batch = tpeBatch(trials);
  const startup = startupCount(trials);
  const runs: TriedRun[] = [];
  const skipped: (SkippedPoint & TrialOrder)[] = [];
  const tried: { at: number[]; run?: TriedRun }[] = [];
  const triedSet = new Set<number>();
  let round = 0;

  const runRound = async (points: number[][]): Promise<void> => {
    round++;
    const jobs: { run: TriedRun; at: number[] }[] = [];
    for (const at of points) {
      const trial = tried.length + 1;
      const found = byKey.get(keyOf(valueAt(at)));
      triedSet.add(encodePoint(space, at));
      if (found?.point === undefined) {
        // Every combination of the axes is a point or a skipped one (buildGrid); the schema's reason says why.
        skipped.push({ ...(found?.skipped ?? { values: Object.fromEntries(axes.map((a, k) => [a.name, valueAt(at)[k]!])), reason: 'not in the grid' }), trial, round });
        tried.push({ at });
        continue;
      }
      const run: TriedRun = { point: found.point, outcome: { ok: false, error: 'not run' }, trial, round };
      tried.push({ at, run });
      jobs.push({ run, at });
    }
    const before = tried.length - jobs.length;
    const outcomes = jobs.length ? await pool.run(jobs.map((j) => ({ ...job, params: j.run.point.params, ...(options.window ? { window: options.window } : {}) })), (d) => options.onProgress?.(before + d, trials)) : [];
    if (!jobs.length) options.onProgress?.(tried.length, trials);
    // In job order, whatever order the workers finished in.
    jobs.forEach((j, i) => {
      j.run.outcome = outcomes[i] ?? { ok: false, error: 'no outcome' };
      runs.push(j.run);
    });
  };

  // Round 1: random search's first draws (its Fisher-Yates prefix) with the same seed, in grid order.
  const size = gridSize(grid.axes);
  const inverse = axes.map((a) => {
    const pos = new Array<number>(a.values.length);
    a.order.forEach((valueIndex, p) => (pos[valueIndex] = p));
    return pos;
  });
  const gridAt = (index: number): number[] => {
    const at = new Array<number>(axes.length);
    for (let k = axes.length - 1; k >= 0; k--) {
      const n = axes[k]!.values.length;
      at[k] = inverse[k]![index % n]!;
      index = Math.floor(index / n);
    }
    return at;
  };
  await runRound(sampleIndices(size, startup, seed).map(gridAt));

  // A stream of its own, so the startup draw is random search's whatever the estimator consumes.
  const rng = mulberry32(`tpe ${seed}`);
  while (tried.length < trials) {
    const { ranked, eligible } = rankTried(tried, options.rankBy);
    const points = proposePoints(space, ranked, eligible, triedSet, Math.min(batch, trials - tried.length), rng);
    if (points.length === 0) break;
    await runRound(points);
  }
  return { runs, skipped, search: { ...search, startup, batch, rounds: round } };
}

/**
 * The points tried, best first, as the sweep ranks them (sweep-rank.ts): runs to the end by the
 * metric (a NaN score is no score), then runs whose strategy was stopped, then failed runs and
 * skipped points; `eligible` counts the first group, the only ones that may be "good".
 */
export function rankTried(tried: readonly { at: number[]; run?: TriedRun }[], by: RankMetric): { ranked: number[][]; eligible: number } {
  const full: { at: number[]; metrics: Extract<JobOutcome, { ok: true }>['metrics'] }[] = [];
  const stopped: typeof full = [];
  const worst: number[][] = [];
  for (const t of tried) {
    const o = t.run?.outcome;
    if (o === undefined || !o.ok || Number.isNaN(score(o.metrics, by))) worst.push(t.at);
    else (o.firstFailure === undefined ? full : stopped).push({ at: t.at, metrics: o.metrics });
  }
  const ranked = [...rankBy(full, by), ...rankBy(stopped, by)].map((x) => x.at);
  return { ranked: [...ranked, ...worst], eligible: full.length };
}
