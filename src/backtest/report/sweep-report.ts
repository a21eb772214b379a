/**
 * The sweep report: ONE self-contained HTML page that opens offline from disk, as the single-run
 * report does (html-report.ts): the style sheet, the data (a `type="application/json"` script,
 * every `<` escaped) and the page script inline; no network, no CDN. It needs no chart library:
 * the heatmaps are plain tables and the line charts SVG drawn here.
 *
 * Content: the run's context; the best combination and its robustness (its rank metric against the
 * median of its grid neighbours: a plateau or a lonely spike, sweep-cells.ts); the landscape: a
 * heatmap for two swept axes, a line chart per metric for one, a heatmap per pair of axes (the
 * others held at the best's values) for three or more, with a selector of the metric the heatmaps
 * show; then the ranked table (sortable) and the skipped and failed combinations. A random or TPE
 * search says so in the header and the summary, and the cells it did not run read "not run"; a
 * TPE search adds its history (each trial's score and the best so far, sweep-history.ts) and each
 * point's trial and round. When the page script has run, the body gets data-ready="true" and
 * window.__sweep holds the counts.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDirs } from '../../fs/make-dirs.ts';
import { bestParamArgs, edgeNote, valuesText } from '../sweep/sweep-format.ts';
import { searchLine } from '../sweep/sweep-sample.ts';
import type { SweepResult } from '../sweep/sweep.ts';
import { escapeHtml, pageHead, STYLE } from './html-parts.ts';
import { inlineJson, inlineScript } from './html-report.ts';
import { gridIndex, metricLabel, metricText, pairHeatmaps, reportMetrics, robustness, varyingAxes } from './sweep-cells.ts';
import { searchHistoryHtml } from './sweep-history.ts';
import { contextHtml, heatmapHtml, legendData, legendHtml, lineChartSvg, metricSelectHtml, notRunText, rankedTableHtml, SWEEP_STYLE, sweepRange, trialText } from './sweep-report-parts.ts';
import type { HeatmapData, SweepReportContext } from './sweep-report-parts.ts';

export type { SweepReportContext } from './sweep-report-parts.ts';

export interface SweepReportInput {
  result: SweepResult;
  context: SweepReportContext;
}

/** Cells past which a heatmap is left out (a page, not a database; the table and the JSON hold every point). */
export const MAX_HEATMAP_CELLS = 20_000;

const e = escapeHtml;
let cachedScript: string | undefined;

/** The page script, read once and made safe inside <script>. */
export function sweepPageScript(): string {
  cachedScript ??= inlineScript(readFileSync(fileURLToPath(new URL('./sweep-page-script.js', import.meta.url)), 'utf8'));
  return cachedScript;
}

/** The report's file beside the sweep's JSON: the JSON's name with .html. */
export function reportFileFor(jsonFile: string): string {
  return /\.json$/i.test(jsonFile) ? jsonFile.replace(/\.json$/i, '.html') : `${jsonFile}.html`;
}

/** The page around a body: title, styles, data and script. */
export function page(title: string, body: string, data: unknown): string {
  return `${pageHead(title, `${STYLE}${SWEEP_STYLE}`)}
<body data-ready="false">
${body}
<script type="application/json" id="sweep-data">${inlineJson(data)}</script>
<script>${sweepPageScript()}</script>
</body>
</html>
`;
}

function summaryHtml(result: SweepResult): string {
  const ran = result.entries.length + result.failed.length;
  const best = result.entries[0];
  const parts = [`${ran} combination(s) run, ranked by ${metricLabel(result.rankBy)} (${result.rankBy})`];
  const sample = searchNoteHtml(result);
  if (result.skipped.length) parts.push(`${result.skipped.length} skipped by the params schema`);
  if (result.failed.length) parts.push(`${result.failed.length} failed`);
  const args = bestParamArgs(result);
  const bestLine = best
    ? `<p id="best">Best: <code>${e(valuesText(best.values) || '(base params)')}</code>${e(trialText(best))}: ${e(reportMetrics(result.rankBy).map((m) => `${metricLabel(m)} ${metricText(best.metrics, m)}`).join(', '))}.${args ? ` Run it alone for its own report: <code>${e(args)}</code>.` : ' The strategy was stopped in every combination.'}</p>`
    : '';
  // The best on the edge of a numeric axis: the range may not hold the optimum (sweep-format.ts edgeNote).
  const edge = edgeNote(result);
  const edgeLine = edge === undefined ? '' : `<p id="edge" class="note">${e(edge.replace(/^Note: /, ''))}</p>`;
  return `<section id="summary"><p>${e(parts.join('; '))}.</p>${sample}${bestLine}${edgeLine}${robustnessHtml(result)}</section>`;
}

