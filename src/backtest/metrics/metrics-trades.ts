/**
 * Trade- and fill-level figures: win rate, profit factor, fees in quote, exposure, and the trade
 * statistics the summary and the report show. Fee and PnL sums run exactly, as Decimal computes
 * them (precision 40, half up), on exact40 (the same digits without a Decimal per fill: a year
 * of fills is tens of thousands of them); the results are numbers because metrics only feed
 * tables and charts.
 */
import { X40 } from '../../core/money/exact40.ts';
import { exposureThreshold } from '../record/exposure-threshold.ts';
import type { BacktestFill, BacktestRun, EquityPoint, RoundTrip } from '../types.ts';

export function winRatePct(trades: readonly RoundTrip[]): number {
  let won = 0;
  for (let i = 0; i < trades.length; i++) if (isWin((trades[i] as RoundTrip).pnl)) won++;
  return percentOf(won, trades.length);
}

/** A winning trade: one whose PnL reads as a positive number. */
const isWin = (pnl: string): boolean => Number(pnl) > 0;

/**
 * Gross profit / gross loss over round trips (net of fees). No trades or no profit: 0. Profit and
 * no loss: +Infinity (written as "Infinity" by metrics-json).
 */
export function profitFactor(trades: readonly RoundTrip[]): number {
  return tradeFigures(trades).profitFactor;
}

/**
 * winRatePct and profitFactor in one pass over the trades (computeMetrics wants both; a year is
 * ten thousand trips): a win is a PnL whose Number is positive, the profit factor sums exactly.
 */
export function tradeFigures(trades: readonly RoundTrip[]): { winRatePct: number; profitFactor: number } {
  let won = 0;
  const pnls = new Array<X40>(trades.length);
  for (let i = 0; i < trades.length; i++) {
    const text = (trades[i] as RoundTrip).pnl;
    if (isWin(text)) won++;
    // parseOnce: every trade's PnL is a new text (X40.parse's memo would only miss).
    pnls[i] = X40.parseOnce(text);
  }
  return figuresOf(won, pnls);
}

/**
 * tradeFigures of trips not printed yet, from their reported PnLs (run-trades.ts reportedPnl: the
 * values their pnl texts print, so a positive one is exactly a text whose Number is positive).
 */
export function pnlFigures(pnls: readonly X40[]): { winRatePct: number; profitFactor: number } {
  let won = 0;
  for (let i = 0; i < pnls.length; i++) if ((pnls[i] as X40).sign > 0) won++;
  return figuresOf(won, pnls);
}

function figuresOf(won: number, pnls: readonly X40[]): { winRatePct: number; profitFactor: number } {
  // Summed by X40.sum: the same digits as adding one trade at a time (see there), without a
  // BigInt addition per trade once the sums pass 2^53 (a year's gross profit in 12-decimal units does).
  const gains: X40[] = [];
  const losses: X40[] = [];
  for (let i = 0; i < pnls.length; i++) {
    const p = pnls[i] as X40;
    if (p.sign > 0) gains.push(p);
    else if (p.sign < 0) losses.push(p);
  }
  const winRatePct = percentOf(won, pnls.length);
  const win = X40.sum(gains);
  if (win.isZero()) return { winRatePct, profitFactor: 0 };
  // The loss as a positive amount: 0 - (sum of the negative ones), as subtracting each gives.
  const loss = X40.ZERO.minus(X40.sum(losses));
  return { winRatePct, profitFactor: loss.isZero() ? Infinity : win.div(loss).toNumber() };
}

/**
 * Commissions in the quote asset: quote commissions as they are, base commissions at the fill's
 * price. Commissions in any other asset cannot be valued from the run and are left out
 * (`otherAssets` lists them so a caller can say so); this venue charges base or quote.
 */
export function feesInQuote(fills: readonly BacktestFill[], baseAsset: string, quoteAsset: string, baseOf?: ReadonlyMap<string, string>): { quote: number; otherAssets: string[] } {
  const f = fillFigures(fills, baseAsset, quoteAsset, baseOf);
  return { quote: f.feesInQuote, otherAssets: f.otherAssets };
}

