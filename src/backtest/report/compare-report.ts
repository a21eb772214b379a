/**
 * The comparison report of several strategies backtested alone on the same bars (`halyard backtest
 * --strategy a,b`; compare-result.ts): ONE self-contained HTML page that opens offline from disk,
 * as the single-run report (html-report.ts: the lightweight-charts bundle, the data as an escaped
 * JSON script and the page script inline, no network) with the sweep report's header
 * (sweep-report-parts.ts contextHtml).
 *
 * Content: the header (market, range, fees, fill model, starting balances, the rank metric); the
 * ranked table (the terminal's columns, then links to each strategy's own report and JSON,
 * relative to this page); each strategy's parameters as run; one chart of every strategy's equity
 * curve overlaid and one of their drawdowns (a line series each, a colour each in the order run,
 * dashed once the palette is used up; a legend above them). The curves are the runs' thinned ones
 * (run-overview.ts), so a year of 1-minute bars stays a small page. When the charts are drawn
 * (compare-page-script.js) the body gets data-ready="true" and window.__compare holds the counts.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDirs } from '../../fs/make-dirs.ts';
import { comparisonSetup, rankComparison } from '../compare/compare-result.ts';
import type { Comparison } from '../compare/compare-result.ts';
import type { ThinnedCurve } from '../output/equity-thin.ts';
import { fmtParams } from '../metrics/metrics-format.ts';
import { metricColumns } from '../sweep/sweep-format.ts';
import { balancesText } from '../output/summary.ts';
import { escapeHtml, pageHead, STYLE } from './html-parts.ts';
import { chartBundle, inlineJson, inlineScript } from './html-report.ts';
import { pushCurvePoint } from './chart-data.ts';
import type { LinePoint } from './chart-data.ts';
import { metricLabel } from './sweep-cells.ts';
import { contextHtml } from './sweep-report-parts.ts';

const e = escapeHtml;

/** Line colours in the order the strategies ran (Tableau 10: told apart at a glance); past ten, again dashed. */
export const COMPARE_COLOURS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'] as const;

/** The colour and dash of the strategy run `index`-th (0-based). */
export function lineStyleOf(index: number): { colour: string; dashed: boolean } {
  return { colour: COMPARE_COLOURS[index % COMPARE_COLOURS.length] as string, dashed: Math.floor(index / COMPARE_COLOURS.length) % 2 === 1 };
}

/** One strategy's lines as the page script draws them. */
export interface CompareSeries {
  name: string;
  colour: string;
  dashed: boolean;
  equity: LinePoint[];
  /** Negative percent: an underwater curve, as the single-run report's. */
  drawdown: LinePoint[];
}

/**
 * A thinned curve in lightweight-charts' shape: time in UTC seconds, strictly increasing (points
 * in one second, as a 1-second run's start and its first bar's close, are one: the later equity,
 * the deeper drawdown).
 */
export function curveLines(curve: ThinnedCurve): { equity: LinePoint[]; drawdown: LinePoint[] } {
  const equity: LinePoint[] = [];
  const drawdown: LinePoint[] = [];
  for (let i = 0; i < curve.time.length; i++) {
    pushCurvePoint(equity, drawdown, Math.floor((curve.time[i] as number) / 1000), curve.equity[i] as number, 0 - (curve.drawdownPct[i] as number));
  }
  return { equity, drawdown };
}

/** A file's path relative to the folder `from`, as a URL path (each segment escaped, '/' between). */
export function relativeLink(from: string, file: string): string {
  return path
    .relative(path.resolve(from), path.resolve(file))
    .split(path.sep)
    .map((s) => encodeURIComponent(s))
    .join('/');
}

/** A strategy's key in the legend and the table: a short line of its colour and dash. */
const keyHtml = (index: number): string => {
  const { colour, dashed } = lineStyleOf(index);
  return `<span class="key" style="border-top:3px ${dashed ? 'dashed' : 'solid'} ${colour}"></span>`;
};

function tableHtml(c: Comparison, linkFrom: string): string {
  const cols = metricColumns(c.rankBy);
  const head = ['#', 'Strategy', ...cols.map((col) => col.head), 'Report', 'JSON'];
  const rows = rankComparison(c).map(({ rank, index, strategy: s }) => {
    const link = (file: string, text: string): string => `<a href="${e(relativeLink(linkFrom, file))}">${text}</a>`;
    const cells = [
      `<td>${rank}</td>`,
      `<td title="${e(fmtParams(s.overview.params))}">${keyHtml(index)}${e(s.name)}</td>`,
      ...cols.map((col) => `<td data-metric="${col.key}">${e(col.fmt(s.metrics))}</td>`),
      `<td class="file">${link(s.files.report, 'report')}</td>`,
      `<td class="file">${link(s.files.json, 'JSON')}</td>`,
    ];
    return `<tr data-strategy="${e(s.name)}"${rank === 1 ? ' class="best"' : ''}>${cells.join('')}</tr>`;
  });
  const withParams = c.strategies.filter((s) => s.paramArgs.length > 0);
  const ranWith = withParams.map((s) => `<p class="note">${e(s.name)} ran with <code>${e(s.paramArgs.map((p) => `--param ${p}`).join(' '))}</code></p>`).join('');
  const stopped = rankComparison(c)
    .filter(({ strategy: s }) => s.overview.firstFailure !== undefined)
    .map(({ strategy: s }) => `<p class="note stopped">${e(s.name)} was stopped by a failure, ranked last (its figures are of a stopped run): ${e(s.overview.firstFailure ?? '')}</p>`)
    .join('');
  // Each run's warnings (a warmup it never got past...), as the terminal repeats them under its table.
  const warned = rankComparison(c)
    .flatMap(({ strategy: s }) => s.overview.notices.map((n) => `<p class="note warning">${e(s.name)}: ${e(n)}</p>`))
    .join('');
  return `<section id="ranking"><h2>Ranked by ${e(metricLabel(c.rankBy))}</h2><table id="compare-table"><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table><p class="note">* ranked by this column (--rank-by ${e(c.rankBy)}). Each strategy's own report and JSON hold its trades, fills and full curve.</p>${ranWith}${stopped}${warned}</section>`;
}

