/**
 * Text for metrics, shared by the terminal summary, the HTML report and the sweep tables, so a
 * figure reads the same everywhere. Deterministic: times are formatted in UTC from the run's
 * own timestamps, never from the clock.
 */
import type { TagStats, TradeStats } from './metrics-trades.ts';
import type { BacktestMetrics, BacktestRun, OpenTrade } from '../types.ts';
import { equityCurve } from '../record/equity-columns.ts';
import { maxDrawdownWindow } from './metrics-returns.ts';
import { dayStats, type PeriodReturn } from './period-returns.ts';

/** Thousands-separated fixed-point; infinities as ∞ (never NaN: computeMetrics has none). */
export function fmtNum(x: number, decimals = 2): string {
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '-∞';
  if (Number.isNaN(x)) return 'n/a';
  const [int = '0', frac] = Math.abs(x).toFixed(decimals).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = x < 0 && Number(Math.abs(x).toFixed(decimals)) !== 0 ? '-' : '';
  return `${sign}${grouped}${frac ? `.${frac}` : ''}`;
}

export function fmtSigned(x: number, decimals = 2): string {
  const s = fmtNum(x, decimals);
  return x > 0 && !s.startsWith('-') && !s.startsWith('+') ? `+${s}` : s;
}

/** Decimals a percentage may gain so that it does not read as a bound it is not (pct). */
const PCT_EXTRA_DECIMALS = 4;

/** Whether `x` at `decimals` reads as 0 or as 100 (either sign) while it is not exactly that. */
function onBound(x: number, decimals: number): boolean {
  const m = Math.abs(x);
  const shown = Number(m.toFixed(decimals));
  return (shown === 0 && m !== 0) || (shown === 100 && m !== 100);
}

/**
 * Percent with a sign option; a million percent and up (CAGR of a short run) in exponent form.
 * 0% and 100% are figures a reader acts on (never exposed, always exposed, every trade won, all
 * of it lost), so a percentage that is not exactly 0 or 100 never prints as one: it gets the
 * fewest extra decimals, up to PCT_EXTRA_DECIMALS, that tell it apart (an exposure of 99.98% at
 * one decimal prints 99.98%, a drawdown of 0.004% at two prints 0.004%, a return of 100.001%
 * prints +100.001%). Closer still, it prints the nearest figure of its own decimals with the
 * side it lies on: "<0.1%", ">99.9%", ">100.0%" (and ">-0.01%", "<-99.99%" below zero).
 */
function pct(x: number, decimals: number, signed: boolean): string {
  if (Number.isFinite(x) && Math.abs(x) >= 1e6) return `${signed && x > 0 ? '+' : ''}${x.toExponential(2).replace('e+', 'e')}%`;
  const text = (d: number): string => `${signed ? fmtSigned(x, d) : fmtNum(x, d)}%`;
  if (!Number.isFinite(x) || !onBound(x, decimals)) return text(decimals);
  for (let d = decimals + 1; d <= decimals + PCT_EXTRA_DECIMALS; d++) if (!onBound(x, d)) return text(d);
  const m = Math.abs(x);
  const step = 10 ** -decimals;
  // The nearest figure shown at `decimals` that is not the bound, on the value's side of it.
  const near = m < 0.5 ? step : m < 100 ? 100 - step : 100;
  const farther = m < 0.5 ? '<' : '>';
  const sign = x < 0 ? '-' : signed ? '+' : '';
  // Below zero the comparison turns round: -0.001 > -0.01.
  const cmp = x < 0 ? (farther === '<' ? '>' : '<') : farther;
  return `${cmp}${sign}${fmtNum(near, decimals)}%`;
}
export const fmtPct = (x: number, decimals = 2): string => pct(x, decimals, false);
export const fmtSignedPct = (x: number, decimals = 2): string => pct(x, decimals, true);

