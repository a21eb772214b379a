/**
 * The pieces of the sweep report page (sweep-report.ts): the run's context, the heatmaps (plain
 * HTML tables coloured by a metric), the line charts of a one-axis sweep (SVG drawn here), the
 * ranked table and the style sheet. Everything from the run is escaped. The page script
 * (sweep-page-script.js) only recolours the heatmaps for another metric and sorts the tables, from
 * what `heatmapData` precomputes: the page reads right without it.
 */
import { fmtDuration, fmtFillModel, fmtParams, fmtTime } from '../metrics/metrics-format.ts';
import { valueText, valuesText } from '../sweep/sweep-format.ts';
import type { ParamValue, TypedAxis } from '../sweep/sweep-grid.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import type { SweepResult } from '../sweep/sweep.ts';
import { escapeHtml } from './html-parts.ts';
import { axisRange, cellColour, lineCells, metricLabel, metricRange, metricText, metricValue, reportMetrics } from './sweep-cells.ts';
import type { GridCell, Heatmap } from './sweep-cells.ts';

const e = escapeHtml;


/** What the run was, beside the result: the page's header. */
export interface SweepReportContext {
  /** The params every combination starts from (the swept ones are the axes); no row without them (a comparison of strategies: each has its own). */
  baseParams?: Record<string, unknown>;
  fees: { maker: string; taker: string };
  /** The resolved fill model (fill-model.ts resolveFillModel). */
  fillModel: Readonly<Record<string, unknown>>;
  balances: Record<string, string>;
  /** Where the bars came from (the journal file). */
  data?: string;
  /** The range asked for, ms (shown when no run reports its own). */
  from?: number;
  to?: number;
}

export interface ContextRange {
  from: number;
  to: number;
  bars?: number;
}

/** "2024-01-01 00:00 UTC → 2024-01-03 02:00 UTC (2d 2h, 3,000 bars)". */
export const rangeText = (r: ContextRange): string => `${fmtTime(r.from)} → ${fmtTime(r.to)} (${fmtDuration(r.to - r.from)}${r.bars === undefined ? '' : `, ${r.bars.toLocaleString('en-US')} bars`})`;

/** The header: what ran, on what, with which costs; `extra` rows after the usual ones. */
export function contextHtml(title: string, ctx: SweepReportContext, range: ContextRange | undefined, extra: [string, string][] = []): string {
  const rows: [string, string][] = [
    ...(ctx.baseParams === undefined ? [] : [['Base params', fmtParams(ctx.baseParams)] as [string, string]]),
    ...(range === undefined ? [] : [['Range', rangeText(range)] as [string, string]]),
    ...(ctx.data === undefined ? [] : [['Data', ctx.data] as [string, string]]),
    ['Fees', `maker ${ctx.fees.maker}, taker ${ctx.fees.taker}`],
    ['Fill model', fmtFillModel(ctx.fillModel) || '(default)'],
    ['Balances', Object.entries(ctx.balances).map(([a, v]) => `${v} ${a}`).join(', ') || '(none)'],
    ...extra,
  ];
  return `<header>
  <h1>${title}</h1>
  <dl class="meta" id="context">${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${k === 'Base params' ? `<code>${e(v)}</code>` : e(v)}</dd>`).join('')}</dl>
