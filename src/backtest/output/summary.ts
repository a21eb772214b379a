/**
 * backtest/output/: what a single run writes (terminal summary, series, CSV, log file, thinned
 * curve). Imports the folders before it (sources/ to metrics/).
 *
 * The terminal summary of a backtest: what ran (strategy, params, symbol, interval, range, bars
 * and any missing from the data, the warmup), the metrics as an aligned two-pair table, the trade
 * statistics (with several symbols, a table per symbol: symbol-table.ts), and anything that needs a second look (denied intents, strategy failures, fees in an
 * asset we cannot value, the run's notices). Plain text, no colour, so it reads the same in a log
 * file.
 */
import { ordersText } from '../record/order-counts.ts';
import { alignTable, barsText, fmtDayStats, fmtDrawdownWindow, fmtDuration, fmtEdge, fmtFillModel, fmtNum, fmtOpenTrade, fmtParams, fmtSigned, fmtSignedPct, fmtTagStats, fmtTime, metricRows } from '../metrics/metrics-format.ts';
import { runSpanMs } from '../metrics/metrics-returns.ts';
import { feesInQuote, statsByTag, tradeStats } from '../metrics/metrics-trades.ts';
import { denialHint } from '../../strategy/denial-hint.ts';
import { dayReturns } from '../metrics/period-returns.ts';
import { runWarmupLine } from '../run/run-notices.ts';
import { baseAssetsOf } from '../metrics/metrics.ts';
import { symbolTable, tradesPerSymbol } from '../metrics/symbol-table.ts';
import type { BacktestMetrics, BacktestRun } from '../types.ts';

/**
 * Balances for reading: the quote asset as the other money lines print it (two decimals, grouped:
 * a commission leaves it with a dozen more), the others exact (a base amount is on its step). The
 * JSON keeps every balance exact. The report's header prints them so too.
 */
export function balancesText(b: Record<string, string>, quoteAsset: string): string {
  const parts = Object.entries(b).map(([asset, amount]) => `${asset === quoteAsset ? fmtNum(Number(amount), 2) : amount} ${asset}`);
  return parts.length ? parts.join(', ') : '(none)';
}

/** Bars missing from the replayed series, when it has gaps (the summary's and the report's Range). */
export function missingBarsText(run: BacktestRun): string | undefined {
  const m = run.missingBars ?? 0;
  if (m <= 0) return undefined;
  // Those the exchange had none for (record checked them) are no hole in the data: a quiet market.
  const quiet = Math.min(m, run.missingNoTrades ?? 0);
  if (quiet === 0) return `${fmtNum(m, 0)} missing: the data has gaps`;
  if (quiet === m) return `${fmtNum(m, 0)} missing: no trades at the exchange then`;
  return `${fmtNum(m, 0)} missing: ${fmtNum(quiet, 0)} without trades at the exchange, ${fmtNum(m - quiet, 0)} gaps in the data`;
}

function missingText(run: BacktestRun): string {
  const text = missingBarsText(run);
  return text === undefined ? '' : `, ${text}`;
}

/** How many bars the strategy's warmup took from the run, when it took any. */
function warmupRow(run: BacktestRun): [string, string][] {
  const line = runWarmupLine(run);
  return line === undefined ? [] : [['Warmup', line]];
}

export { denialHint };

/** The symbol, or the symbols of a run of several, listed. */
export function marketText(run: Pick<BacktestRun, 'symbol' | 'symbols'>): string {
  return run.symbols === undefined ? run.symbol : run.symbols.map((x) => x.symbol).join(', ');
}