function paramsHtml(c: Comparison): string {
  const items = c.strategies.map((s, i) => `<li>${keyHtml(i)}<strong>${e(s.name)}</strong> <code>${e(fmtParams(s.overview.params))}</code>; ended with ${e(balancesText(s.overview.endBalances, s.overview.quoteAsset))}</li>`);
  return `<section id="params"><h2>Parameters as run</h2><ul class="runs">${items.join('')}</ul></section>`;
}

function legendHtml(c: Comparison): string {
  return `<ul class="legend-list" id="legend">${c.strategies.map((s, i) => `<li data-strategy="${e(s.name)}">${keyHtml(i)}${e(s.name)}</li>`).join('')}</ul>`;
}

/** How the curves were thinned, when any was. */
function thinNote(c: Comparison, series: readonly CompareSeries[]): string {
  const thinned = c.strategies.some((s, i) => (series[i]?.equity.length ?? 0) < s.overview.curve.sourcePoints);
  if (!thinned) return '';
  const most = Math.max(...series.map((s) => s.equity.length));
  const of = Math.max(...c.strategies.map((s) => s.overview.curve.sourcePoints));
  return `<p class="note" id="thinned">Each curve drawn from at most ${most.toLocaleString('en-US')} of its ${of.toLocaleString('en-US')} points: each stretch's lowest, highest and deepest-drawdown points kept, so the ends and every maximum drawdown are exact.</p>`;
}

const COMPARE_STYLE = `
#equity-chart{height:340px}#drawdown-chart{height:200px}
.key{display:inline-block;width:22px;height:0;margin:0 6px 3px 0;vertical-align:middle}
.legend-list{list-style:none;display:flex;flex-wrap:wrap;gap:4px 18px;margin:0 0 6px;padding:0}
.runs{list-style:none;margin:0;padding:0}.runs li{margin:2px 0}
#compare-table{width:auto;min-width:640px}#compare-table tr.best td{font-weight:600}
#compare-table td.file,#compare-table th:nth-last-child(-n+2){text-align:left}
`;

let cachedScript: string | undefined;

/** The page script, read once and made safe inside <script>. */
function comparePageScript(): string {
  cachedScript ??= inlineScript(readFileSync(fileURLToPath(new URL('./compare-page-script.js', import.meta.url)), 'utf8'));
  return cachedScript;
}

/** The page; `linkFrom` is the folder it is written to (its links to the runs' files are relative to it). */
export function renderCompareReport(c: Comparison, linkFrom: string): string {
  const setup = comparisonSetup(c);
  const market = setup === undefined ? '' : setup.symbols.join(', ');
  const interval = setup?.interval ?? '';
  const title = `Comparison of ${c.strategies.length} strategies on ${market} ${interval}`;
  const header = contextHtml(
    `Comparison of ${c.strategies.length} strategies <span class="muted">on</span> ${e(market)} <span class="muted">${e(interval)}</span>`,
    { fees: setup?.fees ?? { maker: '', taker: '' }, fillModel: setup?.fillModel ?? {}, balances: setup?.startBalances ?? {} },
    setup === undefined ? undefined : { from: setup.from, to: setup.to, bars: setup.barCount },
    [
      ['Strategies', c.strategies.map((s) => s.name).join(', ')],
      ['Ranked by', `${metricLabel(c.rankBy)} (${c.rankBy})`],
    ],
  );
  const series: CompareSeries[] = c.strategies.map((s, i) => ({ name: s.name, ...lineStyleOf(i), ...curveLines(s.overview.curve) }));
  const quote = setup?.quoteAsset ?? '';
  const body = [
    header,
    tableHtml(c, linkFrom),
    `<section id="equity"><h2>Equity (${e(quote)})</h2>${legendHtml(c)}<div id="equity-chart" class="chart"></div>${thinNote(c, series)}</section>`,
    `<section id="drawdown"><h2>Drawdown (%)</h2><div id="drawdown-chart" class="chart"></div><p class="note">Below each curve's own running peak.</p></section>`,
    paramsHtml(c),
  ].join('\n');
  return `${pageHead(title, `${STYLE}${COMPARE_STYLE}`)}
<body data-ready="false">
${body}
<script type="application/json" id="compare-data">${inlineJson({ series })}</script>
<script>${chartBundle()}</script>
<script>${comparePageScript()}</script>
</body>
</html>
`;
}

/** Render and write, creating the folder. */
export async function writeCompareReport(file: string, c: Comparison): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  makeDirs(dir);
  await writeFile(file, renderCompareReport(c, dir), 'utf8');
}
