/**
 * Trade- and fill-level figures: win rate, profit factor, fees in quote, exposure, and the trade
 * statistics the summary and the report show. Fee and PnL sums run exactly, as Decimal computes
 * them (precision 40, half up), on exact40 (the same digits without a Decimal per fill: a year
 * of fills is tens of thousands of them); the results are numbers because metrics only feed
 * tables and charts.
 */
import { X40 } from '../core/money/exact40.ts';
import type { BacktestFill, EquityPoint, RoundTrip } from './types.ts';

export function winRatePct(trades: readonly RoundTrip[]): number {
  if (trades.length === 0) return 0;
  return (trades.filter((t) => Number(t.pnl) > 0).length / trades.length) * 100;
}

/**
 * Gross profit / gross loss over round trips (net of fees). No trades or no profit: 0. Profit and
 * no loss: +Infinity (written as "Infinity" by metrics-json).
 */
export function profitFactor(trades: readonly RoundTrip[]): number {
  let win = X40.ZERO;
  let loss = X40.ZERO;
  for (const t of trades) {
    const p = X40.parse(t.pnl);
    if (p.sign > 0) win = win.plus(p);
    else if (p.sign < 0) loss = loss.minus(p);
  }
  if (win.isZero()) return 0;
  return loss.isZero() ? Infinity : win.div(loss).toNumber();
}

/**
 * Commissions in the quote asset: quote commissions as they are, base commissions at the fill's
 * price. Commissions in any other asset cannot be valued from the run and are left out
 * (`otherAssets` lists them so a caller can say so); this venue charges base or quote.
 */
export function feesInQuote(fills: readonly BacktestFill[], baseAsset: string, quoteAsset: string): { quote: number; otherAssets: string[] } {
  let sum = X40.ZERO;
  const other = new Set<string>();
  for (const f of fills) {
    const c = X40.parse(f.commission);
    if (c.isZero()) continue;
    if (f.commissionAsset === quoteAsset) sum = sum.plus(c);
    else if (f.commissionAsset === baseAsset) sum = sum.plus(c.times(X40.parse(f.price)));
    else other.add(f.commissionAsset);
  }
  return { quote: sum.toNumber(), otherAssets: [...other].sort() };
}

/** Decimal places of a decimal string, trailing zeros ignored ("0.0100" -> 2, "3" -> 0). */
function places(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48 /* '0' */) end--;
  return end - dot - 1;
}

/**
 * The smallest position that counts as exposure: one unit of the finest quantity grid the fills
 * used. A base commission leaves dust below the lot step that no order can sell; counting that
 * dust would put a flat strategy at 100% exposure. Without fills any non-zero position counts.
 */
export function exposureThreshold(fills: readonly BacktestFill[]): number {
  if (fills.length === 0) return Number.MIN_VALUE;
  let p = 0;
  for (const f of fills) p = Math.max(p, places(f.qty));
  // A hair under one step so float noise on a real one-step position still counts.
  return 10 ** -p * (1 - 1e-9);
}

/** Share of equity points (bars) holding at least one step of base, in percent. */
export function exposurePct(equity: readonly EquityPoint[], fills: readonly BacktestFill[]): number {
  if (equity.length === 0) return 0;
  const min = exposureThreshold(fills);
  let n = 0;
  for (const p of equity) if (Math.abs(p.position) >= min) n++;
  return (n / equity.length) * 100;
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
  };
}