export function formatSummary(run: BacktestRun, metrics: BacktestMetrics): string {
  const head = alignTable(
    [
      ['Strategy', run.strategy],
      ['Params', fmtParams(run.params)],
      ['Market', `${marketText(run)} ${run.interval}${run.symbols !== undefined ? ` (one account in ${run.quoteAsset})` : ''}${run.longerIntervals?.length ? ` (and ${run.longerIntervals.join(', ')} bars made from them, for the strategy)` : ''}`],
      ['Range', `${fmtTime(run.from)} -> ${fmtTime(run.to)} (${fmtDuration(run.to - run.from)}, ${barsText(run.barCount)}${missingText(run)})`],
      ...warmupRow(run),
      ['Fees', `maker ${run.fees.maker}, taker ${run.fees.taker}${Object.keys(run.fillModel).length ? `; fills: ${fmtFillModel(run.fillModel)}` : ''}`],
      ['Balances', `${balancesText(run.startBalances, run.quoteAsset)} -> ${balancesText(run.endBalances, run.quoteAsset)}`],
    ],
    () => false,
  );

  const rows = metricRows(metrics, run.quoteAsset, runSpanMs(run));
  const half = Math.ceil(rows.length / 2);
  const pairs: string[][] = [];
  for (let i = 0; i < half; i++) {
    const a = rows[i]!;
    const b = rows[i + half];
    pairs.push([a.label, a.value, '  ', b?.label ?? '', b?.value ?? '']);
  }
  const table = alignTable(pairs, (c) => c === 1 || c === 4);

  const s = tradeStats(run.trades);
  const lines = [...head, '', ...table, ''];
  // A run of several symbols: Freqtrade's per-pair table, and what its buy and hold is.
  if (run.symbols !== undefined) lines.push(...alignTable(symbolTable(run), (c) => c > 0 && c < 6), `Buy and hold splits the start quote equally across ${run.symbols.map((x) => x.symbol).join(', ')} (the mean of their returns)`, '');
  const perSymbol = run.symbols === undefined ? '' : `; ${tradesPerSymbol(run)}`;
  if (s.trades === 0) lines.push(`Trades    none${perSymbol === '' ? '' : ' (in any symbol)'}`);
  else {
    const q = run.quoteAsset;
    lines.push(
      `Trades    ${s.trades} (${s.long} long, ${s.short} short): ${s.wins} won, ${s.losses} lost${perSymbol}`,
      `Per trade avg ${fmtSigned(s.avgPnl)} ${q} (${fmtSignedPct(s.avgReturnPct)}), best ${fmtSigned(s.bestPnl)}, worst ${fmtSigned(s.worstPnl)}, held ${fmtNum(s.avgBarsHeld, 1)} bars on average`,
      `Streaks   up to ${s.maxWinStreak} won and ${s.maxLossStreak} lost in a row; winners held ${fmtNum(s.avgBarsWinners, 1)} bars, losers ${fmtNum(s.avgBarsLosers, 1)} on average`,
      `Edge      ${fmtEdge(s)}`,
    );
  }
  const drawdown = fmtDrawdownWindow(run, metrics.startEquity);
  if (drawdown !== undefined) lines.push(`Drawdown  deepest ${drawdown}`);
  const days = fmtDayStats(dayReturns(run, metrics.startEquity));
  if (days !== undefined) lines.push(`Days      ${days}`);
  // By the tags of the orders that opened and closed the trades, when they tell groups apart.
  const entries = fmtTagStats(statsByTag(run.trades, 'entryTag'), run.quoteAsset);
  if (entries !== undefined) lines.push(`Entries   ${entries}`);
  const exits = fmtTagStats(statsByTag(run.trades, 'exitTag'), run.quoteAsset);
  if (exits !== undefined) lines.push(`Exits     ${exits}`);
  // Not a trade (it never went flat): what the run ended holding, valued at the last close.
  if (run.openTrade !== undefined) lines.push(`Open      ${fmtOpenTrade(run.openTrade, run.baseAsset, run.quoteAsset)}`);
  for (const x of run.symbols ?? []) if (x.openTrade !== undefined) lines.push(`Open      ${x.symbol}: ${fmtOpenTrade(x.openTrade, x.baseAsset, run.quoteAsset)}`);
  const other = feesInQuote(run.fills, run.baseAsset, run.quoteAsset, baseAssetsOf(run)).otherAssets;
  if (other.length) lines.push(`Note      fees charged in ${other.join(', ')} are not in "Fees paid" (no price for them in the run)`);
  const sent = ordersText(run.orders);
  if (sent !== undefined) lines.push(`Orders    ${sent}`);
  if (run.denials.length) {
    const first = run.denials[0]!.reasons;
    const hint = denialHint(first);
    lines.push(`Denied    ${run.denials.length} intent(s) refused before the venue; first: ${first.join('; ')}${hint === undefined ? '' : ` (${hint})`}`);
  }
  if (run.strategyFailures.length) {
    const f = run.strategyFailures[0]!;
    lines.push(`Failures  ${run.strategyFailures.length} strategy handler failure(s); first: ${f.handler} at ${fmtTime(f.time)}: ${f.message}${f.at === undefined ? '' : ` (thrown at ${f.at})`}`);
  }
  for (const notice of run.notices ?? []) lines.push(`Warning   ${notice}`);
  return lines.join('\n');
}
