/**
 * Random search over a sweep grid (`--search random --trials N [--seed S]`): N distinct points of
 * the grid drawn uniformly, instead of every one, for grids whose axes multiply past what is worth
 * running (Freqtrade's hyperopt samples likewise). The draw is over every combination of the axes,
 * so a drawn point the params schema rejects is skipped (as in a full grid) and counts as one of
 * the N. Deterministic: a seeded PRNG (mulberry32, core/synthetic/prng.ts), never Math.random, so
 * the same seed draws the same points. Walk-forward samples once and every train window runs that
 * same sample (the same seed drawing in each window would give the same points anyway).
 */
import { mulberry32 } from '../../core/synthetic/prng.ts';
import { HalyardError } from '../../exchange/errors/errors.ts';
import type { ParamValue, SweepGrid, SweepSearch, TypedAxis } from './sweep-grid.ts';

export const SEARCH_KINDS = ['grid', 'random', 'tpe'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The seed when --seed is not given. */
export const DEFAULT_SEARCH_SEED = 1;

/** Thrown for trials the grid cannot give (0, not whole, more than the grid). */
export class SweepSearchError extends HalyardError {
  constructor(message: string) {
    super('SWEEP_SEARCH', message);
  }
}

/** Every combination of the axes (the product of their lengths). */
export const gridSize = (axes: readonly TypedAxis[]): number => axes.reduce((n, a) => n * a.values.length, 1);

/**
 * `trials` distinct indices of [0, size), uniformly, in ascending order: a partial Fisher-Yates
 * shuffle driven by the seeded PRNG (each draw picks among the indices not yet drawn).
 */
export function sampleIndices(size: number, trials: number, seed: number): number[] {
  if (!Number.isInteger(trials) || trials < 1 || trials > size) throw new RangeError(`trials must be a whole number in [1, ${size}], got ${trials}`);
  const rng = mulberry32(seed);
  // Only the swapped slots are stored: the rest of the "array" is the identity.
  const swapped = new Map<number, number>();
  const at = (i: number): number => swapped.get(i) ?? i;
  const out: number[] = [];
  for (let i = 0; i < trials; i++) {
    const j = rng.int(i, size - 1);
    const picked = at(j);
    swapped.set(j, at(i));
    out.push(picked);
  }
  return out.sort((a, b) => a - b);
}

/** The index of a point in the grid's order (first axis slowest, as buildGrid walks it). */
function indexOf(axes: readonly TypedAxis[], positions: readonly Map<ParamValue, number>[], values: Readonly<Record<string, ParamValue>>): number {
  let index = 0;
  axes.forEach((a, k) => {
    index = index * a.values.length + (positions[k]!.get(values[a.name]!) ?? 0);
  });
  return index;
}

/** Refuses trials that are not a whole number in [1, grid size], naming the grid's size and shape. */
function checkTrials(grid: SweepGrid, trials: number, kind: 'random' | 'tpe'): number {
  const size = gridSize(grid.axes);
  const shape = `the grid has ${size} point(s) (${grid.axes.map((a) => `${a.name}: ${a.values.length}`).join(' x ') || 'no axes'})`;
  if (!Number.isInteger(trials) || trials < 1) throw new SweepSearchError(`--trials ${trials}: expected a whole number from 1 to ${size}; ${shape}`);
  if (trials > size) throw new SweepSearchError(`--trials ${trials} is more than the grid's points: ${shape}; give at most ${size}, or drop --search ${kind} to run them all`);
  return size;
}

/**
 * The grid cut to `trials` random points drawn with `seed`: its runnable points and its skipped
 * ones among them, in grid order, with `search` saying so. Trials that are not a whole number in
 * [1, grid size] are refused, naming the grid's size.
 */
export function sampleGrid(grid: SweepGrid, trials: number, seed: number = DEFAULT_SEARCH_SEED): SweepGrid {
  const size = checkTrials(grid, trials, 'random');
  const drawn = new Set(sampleIndices(size, trials, seed));
  const positions = grid.axes.map((a) => new Map(a.values.map((v, i) => [v, i] as const)));
  const keep = (values: Readonly<Record<string, ParamValue>>): boolean => drawn.has(indexOf(grid.axes, positions, values));
  return { axes: grid.axes, points: grid.points.filter((p) => keep(p.values)), skipped: grid.skipped.filter((s) => keep(s.values)), search: { kind: 'random', trials, seed, gridSize: size } };
}

/**
 * The whole grid marked for a TPE search of `trials` points with `seed` (trials checked as for a
 * random search): runSweep proposes the points from it round by round (sweep-tpe-rounds.ts).
 */
export function tpeGrid(grid: SweepGrid, trials: number, seed: number = DEFAULT_SEARCH_SEED): SweepGrid {
  const size = checkTrials(grid, trials, 'tpe');
  return { axes: grid.axes, points: grid.points, skipped: grid.skipped, search: { kind: 'tpe', trials, seed, gridSize: size } };
}

/**
 * The terminal's line for a search, e.g. "random search: 40 of 1702 grid points (seed 1)" or, once
 * a TPE search ran, "TPE search: 40 of 1702 grid points (seed 1): 10 at random, then 30 proposed
 * 2 a round from the results so far, 16 rounds" (the batch is the trials', whatever the workers).
 */
export const searchLine = (grid: { search?: SweepSearch | undefined }): string | undefined => {
  const s = grid.search;
  if (s === undefined) return undefined;
  const head = `${s.kind === 'tpe' ? 'TPE' : 'random'} search: ${s.trials} of ${s.gridSize} grid points (seed ${s.seed})`;
  if (s.kind === 'random' || s.startup === undefined) return head;
  // No trials left after the random first round (a single trial): nothing was proposed.
  if (s.startup >= s.trials) return `${head}: all at random, as its first round is (give more --trials than ${s.trials} for proposals)`;
  return `${head}: ${s.startup} at random, then ${s.trials - s.startup} proposed ${s.batch ?? 1} a round from the results so far${s.rounds === undefined ? '' : `, ${s.rounds} rounds`}`;
};