/** What a random or TPE search ran, and what that means for the best and its robustness. */
function searchNoteHtml(result: SweepResult): string {
  const s = result.search;
  if (s === undefined) return '';
  if (s.kind === 'random') {
    return `<p id="random-sample" class="note">A random sample: ${s.trials} of the grid's ${s.gridSize.toLocaleString('en-US')} points, drawn with seed ${s.seed} (--search random). The others did not run ("not run" in the heatmaps, gaps in the charts); the best is the best of the sample, and its robustness counts only the neighbours drawn.</p>`;
  }
  const best = result.entries[0];
  const rounds = s.startup === undefined ? '' : ` Round 1 ran ${s.startup} of them at random (random search's first draws with seed ${s.seed}); each later round proposed ${s.batch ?? 1} new point(s) from every result so far: a Tree-structured Parzen Estimator over the axes (as Freqtrade's hyperopt), which favours points whose neighbours did well.`;
  const found = best?.trial === undefined ? '' : ` The best was found at trial ${best.trial}${best.round === undefined ? '' : ` (round ${best.round})`}.`;
  return `<p id="tpe-search" class="note">A TPE search: ${s.trials} of the grid's ${s.gridSize.toLocaleString('en-US')} points (--search tpe, seed ${s.seed}).${e(rounds)}${e(found)} The others did not run ("not run" in the heatmaps, gaps in the charts); the best is the best found, and its robustness counts only the neighbours tried, which the search crowds around the good region.</p>`;
}

function robustnessHtml(result: SweepResult): string {
  const r = robustness(result);
  if (!r) return '';
  const head = { plateau: 'a plateau', peak: 'a peak', spike: 'a spike', flat: 'a flat grid', unknown: 'not measurable' }[r.verdict];
  return `<p class="robust ${r.verdict}" id="robustness" data-verdict="${r.verdict}"><strong>Robustness: ${e(head)}.</strong> ${e(r.text)}</p>`;
}

function landscapeHtml(result: SweepResult, data: HeatmapData): string {
  const axes = varyingAxes(result);
  const index = gridIndex(result);
  const best = result.entries[0];
  const section = (inner: string): string => `<section id="landscape"><h2>Parameter landscape</h2>${inner}</section>`;
  if (!best) return section('<p class="muted">No combination ran: there is no landscape to draw.</p>');
  if (axes.length === 0) return section('<p class="muted">Every axis has one value: one combination, no landscape.</p>');
  if (axes.length === 1) {
    const axis = axes[0]!;
    const held = result.axes.filter((a) => a !== axis);
    const note = held.length ? `<p class="note">The other parameters at ${e(valuesText(Object.fromEntries(held.map((a) => [a.name, best.values[a.name]]))))}.</p>` : '';
    const charts = reportMetrics(result.rankBy).map((m) => lineChartSvg(result, index, axis, m));
    return section(`<p class="note">Each metric over ${e(axis.name)}; the best combination ringed, skipped (grey) and failed (red) points crossed on the axis, a gap where a point has no value.</p>${note}<div class="charts">${charts.join('')}</div>`);
  }
  const maps = pairHeatmaps(result, index);
  const held =
    axes.length > 2
      ? `<p class="note" id="held">${axes.length} swept axes: one heatmap per pair, the other parameters held at the best combination's values (${e(valuesText(Object.fromEntries(axes.map((a) => [a.name, best.values[a.name]]))))}), given under each heatmap.</p>`
      : '';
  const figures = maps.map((m) => {
    const cells = m.rowAxis.values.length * m.colAxis.values.length;
    if (cells > MAX_HEATMAP_CELLS) return `<p class="muted">${e(m.rowAxis.name)} × ${e(m.colAxis.name)}: ${cells.toLocaleString('en-US')} cells, more than ${MAX_HEATMAP_CELLS.toLocaleString('en-US')}; left out (see the table).</p>`;
    return heatmapHtml(m, data.length, result, data);
  });
  const key = `<p class="note">★ the best combination (ranked first); hatched: skipped by the params schema or failed (hover for the reason)${result.search ? `, or not run (${notRunText(result.search)})` : ''}; a dashed red outline: the strategy was stopped by a failure (ranked last).</p>`;
  return section(`${metricSelectHtml(result.rankBy)}${legendHtml(result, legendData(result))}${held}<div class="heatmaps">${figures.join('')}</div>${key}`);
}

/** The header's Search row: the terminal's search line without its "search" ("random: 9 of 12 grid points (seed 4)"). */
export const searchText = (search: SweepResult['search']): string => (searchLine({ search }) ?? '').replace(/^(random|TPE) search: /, '$1: ');

export function renderSweepReport(input: SweepReportInput): string {
  const { result, context } = input;
  const data: HeatmapData = [];
  const title = `${result.strategy} ${result.symbol} ${result.interval} sweep`;
  const axesText = result.axes.map((a) => `${a.name}: ${a.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`).join('; ');
  const header = contextHtml(`Sweep of ${e(result.strategy)} <span class="muted">on</span> ${e(result.symbol)} <span class="muted">${e(result.interval)}</span>`, context, sweepRange(result, context), [
    ['Swept', axesText || '(none)'],
    ['Ranked by', `${metricLabel(result.rankBy)} (${result.rankBy})`],
    ...(result.search === undefined ? [] : [['Search', searchText(result.search)] as [string, string]]),
  ]);
  const body = [header, summaryHtml(result), searchHistoryHtml(result), landscapeHtml(result, data), rankedTableHtml(result)].join('\n');
  return page(title, body, { kind: 'sweep', rankBy: result.rankBy, heatmaps: data, legend: legendData(result) });
}

/** Render and write, creating the folder. */
export async function writeSweepReport(file: string, input: SweepReportInput): Promise<void> {
  makeDirs(path.dirname(path.resolve(file)));
  await writeFile(file, renderSweepReport(input), 'utf8');
}
