/**
 * backtest/metrics/: the figures read from a finished run, and their text and JSON. Imports the run's
 * folders (sources/, record/, run/), never the outputs or the searches.
 *
 * The headline figures of a backtest run (BacktestMetrics in types.ts), from its equity curve,
 * round trips and fills. Definitions:
 * - start equity: the start balances valued in quote before the first bar: the quote balance plus
 *   any base at the first bar's open (`run.market.open`). runBacktest and the round trips count
 *   base held at the start as bought there, so net PnL agrees with the trade list, and the first
 *   bar's return is in the curve figures. A run made by hand without `market` values its base at
 *   its first equity point (the first close) instead. Every reader of the start (summary, report,
 *   returns by period, drawdown window and curve) takes this one (startEquityOf or the metric).
 * - end equity: the last equity point (the start equity when there is none).
 * - net PnL = end - start; return % = net PnL / start.
 * - CAGR %: the return compounded over the run's time, from the first bar's open (the start
 *   equity's moment) to the last bar's close (the end equity's): runSpanMs, run.to - run.from.
 *   One bar of a day is one day. The summary and the report show it (and Calmar) as n/a under
 *   30 days of that same span.
 * - max drawdown %: deepest fall below a running peak, as a positive percentage.
 * - Calmar: CAGR % / max drawdown % for a gain (0 for a loss: calmarRatio says why), +Infinity for
 *   a gain with no drawdown (a run shorter than a month annualises to absurd figures: read it on
 *   long runs).
 * - Sharpe, Sortino: per-bar returns annualised for the bar interval, risk-free 0
 *   (metrics-returns.ts says why per-bar).
 * - win rate %, profit factor: over round trips, net of fees (metrics-trades.ts).
 * - exposure %: share of bars holding at least the symbol's minimum quantity of base (LOT_SIZE:
 *   metrics-trades.ts exposureThreshold defines it).
 * - fees paid: commissions in quote, base commissions valued at the fill price.
 * - several symbols (run-several.ts): the start equity values each base held at its symbol's first
 *   open; buy and hold splits the start quote equally across the symbols (the mean of their
 *   returns); exposure is the share of bars holding any of them (the position column is a value).
 * No field is ever NaN; profitFactor, sortino, cagrPct and calmar may be +Infinity (metrics-json.ts
 * writes those as "Infinity").
 *
 * Cost: a year of 1-minute bars is 525,600 equity points, ~10,000 trips and ~20,000 fills, read
 * once in a fresh process. Each collection is walked by as few loops as the figures allow
 * (curveFigures, tradeFigures, fillFigures: each loop runs unoptimised for its first tens of
 * thousands of elements); they are the single functions' own code, so the figures are theirs.
 */
import { D } from '../../core/money/decimal.ts';
import { cagrPct, curveFigures, periodsPerYear, runSpanMs } from './metrics-returns.ts';
import { exposurePct, exposureThreshold, fillFigures, percentOf, pnlFigures, tradeFigures } from './metrics-trades.ts';
import { fillRecordsOf } from '../record/recorder.ts';
import { reportedPnl, tripRecordsOf } from '../record/run-trades.ts';
import { equityColumnsOf, equityCurve } from '../record/equity-columns.ts';
import type { BacktestMetrics, BacktestRun } from '../types.ts';

/** The start equity (see the header): start balances in quote, base at the first bar's open. */
export function startEquityOf(run: Pick<BacktestRun, 'startBalances' | 'baseAsset' | 'quoteAsset' | 'market' | 'equity' | 'symbols'>): number {
  // The first point only: from the columns while the points are not built, else the first point.
  const c = equityColumnsOf(run);
  return startEquityFrom(run, c !== undefined ? c.equity[0] : run.equity[0]?.equity);
}

/** `firstEquity` (the first point) is read only for base held at the start in a run without `market`. */
function startEquityFrom(run: Pick<BacktestRun, 'startBalances' | 'baseAsset' | 'quoteAsset' | 'market' | 'symbols'>, firstEquity: number | undefined): number {
  if (run.symbols !== undefined) return severalStartEquity(run.startBalances, run.quoteAsset, run.symbols);
  const base = new D(run.startBalances[run.baseAsset] ?? '0');
  const quoteText = run.startBalances[run.quoteAsset] ?? '0';
  const quote = Number(quoteText);
  if (base.isZero()) return Number.isFinite(quote) ? quote : 0;
  const open = run.market?.open;
  // Exactly, as the texts say; a number only at the end (the curve's points are numbers).
  if (open !== undefined && Number(open) > 0) return base.times(open).plus(quoteText).toNumber();
  return firstEquity ?? quote;
}

