/**
 * Bars as the backtest loop takes them: the contract's BacktestBar (decimal strings, types.ts) or
 * a Candle (numbers for indicators plus the exact strings: the synthetic market, the journal
 * source). BacktestBars are converted into one reused Candle, so a year of bars costs no
 * allocation here; the strategy runner copies what it keeps into its history's columns.
 */
import type { Candle, CandleText } from '../../core/indicators/candle.ts';
import { intervalMs } from '../../core/market/intervals.ts';
import type { KlineInterval } from '../../core/market/intervals.ts';
import type { BacktestBar } from '../types.ts';

export type BarInput = BacktestBar | Candle;

/**
 * The one Candle object a source fills bar after bar (this file's CandleScratch, the journal's
 * reader in sources.ts): one class for both, so the bar path sees one shape. A class rather than
 * an object literal: docs/architecture.md, "Objects made once per run".
 */
export class ReusedCandle<X extends CandleText> implements Candle {
  openTime = 0;
  closeTime = 0;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
  readonly exact: X;

  constructor(exact: X) {
    this.exact = exact;
  }
}

/** The exact texts of a converted BacktestBar (plain fields, overwritten bar after bar). */
class ScratchText implements CandleText {
  open = '';
  high = '';
  low = '';
  close = '';
  volume = '';
}

export class CandleScratch {
  private readonly c: ReusedCandle<ScratchText>;

  constructor() {
    this.c = new ReusedCandle(new ScratchText());
  }

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

const MONTH_MAX_MS = 31 * 86_400_000;

/**
 * The spacing of open times above which bars are missing between two bars of `interval` (its
 * length; a month's longest for `1M`). The loop compares each step against it, so a series
 * without gaps costs one subtraction and one comparison a bar; missingBetween runs only past it.
 */
export function gapSpacing(interval: KlineInterval): number {
  return intervalMs(interval) ?? MONTH_MAX_MS;
}

/** Bars of `interval` missing between bars opening at `prevOpen` and `open` (aligned as the venue aligns them). */
export function missingBetween(prevOpen: number, open: number, interval: KlineInterval): number {
  const ms = intervalMs(interval);
  if (ms !== undefined) return Math.max(0, Math.round((open - prevOpen) / ms) - 1);
  const a = new Date(prevOpen);
  const b = new Date(open);
  return Math.max(0, (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() - 1);
}
