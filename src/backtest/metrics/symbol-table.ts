/**
 * The per-symbol figures of a run of several symbols (BacktestRun.symbols), as Freqtrade's
 * per-pair table: each symbol's bars, closed trades, win rate, their PnL in the quote asset, its
 * own buy and hold (first open to last close) and what is still held. The summary prints them as a
 * table, the report as an HTML one; both take the rows from here.
 */
import { fmtNum, fmtPct, fmtSigned, fmtSignedPct } from './metrics-format.ts';
import { tradeStats } from './metrics-trades.ts';
import type { BacktestRun } from '../types.ts';

export interface SymbolRow {
  readonly symbol: string;
  readonly bars: number;
  readonly trades: number;
  readonly winRatePct: number;
  /** Closed trades' net PnL, quote. */
  readonly pnl: number;
  readonly marketReturnPct: number;
  /** Base still held at the end ('' when flat), with its asset. */
  readonly open: string;
}

export function symbolRows(run: BacktestRun): SymbolRow[] {
  return (run.symbols ?? []).map((s) => {
    const stats = tradeStats(run.trades.filter((t) => t.symbol === s.symbol));
    const open = Number(s.market.open);
    return {
      symbol: s.symbol,
      bars: s.barCount,
      trades: stats.trades,
      winRatePct: stats.trades === 0 ? 0 : (stats.wins / stats.trades) * 100,
      pnl: stats.trades === 0 ? 0 : stats.avgPnl * stats.trades,
      marketReturnPct: open > 0 ? (Number(s.market.close) / open - 1) * 100 : 0,
      open: s.openTrade === undefined ? '' : `${s.openTrade.qty} ${s.baseAsset}`,
    };
  });
}

/** The table's header and cells, as text (the quote asset names the PnL column). */
export function symbolTable(run: BacktestRun): string[][] {
  const head = ['Symbol', 'Bars', 'Trades', 'Won', `PnL (${run.quoteAsset})`, 'Buy and hold', 'Held at the end'];
  const rows = symbolRows(run).map((r) => [r.symbol, fmtNum(r.bars, 0), fmtNum(r.trades, 0), r.trades === 0 ? '-' : fmtPct(r.winRatePct, 1), fmtSigned(r.pnl), fmtSignedPct(r.marketReturnPct), r.open === '' ? '-' : r.open]);
  return [head, ...rows];
}

/** The trade line's tail: closed trades per symbol ("BTCPHP 9, ETHPHP 5"). */
export function tradesPerSymbol(run: BacktestRun): string {
  return symbolRows(run)
    .map((r) => `${r.symbol} ${r.trades}`)
    .join(', ');
}
