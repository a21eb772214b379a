/**
 * The walk-forward report: one offline HTML page as the sweep report (sweep-report.ts), with each
 * fold's train window, the parameters its sweep chose and their train score, and the test
 * window's out-of-sample figures (a sortable table), then the out-of-sample aggregate, the
 * combined out-of-sample equity curve and its drawdown with the folds marked (walk-forward-chart.ts)
 * and what each test run said about itself. A TPE
 * search ran one search per train window: the header says so (with the grid's size and the trials
 * per window), and each fold's notes at which trial its choice was found and how many of its
 * trials the params schema rejected.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDirs } from '../../fs/make-dirs.ts';
import { fmtNum, fmtSigned, fmtTime } from '../metrics/metrics-format.ts';
import { valuesText } from '../sweep/sweep-format.ts';
import type { RankMetric } from '../sweep/sweep-rank.ts';
import type { BacktestMetrics } from '../types.ts';
import { formatAggregate, walkForwardSearchLine } from '../walk-forward/walk-forward-format.ts';
import type { WalkForwardResult } from '../walk-forward/walk-forward.ts';
import { escapeHtml } from './html-parts.ts';
import { metricLabel, metricText, metricValue, REPORT_METRICS } from './sweep-cells.ts';
import { contextHtml, rangeText } from './sweep-report-parts.ts';
import type { SweepReportContext } from './sweep-report-parts.ts';
import { page } from './sweep-report.ts';
import { outOfSampleChartHtml } from './walk-forward-chart.ts';

export interface WalkForwardReportInput {
  result: WalkForwardResult;
  context: SweepReportContext;
}

const e = escapeHtml;
const td = (text: string, sort: number | string): string => `<td data-v="${e(typeof sort === 'number' ? (Number.isNaN(sort) ? '' : String(sort)) : sort)}">${e(text)}</td>`;

/** A window by bar position, 1-based and inclusive, as a reader counts bars. */
const barsText = (w: { skip: number; take: number }): string => `bars ${(w.skip + 1).toLocaleString('en-US')}–${(w.skip + w.take).toLocaleString('en-US')}`;

/** A fold's TPE trials the params schema rejected (a grid's skipped ones are the same in every fold: the header has them). */
const tpeSkipped = (result: WalkForwardResult, skipped: number): string | undefined => (result.search?.kind === 'tpe' && skipped > 0 ? `${skipped} of ${result.search.trials} trial(s) skipped by the params schema` : undefined);

function foldsTableHtml(result: WalkForwardResult): string {
  const by: RankMetric = result.rankBy;
  // The rank metric has its train and test columns already.
  const metrics = REPORT_METRICS.filter((m) => m !== by);
  const head = ['Fold', 'Train window', 'Test from', 'Test to', 'Chosen params', `Train ${metricLabel(by)}`, `Test ${metricLabel(by)}`, ...metrics.map((m) => `Test ${metricLabel(m)}`), 'Net PnL', 'Notes'];
  const rows = result.folds.map((f) => {
    const t = f.testResult;
    const chosen = f.chosen ? valuesText(f.chosen.values) || '(base)' : '-';
    const train = f.chosen ? f.chosen.trainMetrics : undefined;
    const m = (x: BacktestMetrics | undefined, k: RankMetric): string => td(x ? metricText(x, k) : '-', x ? metricValue(x, k) : NaN);
    const found = f.chosen?.trial === undefined ? undefined : `chosen at trial ${f.chosen.trial}${f.chosen.round === undefined ? '' : ` (round ${f.chosen.round})`} of its train window's TPE search`;
    const notes = [found, f.error, t?.firstFailure === undefined ? undefined : `stopped on the test window: ${t.firstFailure}`, ...(t?.notices ?? []), f.trainFailures ? `${f.trainFailures} train run(s) failed` : undefined, tpeSkipped(result, f.trainSkipped)].filter((s): s is string => s !== undefined).join('; ');
    const cells = [
      td(String(f.index), f.index),
      td(`${barsText(f.train)} (${f.train.take.toLocaleString('en-US')})`, f.train.skip),
      td(t ? fmtTime(t.from) : '-', t ? t.from : NaN),
      td(t ? fmtTime(t.to) : '-', t ? t.to : NaN),
      td(chosen, chosen),
      m(train, by),
      m(t?.metrics, by),
      ...metrics.map((k) => m(t?.metrics, k)),
      td(t ? fmtSigned(t.metrics.netPnl) : '-', t ? t.metrics.netPnl : NaN),
      td(notes, notes),
    ];
    return `<tr${t ? '' : ' class="loss"'}>${cells.join('')}</tr>`;
  });
  return `<table class="sortable" id="folds-table"><thead><tr>${head.map((h) => `<th title="sort">${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table><p class="note">Train windows by bar position in the range (1 is its first bar); each test window is the ${result.testBars.toLocaleString('en-US')} bars after its train window. Click a header to sort.</p>`;
}

/**
 * The header's Grid row: the parameter sets every train window ran and the combinations skipped;
 * of a TPE search, the grid's size and the trials its search tried in each window, and those of
 * them the params schema rejected.
 */
function gridRow(result: WalkForwardResult): string {
  const s = result.search;
  if (s?.kind !== 'tpe') return `${result.parameterSets} parameter set(s)${result.skipped.length ? `, ${result.skipped.length} more skipped by the params schema` : ''}`;
  const skipped = result.folds.reduce((n, f) => n + f.trainSkipped, 0);
  return `${s.gridSize.toLocaleString('en-US')} combination(s), of which each train window's search tried ${s.trials}${skipped ? `; ${skipped} of those trials in all skipped by the params schema (each fold's in its notes)` : ''}`;
}