/** "2024-01-01 00:00 UTC" (seconds shown only when not zero). */
export function fmtTime(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  const iso = new Date(ms).toISOString();
  const secs = iso.slice(17, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${secs === '00' ? '' : `:${secs}`} UTC`;
}

/** "5d 3h", "2h 10m", "45m": a duration for a range line. */
export function fmtDuration(ms: number): string {
  const m = Math.round(ms / 60_000);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  if (d > 0) return h ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return min ? `${h}h ${min}m` : `${h}h`;
  return `${min}m`;
}

/** "fast=10 slow=30 quoteAmount=1000"; objects as JSON. */
export function fmtParams(params: Record<string, unknown>): string {
  const parts = Object.entries(params).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join(' ') : '(defaults)';
}

export interface MetricRow {
  key: keyof BacktestMetrics;
  label: string;
  value: string;
  /** For gains and losses: the number whose sign colours the value (absent when not shown, e.g. CAGR n/a). */
  signed?: number;
}

/** Runs shorter than this show no CAGR: annualising a few days' return gives absurd figures. */
export const MIN_CAGR_SPAN_MS = 30 * 86_400_000;

/**
 * The metrics as labelled rows, in reading order. `quote` names the money unit; `spanMs` is the
 * run's length, the span CAGR compounds over (metrics-returns.ts runSpanMs: first open to last
 * close); under MIN_CAGR_SPAN_MS CAGR and Calmar read n/a, and win rate and profit factor without a
 * closed trade. The JSON keeps the numbers either way.
 */
export function metricRows(m: BacktestMetrics, quote: string, spanMs = Infinity): MetricRow[] {
  const money = (x: number) => `${fmtNum(x)} ${quote}`;
  // CAGR and Calmar annualise: under MIN_CAGR_SPAN_MS both read n/a.
  const short = spanMs < MIN_CAGR_SPAN_MS;
  return [
    { key: 'startEquity', label: 'Start equity', value: money(m.startEquity) },
    { key: 'endEquity', label: 'End equity', value: money(m.endEquity) },
    { key: 'netPnl', label: 'Net PnL', value: `${fmtSigned(m.netPnl)} ${quote}`, signed: m.netPnl },
    { key: 'returnPct', label: 'Return', value: fmtSignedPct(m.returnPct), signed: m.returnPct },
    { key: 'marketReturnPct', label: 'Buy and hold', value: fmtSignedPct(m.marketReturnPct), signed: m.marketReturnPct },
    short
      ? { key: 'cagrPct', label: 'CAGR', value: 'n/a (< 30 days)' }
      : { key: 'cagrPct', label: 'CAGR', value: fmtSignedPct(m.cagrPct), signed: m.cagrPct },
    { key: 'maxDrawdownPct', label: 'Max drawdown', value: fmtPct(m.maxDrawdownPct) },
    { key: 'calmar', label: 'Calmar', value: short ? 'n/a (< 30 days)' : fmtNum(m.calmar) },
    { key: 'sharpe', label: 'Sharpe (ann.)', value: fmtNum(m.sharpe) },
    { key: 'sortino', label: 'Sortino (ann.)', value: fmtNum(m.sortino) },
    // Without a closed trade there is no rate to show (the JSON keeps 0).
    { key: 'winRatePct', label: 'Win rate', value: m.trades === 0 ? 'n/a (no trades)' : fmtPct(m.winRatePct, 1) },
    { key: 'profitFactor', label: 'Profit factor', value: m.trades === 0 ? 'n/a (no trades)' : fmtNum(m.profitFactor) },
    { key: 'exposurePct', label: 'Exposure', value: fmtPct(m.exposurePct, 1) },
    { key: 'feesPaid', label: 'Fees paid', value: money(m.feesPaid) },
    { key: 'trades', label: 'Trades', value: String(m.trades) },
    { key: 'fills', label: 'Fills', value: String(m.fills) },
  ];
}

/** Left-aligned first column, right-aligned others, two spaces between. */
export function alignTable(rows: readonly (readonly string[])[], rightAlign: (col: number) => boolean = (c) => c > 0): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length);
        return rightAlign(i) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The position a run ended holding, in one line (summary and report): side, quantity, since when,
 * cost and entry, value at the last close and the unrealized PnL before an exit's fee; then what
 * its partial exits already realized, when they did (otherwise a grid's profit inside a position
 * that never went flat would be in net PnL and nowhere else).
 */
export function fmtOpenTrade(t: OpenTrade, baseAsset: string, quoteAsset: string): string {
  const pnl = Number(t.unrealizedPnl);
  const realized = t.realizedPnl === '0' ? '' : `; partial exits realized ${fmtSigned(Number(t.realizedPnl))} ${quoteAsset}`;
  return (
    `${t.direction} ${t.qty} ${baseAsset} since ${fmtTime(t.entryTime)} (${barsText(t.barsHeld)}): ` +
    `cost ${fmtNum(Number(t.cost))} ${quoteAsset} (entry ${fmtNum(Number(t.entryPrice))}), ` +
    `worth ${fmtNum(Number(t.value))} at the last close ${fmtNum(Number(t.markPrice))}: ` +
    `unrealized ${fmtSigned(pnl)} ${quoteAsset} before the exit's fee${realized}`
  );
}

/**
 * The trades' edge in one phrase (summary and report): expectancy ratio and SQN, each "n/a" with
 * why when the trades cannot give it.
 */
