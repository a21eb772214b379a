/**
 * backtest/report/: the HTML reports of a run, a comparison, a sweep and a walk-forward. Imports
 * every folder before it, never live-compare/.
 *
 * The backtest report: ONE self-contained HTML file that opens offline from disk. The
 * lightweight-charts v5 standalone bundle and the page script are inlined in <script> tags, the
 * data as JSON in a `type="application/json"` script (every `<` written as \u003c, so no string
 * in the run can close the tag), the style sheet in <style>. No network, no fonts, no CDN.
 *
 * Content: header (strategy, params, range), metrics, a candlestick chart with entry/exit markers
 * (#price-chart), the equity curve (#equity-chart), the drawdown (#drawdown-chart), the trade
 * list (a run of several symbols: a price chart per symbol, stacked, and a table per symbol). The equity and drawdown are plotted on the candles' times (a candle's point is the equity
 * at its close). Long runs are thinned to about 5,000 candles and curve points (chart-data.ts). When the
 * charts are drawn the body gets data-ready="true" and window.__report holds the counts.
 */
import { writeFile } from 'node:fs/promises';
import { makeDirs } from '../../fs/make-dirs.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BacktestMetrics, BacktestRun } from '../types.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { buildChartData, DEFAULT_MAX_POINTS } from './chart-data.ts';
import { escapeHtml, headerHtml, metricsHtml, monthsHtml, notesHtml, pageHead, STYLE, tradesHtml } from './html-parts.ts';
import { fmtDrawdownWindow } from '../metrics/metrics-format.ts';

export interface ReportInput {
  run: BacktestRun;
  metrics: BacktestMetrics;
  /**
   * The bars the run replayed (the run itself keeps only its equity curve): an array, or a stream
   * of the same range read once (journalBars; chart-data.ts).
   */
  bars: Iterable<BarInput>;
  /**
   * A run of several symbols (BacktestRun.symbols): each symbol's bars, in the run's order, for a
   * price chart per symbol (`bars` is then not read: the first symbol's are these).
   */
  symbolBars?: readonly { symbol: string; bars: Iterable<BarInput> }[];
  /** Cap on candles and curve points; default 5,000. */
  maxPoints?: number;
}

const BUNDLE = 'dist/lightweight-charts.standalone.production.js';
let cachedAssets: { bundle: string; page: string } | undefined;

/** The chart bundle (from the installed package) and page script, read once. */
function assets(): { bundle: string; page: string } {
  if (!cachedAssets) {
    const pkg = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    const bundle = readFileSync(path.join(path.dirname(pkg), BUNDLE), 'utf8');
    const page = readFileSync(fileURLToPath(new URL('./page-script.js', import.meta.url)), 'utf8');
    // The pages' shared chart helpers (chart-kit.js) go with the bundle: every page that draws uses them.
    const kit = readFileSync(fileURLToPath(new URL('./chart-kit.js', import.meta.url)), 'utf8');
    cachedAssets = { bundle: `${inlineScript(bundle)}\n${inlineScript(kit)}`, page: inlineScript(page) };
  }
  return cachedAssets;
}

/** The lightweight-charts bundle and the pages' chart helpers (chart-kit.js), safe inside <script>: what every report that draws with them inlines. */
export function chartBundle(): string {
  return assets().bundle;
}

/** Code placed inside <script>: a literal `</script` would end the element early. */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** What inlineJson writes for each character it escapes. */
const SCRIPT_ESCAPES: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * JSON safe inside any <script> element: `<`, `>`, `&` and the JS line separators escaped, in one
 * pass over the text (a year's report data is about 1.5 MB: five passes cost about half of
 * JSON.stringify's time again).
 */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] as string);
}

export function renderReport(input: ReportInput): string {
  const { run, metrics, bars } = input;
  const data = buildChartData(run, bars, input.maxPoints ?? DEFAULT_MAX_POINTS, input.symbolBars);
  const { bundle, page } = assets();
  const thinned =
    data.candles.length < data.sourceBars
      ? `Candles shown at ${escapeHtml(data.candleInterval)}: ${data.candles.length.toLocaleString('en-US')} candles from ${data.sourceBars.toLocaleString('en-US')} bars; markers sit on the candle holding the fill (B/S, ×n when several).`
      : `${data.candles.length.toLocaleString('en-US')} candles; markers: B = buy fill, S = sell fill (×n when several in one candle).`;
  const curveNote =
    data.equity.length < data.sourceEquityPoints
      ? `<p class="note">${data.equity.length.toLocaleString('en-US')} of ${data.sourceEquityPoints.toLocaleString('en-US')} points shown, one per candle (last equity and deepest drawdown of each).</p>`
      : '';
  const window = fmtDrawdownWindow(run, metrics.startEquity);
  const drawdownNote = window === undefined ? '' : `<p class="note" id="drawdown-window">Deepest: ${escapeHtml(window)}.</p>`;
  const title = `${run.strategy} ${run.symbols === undefined ? run.symbol : run.symbols.map((x) => x.symbol).join(', ')} ${run.interval} backtest`;
  // A run of several symbols: one price section per symbol, stacked (the first one's chart keeps the plain ids).
  const priceTitle = data.symbols === undefined ? 'Price' : `Price: ${escapeHtml(run.symbols?.[0]?.symbol ?? '')}`;
  const more = (data.symbols ?? [])
    .map((x, i) => `<section id="price-${i + 1}" class="price-symbol"><h2>Price: ${escapeHtml(x.symbol)}</h2><div id="price-chart-${i + 1}" class="chart"></div><p class="note">${x.candles.length.toLocaleString('en-US')} candles at ${escapeHtml(x.candleInterval)} from ${x.sourceBars.toLocaleString('en-US')} bars; markers: B = buy fill, S = sell fill.</p></section>\n`)
    .join('');
  return `${pageHead(title, STYLE)}
<body data-ready="false">
${headerHtml(run)}
${metricsHtml(run, metrics)}
<section id="price"><h2>${priceTitle}</h2><div id="price-chart" class="chart"></div><p class="note">${thinned}</p></section>
${more}<section id="equity"><h2>Equity (${escapeHtml(run.quoteAsset)})</h2><div id="equity-chart" class="chart"></div>${curveNote}</section>
<section id="drawdown"><h2>Drawdown (%)</h2><div id="drawdown-chart" class="chart"></div>${drawdownNote}</section>
${monthsHtml(run, metrics)}
${tradesHtml(run)}
${notesHtml(run)}
<script type="application/json" id="report-data">${inlineJson(data)}</script>
<script>${bundle}</script>
<script>${page}</script>
</body>
</html>
`;
}

/** Render and write, creating the folder. */
export async function writeReport(file: string, input: ReportInput): Promise<void> {
  makeDirs(path.dirname(path.resolve(file)));
  await writeFile(file, renderReport(input), 'utf8');
}