/**
 * feesInQuote in one pass over the fills (computeMetrics reads them once; a year is twenty
 * thousand fills, the loop unoptimised for its first thousands).
 */
export function fillFigures(fills: readonly BacktestFill[], baseAsset: string, quoteAsset: string, baseOf?: ReadonlyMap<string, string>): { feesInQuote: number; otherAssets: string[] } {
  // X40.sum: the digits of adding one fill at a time, without per-fill BigInt additions (tradeFigures says why).
  const terms: X40[] = [];
  let other: Set<string> | undefined;
  for (let i = 0; i < fills.length; i++) {
    const f = fills[i] as BacktestFill;
    // parseOnce: each fill's texts are new (X40.parse's memo would only miss).
    const c = X40.parseOnce(f.commission);
    if (c.isZero()) continue;
    if (f.commissionAsset === quoteAsset) terms.push(c);
    else if (f.commissionAsset === baseAsset || (baseOf !== undefined && baseOf.get(f.symbol) === f.commissionAsset)) terms.push(c.times(X40.parseOnce(f.price)));
    else (other ??= new Set<string>()).add(f.commissionAsset);
  }
  return { feesInQuote: X40.sum(terms).toNumber(), otherAssets: other === undefined ? [] : [...other].sort() };
}

/** Re-exported: the metrics read it from here (it lives under record/ because the run of several symbols needs it too, and the run sits below the metrics). */
export { exposureThreshold };

/** Share of equity points (bars) holding at least the exposure threshold of base (exposureThreshold), in percent. */
export function exposurePct(equity: readonly EquityPoint[], lot: BacktestRun['lot']): number {
  if (equity.length === 0) return 0;
  const min = exposureThreshold(lot);
  let n = 0;
  for (const p of equity) if (Math.abs(p.position) >= min) n++;
  return percentOf(n, equity.length);
}

/** `count` of `total` (points, trades) in percent; 0 of none. */
export function percentOf(count: number, total: number): number {
  return total === 0 ? 0 : (count / total) * 100;
}

export interface TradeStats {
  trades: number;
  wins: number;
  losses: number;
  long: number;
  short: number;
  /** Mean net PnL per trade, quote. */
  avgPnl: number;
  /** Mean return per trade, percent of entry notional. */
  avgReturnPct: number;
  bestPnl: number;
  worstPnl: number;
  avgBarsHeld: number;
  grossProfit: number;
  grossLoss: number;
  /** The longest runs of winning and of losing trades in a row (a break-even trade ends both). */
  maxWinStreak: number;
  maxLossStreak: number;
  /** Mean bars held by winning and by losing trades (0 without such trades). */
  avgBarsWinners: number;
  avgBarsLosers: number;
  /**
   * Expectancy ratio, as Freqtrade prints it: (1 + mean win / mean loss) * win rate - 1, what a
   * trade returns per unit of the average loss (above 0: an edge). Undefined without a losing
   * trade (no loss to measure it by).
   */
  expectancyRatio: number | undefined;
  /**
   * System Quality Number (Van Tharp, as Freqtrade computes it): sqrt(trades) * mean PnL / the
   * PnLs' sample standard deviation. Undefined below two trades or when every PnL is the same.
   */
  sqn: number | undefined;
}