/** Of several symbols: the quote plus each base held at the start at its symbol's first open. */
function severalStartEquity(balances: Record<string, string>, quoteAsset: string, symbols: NonNullable<BacktestRun['symbols']>): number {
  let total = new D(balances[quoteAsset] ?? '0');
  for (const s of symbols) {
    const base = balances[s.baseAsset];
    if (base !== undefined && Number(s.market.open) > 0) total = total.plus(new D(base).times(s.market.open));
  }
  return total.toNumber();
}

const finite = (x: number): number => (Number.isNaN(x) ? 0 : x);

export function computeMetrics(run: BacktestRun): BacktestMetrics {
  const { values, times, positions } = equityCurve(run);
  const n = values.length;
  const startEquity = startEquityFrom(run, values[0]);
  const endEquity = n > 0 ? (values[n - 1] as number) : startEquity;
  const netPnl = endEquity - startEquity;
  // From the first open (the start equity's moment), not the first close (see the header).
  const span = runSpanMs(run);
  const perYear = periodsPerYear(run.interval, times);
  // One pass over the curve for the return figures, drawdown and (with the position column) exposure.
  const withPositions = positions !== undefined && positions.length === n;
  // The recorded fills when the run's BacktestFills are not made yet (recorder.ts): the same fields.
  const fills = fillRecordsOf(run) ?? run.fills;
  const f = fillFigures(fills, run.baseAsset, run.quoteAsset, baseAssetsOf(run));
  const c = curveFigures(startEquity, values, perYear, withPositions ? positions : undefined, exposureThreshold(run.lot));
  // The trip records when the trades are not printed yet (run-trades.ts): the same figures.
  const records = tripRecordsOf(run);
  const t = records !== undefined ? pnlFigures(records.map(reportedPnl)) : tradeFigures(run.trades);
  const cagr = cagrPct(startEquity, endEquity, span);
  return {
    startEquity: finite(startEquity),
    endEquity: finite(endEquity),
    netPnl: finite(netPnl),
    returnPct: startEquity > 0 ? finite((netPnl / startEquity) * 100) : 0,
    marketReturnPct: run.symbols === undefined ? marketReturnPct(run.market) : finite(run.symbols.reduce((sum, x) => sum + marketReturnPct(x.market), 0) / run.symbols.length),
    cagrPct: finite(cagr),
    maxDrawdownPct: finite(c.maxDrawdownPct),
    calmar: calmarRatio(cagr, c.maxDrawdownPct),
    sharpe: finite(c.sharpe),
    sortino: finite(c.sortino),
    winRatePct: t.winRatePct,
    profitFactor: finite(t.profitFactor),
    exposurePct: withPositions ? percentOf(c.exposed, n) : exposurePct(run.equity, run.lot),
    feesPaid: finite(f.feesInQuote),
    trades: records !== undefined ? records.length : run.trades.length,
    fills: fills.length,
  };
}

/** Each symbol's base asset, in a run of several (fees charged in them are valued at the fill's price); undefined for one. */
export function baseAssetsOf(run: Pick<BacktestRun, 'symbols'>): ReadonlyMap<string, string> | undefined {
  return run.symbols === undefined ? undefined : new Map(run.symbols.map((s) => [s.symbol, s.baseAsset]));
}

/** Last close over first open, in percent; 0 without them (a run made by hand) or from a non-positive open. */
function marketReturnPct(market: BacktestRun['market']): number {
  if (market === undefined) return 0;
  const open = Number(market.open);
  return open > 0 ? finite((Number(market.close) / open - 1) * 100) : 0;
}

/**
 * CAGR over max drawdown (see the header): 0 without a gain, +Infinity for a gain with no
 * drawdown. Not negative for a loss: the CAGR of a loss is bounded by -100%, so the ratio would
 * rank a deeper loss above a shallower one (a sweep ranking by Calmar orders its losers by net PnL).
 */
export function calmarRatio(cagr: number, maxDrawdown: number): number {
  if (!(cagr > 0)) return 0;
  return maxDrawdown > 0 ? finite(cagr / maxDrawdown) : Infinity;
}