export function fmtEdge(s: Pick<TradeStats, 'expectancyRatio' | 'sqn'>): string {
  const ratio = s.expectancyRatio === undefined ? 'n/a (no losing trade)' : `${fmtNum(s.expectancyRatio, 2)} (per unit of the average loss)`;
  const sqn = s.sqn === undefined ? 'n/a (fewer than two trades, or all alike)' : fmtNum(s.sqn, 2);
  return `expectancy ratio ${ratio}, SQN ${sqn}`;
}

/**
 * A run's fill model in words (summary and report): the backtester's own (fill-model.ts) as
 * "MARKET at the next open, 2 bps slippage, LIMIT when traded through, at most 10% of a
 * bar's volume"; anything else (a run made by hand) as its JSON. Empty for none.
 */
export function fmtFillModel(m: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(m);
  if (keys.length === 0) return '';
  const known = m.marketFill === 'next-open' && typeof m.slippageBps === 'number' && (m.limitFill === 'through' || m.limitFill === 'touch') && (m.volumeShare === null || typeof m.volumeShare === 'number') && keys.length === 4;
  if (!known) return JSON.stringify(m);
  const slip = m.slippageBps === 0 ? 'no slippage' : `${fmtNum(m.slippageBps as number, 2).replace(/\.?0+$/, '')} bps slippage`;
  const limit = m.limitFill === 'touch' ? 'LIMIT when touched' : 'LIMIT when traded through';
  const cap = m.volumeShare === null ? 'no volume cap' : `at most ${fmtNum((m.volumeShare as number) * 100, 4).replace(/\.?0+$/, '')}% of a bar's volume`;
  return `MARKET at the next open, ${slip}, ${limit}, ${cap}`;
}

/** Tag groups shown in one line; the rest are counted. */
const TAGS_SHOWN = 6;

/** A tag group's name as shown: the tag, or "(untagged)" for the trades whose order had none. */
export function tagLabel(tag: string): string {
  return tag === '' ? '(untagged)' : tag;
}

/**
 * Trades by entry or exit tag in one line (summary), or undefined when there is one group only
 * (every trade tagged alike says nothing the totals do not).
 */
export function fmtTagStats(groups: readonly TagStats[], quoteAsset: string): string | undefined {
  if (groups.length < 2) return undefined;
  const shown = groups.slice(0, TAGS_SHOWN).map((g) => `${tagLabel(g.tag)} ${fmtNum(g.trades, 0)} (${fmtPct(g.winRatePct, 1)} won, avg ${fmtSigned(g.avgPnl)}, total ${fmtSigned(g.totalPnl)} ${quoteAsset})`);
  const more = groups.length > TAGS_SHOWN ? `; ${groups.length - TAGS_SHOWN} more` : '';
  return shown.join('; ') + more;
}

/**
 * Where the deepest drawdown happened, in one line: from the peak (its time and equity; the run's
 * start when it fell from the start equity) to the lowest point. Undefined without a drawdown.
 */
export function fmtDrawdownWindow(run: Pick<BacktestRun, 'from' | 'quoteAsset' | 'equity'>, startEquity: number): string | undefined {
  const { times, values } = equityCurve(run);
  const w = maxDrawdownWindow(startEquity, values);
  if (w === undefined) return undefined;
  // A point is a bar's close, its last millisecond: shown as the moment after it (10:57, not 10:56:59).
  const at = (i: number): number => Math.ceil((times[i] as number) / 1000) * 1000;
  const peakTime = w.peak < 0 ? run.from : at(w.peak);
  const peakValue = w.peak < 0 ? startEquity : (values[w.peak] as number);
  return `${fmtPct(w.pct)} from ${fmtTime(peakTime)} (${fmtNum(peakValue)} ${run.quoteAsset}) to ${fmtTime(at(w.trough))} (${fmtNum(values[w.trough] as number)} ${run.quoteAsset})`;
}

/** Days won, flat and lost with the best and the worst, in one line; undefined for a run within one day. */
export function fmtDayStats(days: readonly PeriodReturn[]): string | undefined {
  const d = dayStats(days);
  if (d === undefined || days.length < 2) return undefined;
  return `${d.won} won, ${d.flat} flat, ${d.lost} lost; best ${fmtSignedPct(d.best.returnPct)} (${d.best.period}), worst ${fmtSignedPct(d.worst.returnPct)} (${d.worst.period})`;
}

/** `n` bars as words: "1 bar", "2 bars", thousands grouped. */
export function barsText(n: number): string {
  return `${fmtNum(n, 0)} ${n === 1 ? 'bar' : 'bars'}`;
}