export function tradeStats(trades: readonly RoundTrip[]): TradeStats {
  const pnls = trades.map((t) => Number(t.pnl));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const n = trades.length;
  return {
    trades: n,
    wins: pnls.filter((p) => p > 0).length,
    losses: pnls.filter((p) => p < 0).length,
    long: trades.filter((t) => t.direction === 'LONG').length,
    short: trades.filter((t) => t.direction === 'SHORT').length,
    avgPnl: n ? sum(pnls) / n : 0,
    avgReturnPct: n ? (sum(trades.map((t) => (Number.isFinite(t.returnRatio) ? t.returnRatio : 0))) / n) * 100 : 0,
    bestPnl: n ? pnls.reduce((a, b) => Math.max(a, b)) : 0,
    worstPnl: n ? pnls.reduce((a, b) => Math.min(a, b)) : 0,
    avgBarsHeld: n ? sum(trades.map((t) => t.barsHeld)) / n : 0,
    grossProfit: sum(pnls.filter((p) => p > 0)),
    grossLoss: -sum(pnls.filter((p) => p < 0)),
    ...streaks(pnls),
    avgBarsWinners: meanBars(trades, pnls, (p) => p > 0),
    avgBarsLosers: meanBars(trades, pnls, (p) => p < 0),
    expectancyRatio: expectancyRatio(pnls),
    sqn: systemQuality(pnls),
  };
}

/** TradeStats.expectancyRatio of the trades' PnLs. */
export function expectancyRatio(pnls: readonly number[]): number | undefined {
  let wins = 0;
  let won = 0;
  let losses = 0;
  let lost = 0;
  for (const p of pnls) {
    if (p > 0) {
      wins++;
      won += p;
    } else if (p < 0) {
      losses++;
      lost -= p;
    }
  }
  if (losses === 0) return undefined;
  const meanWin = wins === 0 ? 0 : won / wins;
  return (1 + meanWin / (lost / losses)) * (wins / pnls.length) - 1;
}

/** TradeStats.sqn of the trades' PnLs. */
export function systemQuality(pnls: readonly number[]): number | undefined {
  const n = pnls.length;
  if (n < 2) return undefined;
  let sum = 0;
  for (const p of pnls) sum += p;
  const mean = sum / n;
  let squares = 0;
  for (const p of pnls) squares += (p - mean) * (p - mean);
  const sd = Math.sqrt(squares / (n - 1));
  return sd === 0 ? undefined : (Math.sqrt(n) * mean) / sd;
}

/** Longest runs of positive and of negative PnLs in order. */
function streaks(pnls: readonly number[]): { maxWinStreak: number; maxLossStreak: number } {
  let win = 0;
  let loss = 0;
  let maxWinStreak = 0;
  let maxLossStreak = 0;
  for (const p of pnls) {
    win = p > 0 ? win + 1 : 0;
    loss = p < 0 ? loss + 1 : 0;
    maxWinStreak = Math.max(maxWinStreak, win);
    maxLossStreak = Math.max(maxLossStreak, loss);
  }
  return { maxWinStreak, maxLossStreak };
}

function meanBars(trades: readonly RoundTrip[], pnls: readonly number[], pick: (pnl: number) => boolean): number {
  let n = 0;
  let bars = 0;
  for (let i = 0; i < trades.length; i++) {
    if (!pick(pnls[i] as number)) continue;
    n++;
    bars += (trades[i] as RoundTrip).barsHeld;
  }
  return n === 0 ? 0 : bars / n;
}

/** The trades that entered (or exited) by one tag: Freqtrade's enter-tag and exit-reason stats. */
export interface TagStats {
  /** The order tag; '' for trades whose order had none. */
  tag: string;
  trades: number;
  wins: number;
  winRatePct: number;
  /** Mean and total net PnL per trade, quote. */
  avgPnl: number;
  totalPnl: number;
}

/** Trades grouped by their entry or exit order's tag, most trades first (then by tag). */
export function statsByTag(trades: readonly RoundTrip[], by: 'entryTag' | 'exitTag'): TagStats[] {
  const groups = new Map<string, TagStats>();
  for (const t of trades) {
    const tag = t[by] ?? '';
    let g = groups.get(tag);
    if (g === undefined) groups.set(tag, (g = { tag, trades: 0, wins: 0, winRatePct: 0, avgPnl: 0, totalPnl: 0 }));
    const pnl = Number(t.pnl);
    g.trades++;
    if (pnl > 0) g.wins++;
    g.totalPnl += pnl;
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.winRatePct = percentOf(g.wins, g.trades);
    g.avgPnl = g.totalPnl / g.trades;
  }
  return out.sort((a, b) => b.trades - a.trades || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}
