/**
 * What a single run's JSON holds of its per-bar series (issue 25, deliverable 4: outputs in
 * proportion). A year of 1-minute bars is 525,600 equity points and as many points per plotted
 * line: about 85 of the JSON's 90 MB, which a reader of the run rarely wants whole. So the JSON
 * holds what a user reads (the run's setup, fills, trades, denials, metrics) and, by default, the
 * equity curve sampled to at most SAMPLED_POINTS points; the whole series is written on request:
 *
 * - `sampled` (default): `run.series` says how many points the run has and where they are;
 *   `run.equitySampled` is the curve thinned as equity-thin.ts thins it (each bucket's lowest,
 *   highest and deepest-below-the-peak point, the first and last points, and the peak and trough
 *   of the deepest drawdown): its ends and its maximum drawdown are the run's exactly. Each
 *   plotted line keeps its name, pane and colour, and `pointCount` instead of its points.
 * - `csv`: the same JSON, and the whole series in `<run>-series.csv` beside it (series-csv.ts):
 *   a row a bar, opened as is by a spreadsheet or `pandas.read_csv`.
 * - `json`: the JSON as it was before (every point in `run.equity` and `run.plots[].points`), byte
 *   for byte.
 *
 * Only the file changes: the run and its metrics are the same objects whichever is chosen.
 */
import { equityColumnsOf, equityCurve, runForJson } from '../record/equity-columns.ts';
import { thinIndices } from './equity-thin.ts';
import { startEquityOf } from '../metrics/metrics.ts';
import { plotColumnsOf } from '../record/plot-recorder.ts';
import type { BacktestRun, EquityPoint, PlotLine } from '../types.ts';

export const SERIES_MODES = ['sampled', 'csv', 'json'] as const;
export type SeriesMode = (typeof SERIES_MODES)[number];

/** Points of `run.equitySampled` at most: a chart's worth (about 100 KB of JSON). */
export const SAMPLED_POINTS = 2_000;

/** What `run.series` says in a JSON without the per-bar points. */
export interface SeriesNote {
  /** The run's equity points (a bar each). */
  readonly points: number;
  /** Of them in `equitySampled`. */
  readonly sampled: number;
  /** The CSV with every point (`--series csv`), as its path was printed; absent when not written. */
  readonly csv?: string;
  /** How to get every point. */
  readonly full: string;
}

/**
 * The equity points kept when the curve is sampled to at most `max` (thinIndices): every point
 * when there are no more. Positions are the run's at those bars.
 */
export function sampledEquity(run: BacktestRun, max = SAMPLED_POINTS): EquityPoint[] {
  const c = equityColumnsOf(run);
  const curve = equityCurve(run);
  const kept = thinIndices(curve.values, startEquityOf(run), max);
  if (c === undefined) return kept.map((i) => run.equity[i] as EquityPoint);
  return kept.map((i) => ({ time: c.time[i] as number, equity: c.equity[i] as number, position: c.position[i] as number }));
}

/** A plotted line's points, counted without building them. */
function pointCount(line: PlotLine): number {
  return plotColumnsOf(line)?.times.length ?? line.points.length;
}

/**
 * `run` as the JSON writer (data/json-file.ts, through runForJson's view for `json`) should get it
 * for `mode`: the same keys in the same order, except, without the per-bar points, `equity`
 * replaced by `series` and `equitySampled`, and each plotted line's `points` by `pointCount`.
 * `csv` is the series CSV's path when one is written.
 */
export function runForFile(run: BacktestRun, mode: SeriesMode, csv?: string): object {
  if (mode === 'json') return runForJson(run);
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(run)) {
    if (key === 'equity') {
      const sampled = sampledEquity(run);
      const note: SeriesNote = {
        points: equityCurve(run).length,
        sampled: sampled.length,
        ...(csv === undefined ? {} : { csv }),
        full: csv === undefined ? 'every point: --series csv (a CSV beside this file) or --series json (in this file, as run.equity and run.plots[].points)' : `every point: ${csv}`,
      };
      view['series'] = note;
      view['equitySampled'] = sampled;
    } else if (key === 'plots' && run.plots !== undefined) {
      view[key] = run.plots.map((line) => ({ name: line.name, pane: line.pane, ...(line.color === undefined ? {} : { color: line.color }), pointCount: pointCount(line) }));
    } else Object.defineProperty(view, key, { enumerable: true, get: () => (run as unknown as Record<string, unknown>)[key] });
  }
  return view;
}
