/**
 * The parameter landscape of a sweep as data, for the sweep report (sweep-report.ts): every grid
 * point found by its axis values (ran, skipped by the params schema, or failed), the cells of a
 * heatmap over two axes with the other axes held, a metric's text and colour, and the robustness
 * of the best combination (its rank metric against the median of its grid neighbours: a plateau
 * or a lonely spike). A random search's result (sweep-sample.ts) covers part of the grid: the points
 * it did not draw are 'absent' cells, and no neighbour. Pure: no HTML, no I/O.
 */
import { fmtNum, fmtPct, fmtSignedPct } from '../metrics/metrics-format.ts';
import type { ParamValue, TypedAxis } from '../sweep/sweep-grid.ts';
import { score } from '../sweep/sweep-rank.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import type { SweepEntry, SweepResult } from '../sweep/sweep.ts';
import type { BacktestMetrics } from '../types.ts';

/** What happened at one grid point. */
export type GridCell =
  | { kind: 'ran'; entry: SweepEntry }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; error: string }
  /** Not in the result at all: a point a random search did not draw (never from a full grid's runSweep). */
  | { kind: 'absent' };

/** The metrics a report shows for each point, in this order after the rank metric. */
export const REPORT_METRICS: readonly RankMetric[] = ['returnPct', 'maxDrawdownPct', 'sharpe', 'sortino', 'profitFactor', 'winRatePct', 'trades'];

const LABELS: Record<RankMetric, string> = {
  sharpe: 'Sharpe',
  sortino: 'Sortino',
  netPnl: 'Net PnL',
  returnPct: 'Return',
  cagrPct: 'CAGR',
  calmar: 'Calmar',
  maxDrawdownPct: 'Max drawdown',
  winRatePct: 'Win rate',
  profitFactor: 'Profit factor',
  exposurePct: 'Exposure',
  feesPaid: 'Fees',
  trades: 'Trades',
  endEquity: 'End equity',
  startEquity: 'Start equity',
  marketReturnPct: 'Buy and hold',
  fills: 'Fills',
};

export const metricLabel = (m: RankMetric): string => LABELS[m];

/** The rank metric first, then the report's others. */
export function reportMetrics(rankBy: RankMetric): RankMetric[] {
  return [rankBy, ...REPORT_METRICS.filter((m) => m !== rankBy)];
}

/** A metric as the sweep table prints it (sweep-format.ts): without a closed trade, no win rate nor profit factor. */
export function metricText(m: BacktestMetrics, key: RankMetric): string {
  if ((key === 'winRatePct' || key === 'profitFactor') && m.trades === 0) return 'n/a';
  switch (key) {
    case 'returnPct':
    case 'cagrPct':
    case 'marketReturnPct':
      return fmtSignedPct(m[key]);
    case 'maxDrawdownPct':
      return fmtPct(m[key]);
    case 'winRatePct':
    case 'exposurePct':
      return fmtPct(m[key], 1);
    case 'trades':
    case 'fills':
      return String(m[key]);
    default:
      return fmtNum(m[key]);
  }
}

/** The value a metric is coloured and sorted by; NaN where the text is n/a. */
export function metricValue(m: BacktestMetrics, key: RankMetric): number {
  if ((key === 'winRatePct' || key === 'profitFactor') && m.trades === 0) return NaN;
  return m[key];
}

/** Metrics that are neither good nor bad by their size: coloured on a neutral scale. */
const NEUTRAL = new Set<RankMetric>(['trades', 'fills', 'exposurePct']);

/** Key of a point: its values in axis order. */
export const pointKey = (axes: readonly TypedAxis[], values: Readonly<Record<string, ParamValue>>): string => JSON.stringify(axes.map((a) => values[a.name] ?? null));

/** Every point of the result by its key. */
export function gridIndex(result: SweepResult): Map<string, GridCell> {
  const index = new Map<string, GridCell>();
  for (const s of result.skipped) index.set(pointKey(result.axes, s.values), { kind: 'skipped', reason: s.reason });
  for (const f of result.failed) index.set(pointKey(result.axes, f.values), { kind: 'failed', error: f.error });
  for (const e of result.entries) index.set(pointKey(result.axes, e.values), { kind: 'ran', entry: e });
  return index;
}

/** The axes with more than one value: the ones the landscape spreads over. */
export const varyingAxes = (result: SweepResult): TypedAxis[] => result.axes.filter((a) => a.values.length > 1);

/** The combination the report marks: the top entry (ranked first). */
export const bestEntry = (result: SweepResult): SweepEntry | undefined => result.entries[0];

export interface Heatmap {
  rowAxis: TypedAxis;
  colAxis: TypedAxis;
  /** The other axes' values every cell shares (the best combination's). */
  fixed: Record<string, ParamValue>;
  /** cells[row][col]. */
  cells: GridCell[][];
}