</header>`;
}

/** The run's range from what its combinations report (they all play the same bars). */
export function sweepRange(result: SweepResult, ctx: SweepReportContext): ContextRange | undefined {
  const first = result.entries[0];
  if (first) return { from: first.from, to: first.to, bars: first.barCount };
  return ctx.from !== undefined && ctx.to !== undefined ? { from: ctx.from, to: ctx.to } : undefined;
}

/** The metric selector (the heatmaps show the rank metric until another is chosen). */
export function metricSelectHtml(rankBy: RankMetric): string {
  const options = reportMetrics(rankBy).map((m) => `<option value="${m}"${m === rankBy ? ' selected' : ''}>${e(metricLabel(m))}${m === rankBy ? ' (ranked by)' : ''}</option>`);
  return `<label class="select">Colour and values by <select id="metric">${options.join('')}</select></label>`;
}

/** Per heatmap, per metric: each ran cell's text and colour (in data-cell order), for the page script. */
export type HeatmapData = Record<string, { texts: string[]; colours: string[] }>[];

/** The legend per metric: the worst and best values of the grid and their colours. */
export type LegendData = Record<string, { low: string; high: string; lowColour: string; highColour: string; note: string }>;

export function legendData(result: SweepResult): LegendData {
  const out: LegendData = {};
  if (result.entries.length === 0) return out;
  for (const m of reportMetrics(result.rankBy)) {
    const range = metricRange(result, m);
    const finite = Number.isFinite(range.min);
    const text = (x: number): string => (finite ? metricText({ ...result.entries[0]!.metrics, trades: 1, [m]: x }, m) : 'n/a');
    const note = m === 'trades' || m === 'exposurePct' ? 'neutral scale' : m === 'maxDrawdownPct' || m === 'feesPaid' ? 'lower is better' : 'higher is better';
    out[m] = { low: text(range.min), high: text(range.max), lowColour: cellColour(m, range.min, range), highColour: cellColour(m, range.max, range), note };
  }
  return out;
}

export function legendHtml(result: SweepResult, legend: LegendData): string {
  const l = legend[result.rankBy];
  if (!l || result.entries.length === 0) return '';
  return `<p class="legend" id="legend"><span class="swatch" id="legend-low" style="background:${l.lowColour}">${e(l.low)}</span> … <span class="swatch" id="legend-high" style="background:${l.highColour}">${e(l.high)}</span> <span class="muted" id="legend-note">(${e(l.note)}; grey: n/a, no closed trade)</span></p>`;
}

/** Why a grid point is not in a search's result: not drawn (random) or not proposed (TPE). */
export const notRunText = (search: SweepResult['search']): string => (search?.kind === 'tpe' ? 'not proposed by the TPE search' : 'not drawn by the random search');

/** " (trial 12, round 5)" for a point a TPE search tried, else nothing. */
export const trialText = (t: { trial?: number; round?: number }): string => (t.trial === undefined ? '' : ` (trial ${t.trial}${t.round === undefined ? '' : `, round ${t.round}`})`);

/** A cell's title (tooltip): its values and what happened there. */
function cellTitle(values: Record<string, ParamValue>, cell: GridCell, search: SweepResult['search']): string {
  const at = valuesText(values);
  switch (cell.kind) {
    case 'skipped':
      return `${at}: skipped by the params schema: ${cell.reason}`;
    case 'failed':
      return `${at}: failed: ${cell.error}`;
    case 'absent':
      return search !== undefined ? `${at}: not run (${notRunText(search)})` : `${at}: not in the grid`;
    case 'ran': {
      const m = cell.entry.metrics;
      const figures = reportMetrics('sharpe').map((k) => `${metricLabel(k)} ${metricText(m, k)}`).join(', ');
      const stopped = cell.entry.firstFailure === undefined ? '' : `; the strategy was stopped: ${cell.entry.firstFailure}`;
      return `#${cell.entry.rank} ${at}${trialText(cell.entry)}: ${figures}${stopped}`;
    }
  }
}

