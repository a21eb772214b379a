/**
 * Bars as the backtest loop takes them: the contract's BacktestBar (decimal strings, types.ts) or
 * a Candle (numbers for indicators plus the exact strings: the synthetic market, the journal
 * source). BacktestBars are converted into one reused Candle, so a year of bars costs no
 * allocation here; the strategy runner copies what it keeps into its history's columns.
 */
import type { Candle } from '../core/indicators/candle.ts';
import type { BacktestBar } from './types.ts';

export type BarInput = BacktestBar | Candle;

interface MutableCandle {
  openTime: number;
  closeTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  exact: { open: string; high: string; low: string; close: string; volume: string };
}

export class CandleScratch {
  private readonly c: MutableCandle = { openTime: 0, closeTime: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, exact: { open: '', high: '', low: '', close: '', volume: '' } };

  /** The bar as a Candle; a BacktestBar lands in the reused object (valid until the next call). */
  of(bar: BarInput): Candle {
    if (typeof bar.open !== 'string') return bar as Candle;
    const b = bar as BacktestBar;
    const c = this.c;
    c.openTime = b.openTime;
    c.closeTime = b.closeTime;
    c.open = Number(b.open);
    c.high = Number(b.high);
    c.low = Number(b.low);
    c.close = Number(b.close);
    c.volume = Number(b.volume);
    const x = c.exact;
    x.open = b.open;
    x.high = b.high;
    x.low = b.low;
    x.close = b.close;
    x.volume = b.volume;
    return c;
  }
}

/** A bar that cannot be played: the message says which and why. */
export function checkBar(c: Candle, prevOpen: number, index: number): string | undefined {
  if (!(c.closeTime >= c.openTime)) return `bar ${index} (open time ${c.openTime}) closes at ${c.closeTime}, before it opens`;
  if (c.openTime <= prevOpen) return `bar ${index} opens at ${c.openTime}, not after the previous bar (${prevOpen}): bars must be in increasing open time`;
  if (!(c.low <= c.high) || Number.isNaN(c.open + c.close)) return `bar ${index} (open time ${c.openTime}) has low ${c.exact.low} above high ${c.exact.high} or unreadable prices`;
  return undefined;
}
