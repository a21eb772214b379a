/**
 * The bars the live run recorded, per symbol, looked up by time: which bar a fill fell in, the
 * bar after a decision, whether a price lies within a bar or only touched it. What the
 * explanations check the fill model's rules against.
 */
import { D, type Dec } from '../../core/money/decimal.ts';

export interface RecordedBar {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

export class BarIndex {
  private readonly bySymbol = new Map<string, readonly RecordedBar[]>();

  /** Bars per symbol, oldest first. */
  constructor(series: ReadonlyMap<string, readonly RecordedBar[]>) {
    for (const [symbol, bars] of series) this.bySymbol.set(symbol, bars);
  }

  bars(symbol: string): readonly RecordedBar[] {
    return this.bySymbol.get(symbol) ?? [];
  }

  /** The bar whose [open, close] holds `time`, if recorded. */
  at(symbol: string, time: number): RecordedBar | undefined {
    const bars = this.bars(symbol);
    let lo = 0;
    let hi = bars.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const b = bars[mid] as RecordedBar;
      if (time < b.openTime) hi = mid - 1;
      else if (time > b.closeTime) lo = mid + 1;
      else return b;
    }
    return undefined;
  }

  first(symbol: string): RecordedBar | undefined {
    return this.bars(symbol)[0];
  }

  last(symbol: string): RecordedBar | undefined {
    const bars = this.bars(symbol);
    return bars[bars.length - 1];
  }

  /** Bars with open time in [from, to]. */
  between(symbol: string, from: number, to: number): RecordedBar[] {
    return this.bars(symbol).filter((b) => b.closeTime >= from && b.openTime <= to);
  }
}

/** Whether `price` lies within the bar's [low, high]. */
export function withinBar(bar: RecordedBar, price: Dec): boolean {
  return price.gte(bar.low) && price.lte(bar.high);
}

/**
 * How the bars from `from` to `to` met a resting limit: `through` when a bar traded strictly
 * beyond it (below a BUY's price, above a SELL's), `touch` when some reached it exactly and none
 * went beyond, `none` when none reached it.
 */
export function limitReach(bars: readonly RecordedBar[], side: 'BUY' | 'SELL', limit: string): 'through' | 'touch' | 'none' {
  const p = new D(limit);
  let touched = false;
  for (const b of bars) {
    const extreme = new D(side === 'BUY' ? b.low : b.high);
    if (side === 'BUY' ? extreme.lt(p) : extreme.gt(p)) return 'through';
    if (extreme.eq(p)) touched = true;
  }
  return touched ? 'touch' : 'none';
}