/** A heatmap as a table; pushes its cells' texts and colours for every metric onto `data`. */
export function heatmapHtml(map: Heatmap, index: number, result: SweepResult, data: HeatmapData): string {
  const metrics = reportMetrics(result.rankBy);
  const ranges = Object.fromEntries(metrics.map((m) => [m, metricRange(result, m)]));
  const mapData: HeatmapData[number] = Object.fromEntries(metrics.map((m) => [m, { texts: [], colours: [] }]));
  const bestRank = result.entries[0]?.rank;
  let n = 0;
  const head = `<tr><th class="corner">${e(map.rowAxis.name)} ↓ ${e(map.colAxis.name)} →</th>${map.colAxis.values.map((v) => `<th scope="col">${e(valueText(v))}</th>`).join('')}</tr>`;
  const rows = map.cells.map((row, r) => {
    const rowValue = map.rowAxis.values[r]!;
    const tds = row.map((cell, c) => {
      const values = { [map.rowAxis.name]: rowValue, [map.colAxis.name]: map.colAxis.values[c]!, ...map.fixed };
      const title = e(cellTitle(values, cell, result.search));
      if (cell.kind !== 'ran') {
        const word = cell.kind === 'skipped' ? 'skipped' : cell.kind === 'failed' ? 'failed' : result.search !== undefined ? 'not run' : '';
        return `<td class="cell ${cell.kind}" title="${title}">${word}</td>`;
      }
      const m = cell.entry.metrics;
      for (const k of metrics) {
        mapData[k]!.texts.push(metricText(m, k));
        mapData[k]!.colours.push(cellColour(k, metricValue(m, k), ranges[k]!));
      }
      const classes = ['cell', 'ran', ...(cell.entry.rank === bestRank ? ['best'] : []), ...(cell.entry.firstFailure === undefined ? [] : ['stopped'])];
      const colour = mapData[result.rankBy]!.colours[n]!;
      const text = mapData[result.rankBy]!.texts[n]!;
      return `<td class="${classes.join(' ')}" data-cell="${n++}" data-rank="${cell.entry.rank}" style="background:${colour}" title="${title}">${e(text)}</td>`;
    });
    return `<tr><th scope="row">${e(valueText(rowValue))}</th>${tds.join('')}</tr>`;
  });
  data.push(mapData);
  const held = Object.keys(map.fixed).length ? ` <span class="muted">(${e(valuesText(map.fixed))})</span>` : '';
  return `<figure class="heatmap" data-heatmap="${index}"><figcaption>${e(map.rowAxis.name)} × ${e(map.colAxis.name)}${held}</figcaption><table class="heat"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></figure>`;
}

const W = 340;
const H = 190;
const PAD = { left: 58, right: 12, top: 22, bottom: 34 };

/** A metric over one axis as an SVG line chart: gaps where a point did not run, the best ringed, skipped or failed points crossed on the axis. */
export function lineChartSvg(result: SweepResult, index: Map<string, GridCell>, axis: TypedAxis, metric: RankMetric): string {
  const cells = lineCells(result, index, axis);
  const numeric = axis.values.every((v) => typeof v === 'number');
  const xs = cells.map((c, i) => (numeric ? (c.value as number) : i));
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const ys = cells.map((c) => (c.cell.kind === 'ran' ? metricValue(c.cell.entry.metrics, metric) : NaN));
  const { yMin, yMax } = axisRange(ys);
  const px = (x: number): number => PAD.left + (xMax === xMin ? 0.5 : (x - xMin) / (xMax - xMin)) * (W - PAD.left - PAD.right);
  const py = (y: number): number => PAD.top + (1 - (Math.min(yMax, Math.max(yMin, y)) - yMin) / (yMax - yMin)) * (H - PAD.top - PAD.bottom);
  const f = (n: number): string => n.toFixed(1);
  // The line breaks where a point has no finite value (n/a, skipped, failed); an infinity sits at the edge.
  let path = '';
  let pen = false;
  const marks: string[] = [];
  const bestRank = result.entries[0]?.rank;
  cells.forEach((c, i) => {
    const x = px(xs[i]!);
    const y = ys[i]!;
    const label = `${axis.name}=${valueText(c.value)}`;
    if (Number.isNaN(y)) {
      pen = false;
      if (c.cell.kind === 'skipped' || c.cell.kind === 'failed') {
        const yb = H - PAD.bottom;
        marks.push(`<path class="off ${c.cell.kind}" d="M${f(x - 4)},${f(yb - 4)}L${f(x + 4)},${f(yb + 4)}M${f(x - 4)},${f(yb + 4)}L${f(x + 4)},${f(yb - 4)}"><title>${e(label)}: ${c.cell.kind}</title></path>`);
      }
      return;
    }
    path += `${pen ? 'L' : 'M'}${f(x)},${f(py(y))}`;
    pen = true;
    const best = c.cell.kind === 'ran' && c.cell.entry.rank === bestRank;
    const text = c.cell.kind === 'ran' ? metricText(c.cell.entry.metrics, metric) : '';
    marks.push(`<circle class="pt${best ? ' best' : ''}" cx="${f(x)}" cy="${f(py(y))}" r="${best ? 5 : 2.5}"><title>${e(`${label}: ${metricLabel(metric)} ${text}${best ? ' (best)' : ''}`)}</title></circle>`);
  });
  const yLabel = (y: number): string => metricText({ ...result.entries[0]!.metrics, trades: 1, [metric]: y }, metric);
  const step = Math.max(1, Math.ceil(cells.length / 8));
  const ticks = cells
    .map((c, i) => (i % step === 0 || i === cells.length - 1 ? `<text x="${f(px(xs[i]!))}" y="${H - PAD.bottom + 14}" text-anchor="middle">${e(valueText(c.value))}</text>` : ''))
    .join('');
  const axes = `<line class="ax" x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}"/><line class="ax" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}"/>`;
  const yTicks = ys.some(Number.isFinite) ? `<text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${e(yLabel(yMax))}</text><text x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end">${e(yLabel(yMin))}</text>` : '';
  return `<figure class="line-chart" data-metric="${metric}"><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(`${metricLabel(metric)} over ${axis.name}`)}"><text class="ttl" x="${PAD.left}" y="14">${e(metricLabel(metric))}</text>${axes}${ticks}${yTicks}<text x="${W - PAD.right}" y="${H - 4}" text-anchor="end" class="muted">${e(axis.name)}</text><path class="ln" d="${path}"/>${marks.join('')}</svg></figure>`;
}