/** The cells over two axes, the other axes at `fixed`'s values. */
export function heatmap(result: SweepResult, index: Map<string, GridCell>, rowAxis: TypedAxis, colAxis: TypedAxis, fixed: Readonly<Record<string, ParamValue>>): Heatmap {
  const held = Object.fromEntries(result.axes.filter((a) => a.name !== rowAxis.name && a.name !== colAxis.name).map((a) => [a.name, fixed[a.name] ?? a.values[0]!]));
  const cells = rowAxis.values.map((r) => colAxis.values.map((c) => index.get(pointKey(result.axes, { ...held, [rowAxis.name]: r, [colAxis.name]: c })) ?? { kind: 'absent' as const }));
  return { rowAxis, colAxis, fixed: held, cells };
}

/** Every pair of the varying axes (first axis on the rows), the others held at the best combination's values. */
export function pairHeatmaps(result: SweepResult, index: Map<string, GridCell> = gridIndex(result)): Heatmap[] {
  const axes = varyingAxes(result);
  const best = bestEntry(result);
  if (!best) return [];
  const maps: Heatmap[] = [];
  for (let i = 0; i < axes.length; i++) for (let j = i + 1; j < axes.length; j++) maps.push(heatmap(result, index, axes[i]!, axes[j]!, best.values));
  return maps;
}

/** The cells along one axis, the other axes at the best combination's values. */
export function lineCells(result: SweepResult, index: Map<string, GridCell>, axis: TypedAxis): { value: ParamValue; cell: GridCell }[] {
  const best = bestEntry(result);
  const held = best?.values ?? Object.fromEntries(result.axes.map((a) => [a.name, a.values[0]!]));
  return axis.values.map((value) => ({ value, cell: index.get(pointKey(result.axes, { ...held, [axis.name]: value })) ?? { kind: 'absent' as const } }));
}

/** An entry whose figures count for the landscape: it ran to the end (a stopped run's are of a stopped run). */
const counts = (c: GridCell | undefined): c is { kind: 'ran'; entry: SweepEntry } => c?.kind === 'ran' && c.entry.firstFailure === undefined;

/** Axes past which neighbours are only those one step along a single axis (3^n points grow too fast). */
export const MAX_DIAGONAL_AXES = 8;

/**
 * The grid neighbours of a point: every point one step away along one or more axes (the 8 around a
 * cell of a 2-axis grid, the 2 beside it on one axis), as cells; with more than MAX_DIAGONAL_AXES
 * varying axes, one step along a single axis only. An axis of one value has no step.
 */
