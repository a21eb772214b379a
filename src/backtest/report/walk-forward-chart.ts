/**
 * The walk-forward report's chart of the combined out-of-sample equity (walk-forward-stitch.ts)
 * and its drawdown below the running peak, one above the other on one time axis, with a dashed
 * line where each fold's test window starts. SVG drawn here, as the sweep report's other charts
 * (sweep-report-parts.ts, sweep-history.ts): the page needs no chart library and opens offline.
 * A gap between test windows is a flat stretch (the curve has no points there). The curve may
 * hold FOLD_CURVE_POINTS per fold; it is drawn at most DRAW_POINTS, thinned as the folds' own
 * curves were (equity-thin.ts), the drawdown taken on every point first so its worst survives.
 */
import { thinIndices } from '../output/equity-thin.ts';
import { fmtNum, fmtPct, fmtTime } from '../metrics/metrics-format.ts';
import { drawdownSeries } from '../metrics/metrics-returns.ts';
import { outOfSampleLine } from '../walk-forward/walk-forward-format.ts';
import type { WalkForwardResult } from '../walk-forward/walk-forward.ts';
import { escapeHtml } from './html-parts.ts';
import { axisRange } from './sweep-cells.ts';

const e = escapeHtml;
/** Points drawn of the stitched curve: beyond a point a pixel, more only weighs the page. */
export const DRAW_POINTS = 2_000;
const W = 900;
const PAD = { left: 70, right: 12, top: 22, bottom: 28 };
const f = (v: number): string => v.toFixed(1);

interface Pane {
  title: string;
  height: number;
  /** Drawn values, one per kept point. */
  ys: number[];
  yText: (y: number) => string;
  range: (ys: readonly number[]) => { yMin: number; yMax: number };
  cls: string;
}

export function outOfSampleChartHtml(result: WalkForwardResult): string {
  const oos = result.outOfSample;
  const head = `<h2>Combined out-of-sample equity</h2><p class="stats" id="oos-line">${e(outOfSampleLine(oos).trim())}</p>`;
  if (oos.equity.length === 0) return `<section id="out-of-sample">${head}<p class="muted">No test window ran: there is no out-of-sample curve.</p></section>`;
  const values = oos.equity.map((p) => p[1]);
  const first = values[0]!;
  const dd = drawdownSeries(first, values);
  const kept = thinIndices(values, first, DRAW_POINTS);
  const times = kept.map((i) => oos.equity[i]![0]);
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const px = (t: number): number => PAD.left + (t1 > t0 ? (t - t0) / (t1 - t0) : 0.5) * (W - PAD.left - PAD.right);
  const starts = result.folds.flatMap((fold) => (fold.testResult === undefined ? [] : [{ index: fold.index, from: fold.testResult.from }]));
  const panes: Pane[] = [
    { title: 'Equity (test windows chained)', height: 240, ys: kept.map((i) => values[i]!), yText: (y) => fmtNum(y), range: axisRange, cls: 'ln oos-equity' },
    { title: 'Drawdown below the running peak', height: 150, ys: kept.map((i) => -dd[i]!), yText: (y) => (y === 0 ? '0%' : `-${fmtPct(-y)}`), range: drawdownRange, cls: 'ln oos-drawdown' },
  ];
  const svgs = panes.map((pane) => paneSvg(pane, times, px, starts));
  const note = `<p class="note">The test windows' equity stitched end to end, each scaled to start where the one before ended (its return is the compounded one above); a dashed line marks where each fold's test window starts, and a gap between windows is a flat stretch. The drawdown is measured on this curve, so a fall across a join counts whole: it can be deeper than the worst fold's (the worst drawdown above). Drawn from ${kept.length.toLocaleString('en-US')} of its ${values.length.toLocaleString('en-US')} points, each stretch's highs and lows kept.</p>`;
  return `<section id="out-of-sample">${head}<figure class="line-chart oos" id="oos-chart" data-points="${values.length}" data-folds="${starts.length}">${svgs.join('')}</figure>${note}</section>`;
}

/** 0 at the top, the deepest drawdown at the bottom (1% when there is none: a flat line at the top). */
function drawdownRange(ys: readonly number[]): { yMin: number; yMax: number } {
  const deepest = Math.min(0, ...ys);
  return { yMin: deepest < 0 ? deepest : -1, yMax: 0 };
}

function paneSvg(pane: Pane, times: number[], px: (t: number) => number, starts: { index: number; from: number }[]): string {
  const H = pane.height;
  const yb = H - PAD.bottom;
  const { yMin, yMax } = pane.range(pane.ys);
  const py = (y: number): number => PAD.top + (1 - (y - yMin) / (yMax - yMin)) * (yb - PAD.top);
  const d = pane.ys.map((y, k) => `${k === 0 ? 'M' : 'L'}${f(px(times[k]!))},${f(py(y))}`).join('');
  const marks = starts.map((s) => `<g class="fold-start"><line x1="${f(px(s.from))}" y1="${PAD.top}" x2="${f(px(s.from))}" y2="${yb}"/><text x="${f(px(s.from) + 3)}" y="${PAD.top + 10}">F${s.index}</text><title>${e(`fold ${s.index}: test window from ${fmtTime(s.from)}`)}</title></g>`);
  const tMin = Math.min(...times);
  const tMax = Math.max(...times);
  const axes = `<line class="ax" x1="${PAD.left}" y1="${yb}" x2="${W - PAD.right}" y2="${yb}"/><line class="ax" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${yb}"/>`;
  const labels = `<text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${e(pane.yText(yMax))}</text><text x="${PAD.left - 4}" y="${yb}" text-anchor="end">${e(pane.yText(yMin))}</text><text x="${PAD.left}" y="${H - 8}">${e(fmtTime(tMin))}</text><text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${e(fmtTime(tMax))}</text>`;
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(pane.title)}"><text class="ttl" x="${PAD.left}" y="14">${e(pane.title)}</text>${axes}${marks.join('')}<path class="${pane.cls}" d="${d}"/>${labels}</svg>`;
}