/** Rows the ranked table shows; the rest are counted in a line (the JSON holds every one). */
export const MAX_TABLE_ROWS = 5_000;

/** A sortable cell: its text, and the value it sorts by. */
const td = (text: string, sort: number | string): string => `<td data-v="${e(typeof sort === 'number' ? (Number.isNaN(sort) ? '' : String(sort)) : sort)}">${e(text)}</td>`;

export function rankedTableHtml(result: SweepResult): string {
  const metrics = reportMetrics(result.rankBy);
  const names = result.axes.map((a) => a.name);
  // A TPE search's order: sort by Trial to read the search as it went.
  const order = result.search?.kind === 'tpe';
  const head = ['#', ...(order ? ['Trial', 'Round'] : []), ...names, ...metrics.map((m) => `${metricLabel(m)}${m === result.rankBy ? '*' : ''}`), 'Net PnL', 'Notes'];
  const rows = result.entries.slice(0, MAX_TABLE_ROWS).map((en) => {
    const notes = [en.firstFailure === undefined ? '' : `stopped: ${en.firstFailure}`, ...(en.notices ?? []), en.logs > 0 ? `${en.logs} log line(s)` : ''].filter((s) => s !== '').join('; ');
    const cells = [
      td(String(en.rank), en.rank),
      ...(order ? [td(String(en.trial ?? ''), en.trial ?? NaN), td(String(en.round ?? ''), en.round ?? NaN)] : []),
      ...names.map((n) => td(valueText(en.values[n]), typeof en.values[n] === 'number' ? (en.values[n] as number) : String(en.values[n]))),
      ...metrics.map((m) => td(metricText(en.metrics, m), metricValue(en.metrics, m))),
      td(metricText(en.metrics, 'netPnl'), en.metrics.netPnl),
      td(notes, notes),
    ];
    return `<tr${en.rank === 1 ? ' class="best"' : ''}>${cells.join('')}</tr>`;
  });
  const more = result.entries.length > MAX_TABLE_ROWS ? `<p class="muted">Showing the first ${MAX_TABLE_ROWS.toLocaleString('en-US')} of ${result.entries.length.toLocaleString('en-US')} combinations (the JSON holds every one).</p>` : '';
  const table = result.entries.length
    ? `<table class="sortable" id="ranked-table"><thead><tr>${head.map((h) => `<th title="sort">${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${more}<p class="note">* ranked by this column (--rank-by ${e(result.rankBy)}). Click a header to sort.</p>`
    : '<p class="muted">No combination ran.</p>';
  return `<section id="ranked"><h2>Ranked combinations</h2>${table}${problemsHtml(result)}</section>`;
}

/** Skipped and failed combinations (first 50 of each), under the table. */
function problemsHtml(result: SweepResult): string {
  const list = (items: { values: Record<string, ParamValue>; why: string }[]) => `<ul>${items.slice(0, 50).map((x) => `<li><code>${e(valuesText(x.values))}</code>: ${e(x.why)}</li>`).join('')}</ul>${items.length > 50 ? `<p class="muted">and ${items.length - 50} more.</p>` : ''}`;
  const parts: string[] = [];
  if (result.skipped.length) parts.push(`<h3 id="skipped">${result.skipped.length} combination(s) skipped, rejected by the params schema</h3>${list(result.skipped.map((s) => ({ values: s.values, why: s.reason })))}`);
  if (result.failed.length) parts.push(`<h3 id="failed">${result.failed.length} combination(s) failed</h3>${list(result.failed.map((f) => ({ values: f.values, why: f.error })))}`);
  return parts.join('');
}

export const SWEEP_STYLE = `
.select{display:inline-block;margin:4px 0 8px}.select select{font:inherit;margin-left:6px}
.heatmaps{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
figure{margin:0}figcaption{font-weight:600;margin:0 0 4px}
table.heat{width:auto;border-collapse:separate;border-spacing:2px;background:none}
table.heat th{background:#f1f5f9;position:static;text-align:center;padding:3px 6px;border:0}
table.heat th[scope=row]{text-align:right}
table.heat td.cell{text-align:center;min-width:52px;padding:4px 6px;border:1px solid transparent;border-radius:3px;font-size:12px}
table.heat th:nth-child(2),table.heat td:nth-child(2){text-align:center}
td.cell.best{border:2px solid #111827;font-weight:700}td.cell.best::before{content:"★ "}
td.cell.stopped{outline:2px dashed #b91c1c;outline-offset:-3px}
td.cell.skipped,td.cell.failed,td.cell.absent{background:repeating-linear-gradient(45deg,#f3f4f6,#f3f4f6 4px,#e5e7eb 4px,#e5e7eb 8px);color:#6b7280;font-style:italic}
td.cell.failed{color:#b91c1c}
.legend .swatch{display:inline-block;padding:1px 8px;border-radius:3px}
.robust{padding:8px 12px;border-radius:6px;border:1px solid #e5e7eb;background:#fff}.robust.plateau{border-color:#86efac}.robust.peak{border-color:#fcd34d;background:#fffbeb}.robust.spike{border-color:#fca5a5;background:#fef2f2}
.charts{display:flex;flex-wrap:wrap;gap:12px}.line-chart{background:#fff;border:1px solid #e5e7eb;border-radius:6px}
.line-chart text{font-size:10px;fill:#374151}.line-chart .ttl{font-size:12px;font-weight:600}.line-chart .ax{stroke:#9ca3af}
.line-chart .ln{fill:none;stroke:#2563eb;stroke-width:1.5}.line-chart .pt{fill:#2563eb}.line-chart .pt.best{fill:#f59e0b;stroke:#111827;stroke-width:1.5}
.line-chart .off{stroke:#9ca3af;stroke-width:1.5}.line-chart .off.failed{stroke:#b91c1c}
.line-chart .startup{fill:#f1f5f9}.line-chart .pt.stopped{fill:#b91c1c}.line-chart .best-so-far{stroke:#f59e0b;stroke-width:2}
table.sortable th{cursor:pointer;user-select:none}table.sortable th.asc::after{content:" ▲"}table.sortable th.desc::after{content:" ▼"}
#ranked-table tr.best td{font-weight:600}
.line-chart.oos svg{display:block}.line-chart .oos-drawdown{stroke:#dc2626}
.line-chart .fold-start line{stroke:#6b7280;stroke-dasharray:4 3}.line-chart .fold-start text{fill:#6b7280}
#ranked-table td:last-child,#folds-table td:last-child,#ranked-table th:last-child,#folds-table th:last-child{text-align:left;white-space:normal;min-width:200px}
`;
