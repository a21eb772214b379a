/**
 * The static parts of the HTML report: header, metrics table, returns by month, trade list, notes and the style
 * sheet. Everything from the run is escaped; the charts are drawn by page-script.js.
 */
import { barsText, fmtDayStats, fmtDuration, fmtEdge, fmtFillModel, fmtNum, fmtOpenTrade, fmtParams, fmtPct, fmtSigned, fmtSignedPct, fmtTime, metricRows, tagLabel } from '../metrics/metrics-format.ts';
import { runSpanMs } from '../metrics/metrics-returns.ts';
import { statsByTag, tradeStats } from '../metrics/metrics-trades.ts';
import { dayReturns, monthlyReturns } from '../metrics/period-returns.ts';
import { runWarmupLine } from '../run/run-notices.ts';
import { balancesText, marketText, missingBarsText } from '../output/summary.ts';
import { ordersText } from '../record/order-counts.ts';
import { symbolTable } from '../metrics/symbol-table.ts';
import type { BacktestMetrics, BacktestRun } from '../types.ts';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An offline page's opening up to its body: doctype, charset, viewport, the title (escaped) and the page's styles. */
export function pageHead(title: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>`;
}

/** Rows shown in the trade table; the rest are summarised in a line (a page, not a database). */
export const MAX_TRADE_ROWS = 1_000;

export function headerHtml(run: BacktestRun): string {
  const e = escapeHtml;
  return `<header>
  <h1>${e(run.strategy)} <span class="muted">on</span> ${e(marketText(run))} <span class="muted">${e(run.interval)}</span></h1>
  <dl class="meta">
    <dt>Params</dt><dd><code>${e(fmtParams(run.params))}</code></dd>
    <dt>Range</dt><dd>${e(fmtTime(run.from))} &rarr; ${e(fmtTime(run.to))} (${e(fmtDuration(run.to - run.from))}, ${e(barsText(run.barCount))}${missingHtml(run)})</dd>
${warmupHtml(run)}    <dt>Fees</dt><dd>maker ${e(run.fees.maker)}, taker ${e(run.fees.taker)}</dd>
    <dt>Fill model</dt><dd>${e(fmtFillModel(run.fillModel))}</dd>
    <dt>Balances</dt><dd>${e(balancesText(run.startBalances, run.quoteAsset))} &rarr; ${e(balancesText(run.endBalances, run.quoteAsset))}</dd>
  </dl>${noticesHtml(run)}
</header>`;
}

/** The summary's missing-bars note on the Range, marked. */
function missingHtml(run: BacktestRun): string {
  const text = missingBarsText(run);
  return text === undefined ? '' : `, <span class="neg" id="missing-bars">${escapeHtml(text)}</span>`;
}

/** The summary's Warmup line (how many of the run's bars only filled the strategy's history), when there is one. */
function warmupHtml(run: BacktestRun): string {
  const line = runWarmupLine(run);
  return line === undefined ? '' : `    <dt>Warmup</dt><dd>${escapeHtml(line)}</dd>\n`;
}

/** The run's notices (run-notices.ts), as the summary's Warning lines: where a reader of the report sees them first. */
function noticesHtml(run: BacktestRun): string {
  const notices = run.notices ?? [];
  if (notices.length === 0) return '';
  return `\n  <ul class="notices" id="notices">${notices.map((n) => `<li>Warning: ${escapeHtml(n)}</li>`).join('')}</ul>`;
}

export function metricsHtml(run: BacktestRun, m: BacktestMetrics): string {
  const s = tradeStats(run.trades);
  const cells = metricRows(m, run.quoteAsset, runSpanMs(run)).map(
    (r) => `<div class="metric" data-metric="${r.key}"><div class="label">${escapeHtml(r.label)}</div><div class="value${sign(r.signed)}">${escapeHtml(r.value)}</div></div>`,
  );
  const q = escapeHtml(run.quoteAsset);
  const stats = s.trades
    ? `<p class="stats">${s.trades} trades (${s.long} long, ${s.short} short): ${s.wins} won, ${s.losses} lost; average ${escapeHtml(fmtSigned(s.avgPnl))} ${q} (${escapeHtml(fmtSignedPct(s.avgReturnPct))}), best ${escapeHtml(fmtSigned(s.bestPnl))}, worst ${escapeHtml(fmtSigned(s.worstPnl))}, held ${escapeHtml(fmtNum(s.avgBarsHeld, 1))} bars on average (winners ${escapeHtml(fmtNum(s.avgBarsWinners, 1))}, losers ${escapeHtml(fmtNum(s.avgBarsLosers, 1))}); up to ${s.maxWinStreak} won and ${s.maxLossStreak} lost in a row; ${escapeHtml(fmtEdge(s))}.</p>`
    : '<p class="stats">No closed trades.</p>';
  const days = fmtDayStats(dayReturns(run, m.startEquity));
  const daysLine = days === undefined ? '' : `<p class="stats" id="days">Days: ${escapeHtml(days)}.</p>`;
  const sent = ordersText(run.orders);
  const ordersLine = sent === undefined ? '' : `<p class="stats" id="orders">Orders: ${escapeHtml(sent)}.</p>`;
  return `<section id="metrics"><h2>Metrics</h2><div class="metrics">${cells.join('')}</div>${stats}${daysLine}${ordersLine}${symbolsHtml(run)}</section>`;
}

/** A run of several symbols: the summary's per-symbol table, and what its buy and hold is. */
function symbolsHtml(run: BacktestRun): string {
  if (run.symbols === undefined) return '';
  const [head, ...rows] = symbolTable(run);
  const cells = (r: readonly string[], tag: string) => r.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('');
  const note = `<p class="note">Buy and hold splits the start quote equally across ${escapeHtml(run.symbols.map((x) => x.symbol).join(', '))} (the mean of their returns).</p>`;
  return `<table id="symbols-table"><thead><tr>${cells(head ?? [], 'th')}</tr></thead><tbody>${rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody></table>${note}`;
}

function sign(v: number | undefined): string {
  return v === undefined ? '' : v > 0 ? ' pos' : v < 0 ? ' neg' : '';
}

/** Trades by entry and by exit tag, when the tags tell more than one group apart (Freqtrade's enter-tag and exit-reason stats). */
function tagTablesHtml(run: BacktestRun): string {
  const q = escapeHtml(run.quoteAsset);
  const table = (by: 'entryTag' | 'exitTag', title: string): string => {
    const groups = statsByTag(run.trades, by);
    if (groups.length < 2) return '';
    const rows = groups.map((g) => {
      const cls = g.totalPnl > 0 ? 'win' : g.totalPnl < 0 ? 'loss' : '';
      const cells = [tagLabel(g.tag), fmtNum(g.trades, 0), fmtPct(g.winRatePct, 1), fmtSigned(g.avgPnl), fmtSigned(g.totalPnl)];
      return `<tr class="${cls}">${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
    });
    const head = [title, 'Trades', 'Won', `Avg PnL (${q})`, `Total PnL (${q})`];
    return `<table class="tags" data-by="${by}"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  };
  return table('entryTag', 'Entry tag') + table('exitTag', 'Exit tag');
}

export function tradesHtml(run: BacktestRun): string {
  // Tag columns only when some trade has a tag.
  const tagged = run.trades.some((t) => t.entryTag !== undefined || t.exitTag !== undefined);
  const several = run.symbols !== undefined;
  const rows = run.trades.slice(0, MAX_TRADE_ROWS).map((t, i) => {
    const pnl = Number(t.pnl);
    const cls = pnl > 0 ? 'win' : pnl < 0 ? 'loss' : '';
    const cells = [
      String(i + 1),
      ...(several ? [t.symbol] : []),
      t.direction,
      fmtTime(t.entryTime),
      t.entryPrice,
      fmtTime(t.exitTime),
      t.exitPrice,
      t.qty,
      fmtSigned(pnl),
      fmtSignedPct(t.returnRatio * 100),
      fmtNum(Number(t.fees), 4),
      String(t.barsHeld),
      ...(tagged ? [t.entryTag ?? '', t.exitTag ?? ''] : []),
    ];
    return `<tr class="${cls}">${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const more = run.trades.length > MAX_TRADE_ROWS ? `<p class="muted">Showing the first ${MAX_TRADE_ROWS} of ${run.trades.length} trades.</p>` : '';
  const head = ['#', ...(several ? ['Symbol'] : []), 'Side', 'Entry', 'Entry price', 'Exit', 'Exit price', 'Qty', `PnL (${run.quoteAsset})`, 'Return', 'Fees', 'Bars', ...(tagged ? ['Entry tag', 'Exit tag'] : [])];
  const table = run.trades.length
    ? `<table id="trades-table"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${more}`
    : '<p class="muted">No closed trades.</p>';
  // The position the run ended holding is no trade (it never went flat): said apart, under the table.
  const open =
    run.openTrade !== undefined
      ? `<p id="open-trade">Open at the end: ${escapeHtml(fmtOpenTrade(run.openTrade, run.baseAsset, run.quoteAsset))}.</p>`
      : (run.symbols ?? [])
          .filter((x) => x.openTrade !== undefined)
          .map((x) => `<p class="open-trade" data-symbol="${escapeHtml(x.symbol)}">Open at the end in ${escapeHtml(x.symbol)}: ${escapeHtml(fmtOpenTrade(x.openTrade as NonNullable<typeof x.openTrade>, x.baseAsset, run.quoteAsset))}.</p>`)
          .join('');
  return `<section id="trades"><h2>Trades</h2>${tagTablesHtml(run)}${table}${open}</section>`;
}

/** Denied intents and strategy failures, when there were any (first 50 of each). */
/** Returns by calendar month (period-returns.ts), when the run spans more than one. */
export function monthsHtml(run: BacktestRun, m: BacktestMetrics): string {
  const months = monthlyReturns(run, m.startEquity);
  if (months.length < 2) return '';
  const q = escapeHtml(run.quoteAsset);
  const rows = months.map((x) => {
    const cls = x.returnPct > 0 ? 'win' : x.returnPct < 0 ? 'loss' : '';
    return `<tr class="${cls}"><td>${escapeHtml(x.month)}</td><td>${escapeHtml(fmtSignedPct(x.returnPct))}</td><td>${escapeHtml(fmtNum(x.endEquity))}</td></tr>`;
  });
  return `<section id="months"><h2>Returns by month</h2><table><thead><tr><th>Month</th><th>Return</th><th>End equity (${q})</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

export function notesHtml(run: BacktestRun): string {
  const parts: string[] = [];
  if (run.denials.length) {
    const items = run.denials.slice(0, 50).map((d) => `<li>${escapeHtml(fmtTime(d.time))} ${escapeHtml(d.tag ?? '')}: ${escapeHtml(d.reasons.join('; '))}</li>`);
    parts.push(`<h3>${run.denials.length} denied intent(s)</h3><ul>${items.join('')}</ul>`);
  }
  if (run.strategyFailures.length) {
    const items = run.strategyFailures.slice(0, 50).map((f) => `<li>${escapeHtml(fmtTime(f.time))} ${escapeHtml(f.handler)}: ${escapeHtml(f.message)}${f.at === undefined ? '' : ` (thrown at ${escapeHtml(f.at)})`}</li>`);
    parts.push(`<h3>${run.strategyFailures.length} strategy failure(s)</h3><ul>${items.join('')}</ul>`);
  }
  return parts.length ? `<section id="notes"><h2>Notes</h2>${parts.join('')}</section>` : '';
}

export const STYLE = `
*{box-sizing:border-box}
body{margin:0;padding:20px 28px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}
h1{font-size:22px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px}h3{font-size:14px;margin:12px 0 4px}
.muted{color:#6b7280;font-weight:400}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}.meta dt{color:#6b7280}.meta dd{margin:0}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef2f7;padding:1px 4px;border-radius:3px}
.metrics{display:grid;grid-template-columns:repeat(4,1fr);gap:8px}@media (max-width:900px){.metrics{grid-template-columns:repeat(auto-fill,minmax(165px,1fr))}}
.metric{background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:8px 10px}
.metric .label{color:#6b7280;font-size:12px}.metric .value{font-size:16px;white-space:nowrap;font-weight:600;font-variant-numeric:tabular-nums}
.pos{color:#15803d}.neg{color:#b91c1c}
.notices{margin:10px 0 0;padding:8px 12px 8px 28px;background:#fef2f2;border:1px solid #fecaca;border-radius:6px;color:#991b1b}
.stats{color:#374151}
.chart{width:100%;background:#fff;border:1px solid #e5e7eb;border-radius:6px}
#price-chart{height:420px}#equity-chart{height:220px}#drawdown-chart{height:160px}
.note{color:#6b7280;font-size:12px;margin:4px 0 0}
table{border-collapse:collapse;width:100%;background:#fff;font-variant-numeric:tabular-nums;font-size:13px}
th,td{border-bottom:1px solid #e5e7eb;padding:4px 8px;text-align:right;white-space:nowrap}
th:nth-child(2),td:nth-child(2){text-align:left}
thead th{position:sticky;top:0;background:#f1f5f9}
tr.win td:nth-child(8),tr.win td:nth-child(9){color:#15803d}tr.loss td:nth-child(8),tr.loss td:nth-child(9){color:#b91c1c}
#months table{width:auto;min-width:360px}#months th:nth-child(1),#months td:nth-child(1){text-align:left}#months th:nth-child(2),#months td:nth-child(2){text-align:right}
#months tr.win td:nth-child(2){color:#15803d}#months tr.loss td:nth-child(2){color:#b91c1c}
table.tags{width:auto;min-width:420px;display:inline-table;margin:0 16px 12px 0;vertical-align:top}table.tags th:nth-child(1),table.tags td:nth-child(1){text-align:left}
table.tags tr.win td:nth-child(5){color:#15803d}table.tags tr.loss td:nth-child(5){color:#b91c1c}
`;