/** The header's Search row: one random sample in every train window, or a TPE search in each. */
function searchRow(result: WalkForwardResult): string {
  const s = result.search;
  if (s?.kind === 'random') return `random: ${s.trials} of ${s.gridSize} grid points (seed ${s.seed}), the same in every train window`;
  return (walkForwardSearchLine(s) ?? '').replace(/^TPE search: /, 'TPE: ');
}

export function renderWalkForwardReport(input: WalkForwardReportInput): string {
  const { result, context } = input;
  const tested = result.folds.map((f) => f.testResult).filter((t) => t !== undefined);
  const testedSpan = tested.length ? rangeText({ from: Math.min(...tested.map((t) => t.from)), to: Math.max(...tested.map((t) => t.to)), bars: tested.reduce((n, t) => n + t.barCount, 0) }) : 'no test window ran';
  // The train windows are known by bar position only; the range asked for, when one was.
  const asked = context.from !== undefined && context.to !== undefined ? { from: context.from, to: context.to } : undefined;
  const plan = `${result.folds.length} fold(s), ${result.anchored ? 'anchored' : 'rolling'}: train ${result.trainBars} bars, test ${result.testBars}, step ${result.stepBars}, of ${result.totalBars} bars${result.unusedBars > 0 ? ` (${result.unusedBars} after the last test window unused)` : ''}`;
  const header = contextHtml(`Walk-forward of ${e(result.strategy)} <span class="muted">on</span> ${e(result.symbol)} <span class="muted">${e(result.interval)}</span>`, context, asked, [
    ['Tested', testedSpan],
    ['Folds', plan],
    ['Grid', gridRow(result)],
    ...(result.search === undefined ? [] : [['Search', searchRow(result)] as [string, string]]),
    ['Optimised for', `${metricLabel(result.rankBy)} (${result.rankBy})`],
  ]);
  const a = result.aggregate;
  const aggregate = formatAggregate(a, result.rankBy).map((l) => `<p class="stats">${e(l.trim())}</p>`);
  const gap = a.evaluated > 0 ? `<p class="note">A test ${e(metricLabel(result.rankBy))} far below the train one (${e(fmtNum(a.meanTestScore))} vs ${e(fmtNum(a.meanTrainScore))} here) is the overfitting signal: the chosen parameters did not carry over to the bars after their train window.</p>` : '';
  const body = [
    header,
    `<section id="aggregate"><h2>Out of sample</h2>${aggregate.join('')}${gap}</section>`,
    outOfSampleChartHtml(result),
    `<section id="folds"><h2>Folds</h2>${foldsTableHtml(result)}</section>`,
  ].join('\n');
  return page(`${result.strategy} ${result.symbol} ${result.interval} walk-forward`, body, { kind: 'walk-forward', heatmaps: [] });
}

/** Render and write, creating the folder. */
export async function writeWalkForwardReport(file: string, input: WalkForwardReportInput): Promise<void> {
  makeDirs(path.dirname(path.resolve(file)));
  await writeFile(file, renderWalkForwardReport(input), 'utf8');
}