export function neighbours(result: SweepResult, index: Map<string, GridCell>, values: Readonly<Record<string, ParamValue>>): GridCell[] {
  const at = result.axes.map((a) => a.values.indexOf(values[a.name]!));
  if (at.some((i) => i < 0)) return [];
  const moving = result.axes.flatMap((a, i) => (a.values.length > 1 ? [i] : []));
  const diagonal = moving.length <= MAX_DIAGONAL_AXES;
  const out: GridCell[] = [];
  const visit = (steps: ReadonlyMap<number, number>): void => {
    const point: Record<string, ParamValue> = {};
    for (let i = 0; i < result.axes.length; i++) {
      const v = result.axes[i]!.values[at[i]! + (steps.get(i) ?? 0)];
      if (v === undefined) return;
      point[result.axes[i]!.name] = v;
    }
    out.push(index.get(pointKey(result.axes, point)) ?? { kind: 'absent' });
  };
  if (!diagonal) {
    for (const i of moving) for (const d of [-1, 1]) visit(new Map([[i, d]]));
    return out;
  }
  const offsets = (k: number, acc: Map<number, number>): void => {
    if (k === moving.length) {
      if ([...acc.values()].some((d) => d !== 0)) visit(acc);
      return;
    }
    for (const d of [-1, 0, 1]) offsets(k + 1, new Map([...acc, [moving[k]!, d]]));
  };
  offsets(0, new Map());
  return out;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Robustness {
  metric: RankMetric;
  /** The best combination's value of the rank metric. */
  best: number;
  /** Median of its neighbours that ran to the end (NaN with none). */
  neighbourMedian: number;
  /** Median over the rest of the grid: the combinations that ran to the end beyond the best and its neighbours (NaN with none). */
  restMedian: number;
  /** Neighbours counted, and those in the grid that did not count (skipped, failed, stopped). */
  neighbours: number;
  uncounted: number;
  /** Combinations in the rest of the grid. */
  rest: number;
  /**
   * The share of the best's lead over the rest of the grid that its neighbours keep, in the rank's
   * direction (1: as good as the best, 0: no better than the rest, below 0: worse). Undefined when
   * it cannot be measured (no neighbour, no rest, an infinite value, a flat grid).
   */
  kept?: number;
  verdict: 'plateau' | 'peak' | 'spike' | 'flat' | 'unknown';
  /** Two or three sentences for the page. */
  text: string;
}

/** Kept share at or above which the best sits on a plateau, and below which it is a spike (a peak between). */
export const PLATEAU_KEPT = 0.5;
export const SPIKE_KEPT = 0.2;

/**
 * How the best combination compares with its grid neighbours, against the rest of the grid (not
 * the whole grid: in a small one the neighbours are most of it and would pull its median to
 * theirs); undefined without a best that ran to the end.
 */
export function robustness(result: SweepResult, index: Map<string, GridCell> = gridIndex(result)): Robustness | undefined {
  const best = bestEntry(result);
  if (!best || best.firstFailure !== undefined) return undefined;
  const by = result.rankBy;
  // A neighbour a random search did not draw is no evidence either way: left out, not counted as "uncounted".
  const near = neighbours(result, index, best.values).filter((c) => c.kind !== 'absent');
  const ran = near.filter(counts);
  const nearKeys = new Set([best, ...ran.map((c) => c.entry)]);
  const nbScores = ran.map((c) => score(c.entry.metrics, by));
  const rest = result.entries.filter((e) => e.firstFailure === undefined && !nearKeys.has(e)).map((e) => score(e.metrics, by));
  const bestScore = score(best.metrics, by);
  const nbMedian = median(nbScores);
  const restMedian = median(rest);
  const sign = by === 'maxDrawdownPct' || by === 'feesPaid' ? -1 : 1;
  const base = { metric: by, best: best.metrics[by], neighbourMedian: sign * nbMedian, restMedian: sign * restMedian, neighbours: ran.length, uncounted: near.length - ran.length, rest: rest.length };
  const label = metricLabel(by);
  const fmt = (x: number): string => metricText({ ...best.metrics, trades: 1, [by]: x }, by);
  const uncounted = base.uncounted ? ` (${base.uncounted} more skipped, failed or stopped, not counted)` : '';
  if (ran.length === 0) return { ...base, verdict: 'unknown', text: `The best combination has no grid neighbour that ran to the end${near.length ? ` (${near.length} skipped, failed or stopped)` : ''}: whether it is a plateau or a spike cannot be told. Sweep a finer grid around it.` };
  const numbers = `${label} ${fmt(base.best)} at the best vs a median of ${fmt(base.neighbourMedian)} over its ${ran.length} grid neighbour(s)${uncounted}`;
  if (rest.length === 0) return { ...base, verdict: 'unknown', text: `${numbers}; every other combination is one of them, so there is nothing further away to compare with. Sweep a wider grid to tell a plateau from a spike.` };
  const withRest = `${numbers} and ${fmt(base.restMedian)} over the other ${rest.length} combination(s).`;
  if (![bestScore, nbMedian, restMedian].every(Number.isFinite)) return { ...base, verdict: 'unknown', text: `${withRest} An infinite value makes the comparison meaningless.` };
  const lead = bestScore - restMedian;
  if (lead <= 0) return { ...base, verdict: 'flat', text: `${withRest} The best is no better than the rest of the grid: the grid is flat for this metric (the parameters barely matter here).` };
  const kept = (nbMedian - restMedian) / lead;
  const pct = `${Math.round(kept * 100)}%`;
  if (kept >= PLATEAU_KEPT) {
    return { ...base, kept, verdict: 'plateau', text: `${withRest} Its neighbours keep ${pct} of its lead over the rest: a plateau. Nearby parameters do about as well, so the result does not hang on the exact values.` };
  }
  if (kept >= SPIKE_KEPT) {
    return { ...base, kept, verdict: 'peak', text: `${withRest} Its neighbours keep ${pct} of its lead over the rest: a peak. Nearby parameters still beat the rest but fall off clearly; the figures lean on the exact values, so check them out of sample (--walk-forward).` };
  }
  return { ...base, kept, verdict: 'spike', text: `${withRest} Its neighbours keep only ${pct} of its lead over the rest: a spike. Nearby parameters do no better than the rest of the grid, so the best may be fitted to noise; prefer a combination inside a good region, and check it out of sample (--walk-forward).` };
}

/** Finite range of a metric over every entry, for the colour scale. */
/** A chart's value axis over `ys`: their finite min and max, one either side when they are equal, [0, 1] when none is finite. */
export function axisRange(ys: readonly number[]): { yMin: number; yMax: number } {
  const finite = ys.filter(Number.isFinite);
  const yMin = finite.length ? Math.min(...finite) : 0;
  const yMax = finite.length ? Math.max(...finite) : 1;
  return yMin === yMax ? { yMin: yMin - 1, yMax: yMax + 1 } : { yMin, yMax };
}

export function metricRange(result: SweepResult, key: RankMetric): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const e of result.entries) {
    const v = metricValue(e.metrics, key);
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/**
 * A cell's background for a value of a metric: red (worst) through yellow to green (best) in the
 * rank's direction, a neutral blue scale for trades and exposure, grey for n/a. Infinities take
 * the end of their side.
 */
export function cellColour(key: RankMetric, value: number, range: { min: number; max: number }): string {
  if (Number.isNaN(value)) return '#e5e7eb';
  const span = range.max - range.min;
  let t = value === Infinity ? 1 : value === -Infinity ? 0 : span > 0 ? (value - range.min) / span : 0.5;
  t = Math.min(1, Math.max(0, t));
  if (NEUTRAL.has(key)) return `hsl(214, 80%, ${Math.round(95 - t * 30)}%)`;
  if (key === 'maxDrawdownPct' || key === 'feesPaid') t = 1 - t;
  return `hsl(${Math.round(t * 120)}, 70%, ${Math.round(78 - 10 * Math.abs(t - 0.5))}%)`;
}
