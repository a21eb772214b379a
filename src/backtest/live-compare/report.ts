/**
 * The comparison as an offline HTML page: the run, then per strategy what was replayed, the
 * counts by explanation, and a table of every trade of either side (both sides' quantity, price,
 * time, fills and status), each difference under it with its explanation or UNEXPLAINED and why.
 * Rows: matching, explained, unexplained, each marked (and the first unexplained one linked from
 * the top). Everything from the journal is escaped (report/html-parts.ts).
 */
import { writeFile } from 'node:fs/promises';
import { fmtFillModel, fmtParams, fmtTime } from '../metrics/metrics-format.ts';
import { escapeHtml as e, pageHead, STYLE } from '../report/html-parts.ts';
import { fmtMs } from './time-text.ts';
import { sideText } from './format.ts';
import { tally, tallyText } from './tally.ts';
import type { Difference, LiveComparison, StrategyComparison, Trade, TradePair } from './types.ts';

const EXTRA_STYLE = `
tr.same td{color:#6b7280}tr.explained td:first-child{border-left:3px solid #15803d}tr.unexplained td:first-child{border-left:3px solid #b91c1c}
td.diffs{text-align:left;white-space:normal;min-width:320px}td.side{text-align:left}
thead th:nth-child(3),thead th:nth-child(4),thead th:nth-child(5),thead th:last-child{text-align:left}td:nth-child(3){text-align:left}
.badge{display:inline-block;border-radius:3px;padding:0 5px;font-size:11px;font-weight:600;margin-right:4px}
.badge.ok{background:#dcfce7;color:#166534}.badge.bad{background:#fee2e2;color:#991b1b}
.diff{margin:2px 0}.why{color:#374151}
.summary{margin:8px 0;padding:8px 12px;border-radius:6px;background:#fff;border:1px solid #e5e7eb}
`;

function fillsText(t: Trade | undefined): string {
  if (t === undefined) return '';
  const at = t.fills[0]?.time ?? t.placedAt;
  return `${at === undefined ? '' : fmtMs(at)}${t.type === undefined ? '' : ` · ${t.type}`}${t.status === undefined ? '' : ` · ${t.status}`}`;
}

function diffHtml(d: Difference): string {
  const badge = d.explanation !== undefined ? `<span class="badge ok">${e(d.explanation.rule)}</span>` : '<span class="badge bad">unexplained</span>';
  const why = d.explanation !== undefined ? d.explanation.text : (d.unexplained ?? '');
  return `<div class="diff">${badge}<b>${e(d.kind)}</b>: ${e(d.detail)}<div class="why">${e(why)}</div></div>`;
}

function rowClass(p: TradePair): string {
  if (p.differences.length === 0) return 'same';
  return p.differences.every((d) => d.explanation !== undefined) ? 'explained' : 'unexplained';
}

function pairHtml(p: TradePair, i: number, firstBad: boolean, id: string): string {
  const side = (t: Trade | undefined) => `<td class="side">${e(sideText(t))}<div class="note">${e(fillsText(t))}</div></td>`;
  const diffs = p.differences.length === 0 ? '<span class="muted">same time, price, quantity and fees</span>' : p.differences.map(diffHtml).join('');
  return `<tr class="${rowClass(p)}"${firstBad ? ` id="${id}-first-unexplained"` : ''}><td>${i}</td><td>${e(p.symbol)}</td><td>${e(p.live?.tag ?? p.backtest?.tag ?? '')}</td>${side(p.live)}${side(p.backtest)}<td>${e(p.pairedBy ?? '')}</td><td class="diffs">${diffs}</td></tr>`;
}

function strategyHtml(s: StrategyComparison, n: number): string {
  const t = tally(s);
  const id = `strategy-${n}`;
  const firstBad = s.pairs.findIndex((p) => rowClass(p) === 'unexplained');
  const rows = s.pairs.map((p, i) => pairHtml(p, i + 1, i === firstBad, id)).join('\n');
  const link = firstBad < 0 ? '' : ` <a href="#${id}-first-unexplained">first unexplained</a>`;
  return `<section id="${id}">
<h2>${e(s.strategy)} <span class="muted">on</span> ${e(s.symbols.join(', '))} <span class="muted">${e(s.interval)}</span></h2>
<dl class="meta">
  <dt>Params</dt><dd><code>${e(fmtParams(s.params))}</code></dd>
  <dt>Replayed</dt><dd>${e(fmtTime(s.from))} &rarr; ${e(fmtTime(s.to))}: ${s.bars} bars recorded by the run, ${s.historyBars} before it as warm-up</dd>
  <dt>Fees</dt><dd>maker ${e(s.fees.maker)}, taker ${e(s.fees.taker)} (${e(s.feesFrom)})</dd>
  <dt>Balances</dt><dd>${e(Object.entries(s.balances).map(([a, v]) => `${v} ${a}`).join(', '))} (${e(s.balancesFrom)})</dd>
  <dt>Fill model</dt><dd>${e(fmtFillModel(s.fillModel))}</dd>
</dl>
<div class="summary" data-unexplained="${t.unexplained}">${t.live} live trades, ${t.backtest} backtest trades, ${t.paired} paired; ${e(tallyText(t))}${link}</div>
${s.notes.length === 0 ? '' : `<ul class="notices">${s.notes.map((x) => `<li>${e(x)}</li>`).join('')}</ul>`}
${s.pairs.length === 0 ? '<p class="muted">Neither side traded.</p>' : `<table><thead><tr><th>#</th><th>Symbol</th><th>Tag</th><th>Live</th><th>Backtest</th><th>Paired by</th><th>Differences</th></tr></thead><tbody>\n${rows}\n</tbody></table>`}
</section>`;
}

export function renderComparison(c: LiveComparison): string {
  const span = `${fmtTime(c.startedAt)} → ${c.endedAt === null ? 'still running' : fmtTime(c.endedAt)}`;
  return `${pageHead(`Live against backtest: run ${c.runId}`, STYLE + EXTRA_STYLE)}
<body>
<header>
<h1>Live against backtest <span class="muted">run</span> ${e(c.runId)}</h1>
<dl class="meta">
  <dt>Run</dt><dd>${e(c.runKind)}, ${e(span)}${c.exitReason === null ? '' : `, ${e(c.exitReason)}`}</dd>
  <dt>Journal</dt><dd><code>${e(c.journal)}</code></dd>
  <dt>Strategies</dt><dd>${c.strategies.map((s, i) => `<a href="#strategy-${i + 1}">${e(s.strategy)}</a>`).join(', ')}</dd>
</dl>
<p class="note">Each trade is one order and its fills. A difference is explained when a rule of the backtest's fill model accounts for it: MARKET orders fill at the next bar's open (live at the book), resting LIMIT orders when the bar's path reaches them, no partial fills without a volume cap, the fee of each fill's role.</p>
</header>
${c.strategies.map((s, i) => strategyHtml(s, i + 1)).join('\n')}
</body>
</html>
`;
}

export async function writeComparisonReport(file: string, c: LiveComparison): Promise<void> {
  await writeFile(file, renderComparison(c));
}
