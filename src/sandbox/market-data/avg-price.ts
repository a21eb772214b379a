/**
 * Current average price (spec 2.6 `{mins, price}`, 4.4 avgPrice): the volume-weighted price of the
 * trades of the last `mins` minutes, falling back to the last trade price when the window is empty
 * ("0" before any trade). Keeps only the trades of the window. `simple` makes it the plain mean of
 * the trade prices instead (spec 2.3 PERCENT_PRICE_SA's "simple average price").
 */
import { ZERO, toWire, type Dec } from '../../core/money/decimal.ts';
import { DERIVED_PRICE_PLACES, type StoredTrade } from './types.ts';

export class AvgPriceWindow {
  private trades: StoredTrade[] = [];
  private head = 0;
  private lastPrice: Dec | undefined;

  constructor(
    readonly mins: number,
    readonly simple = false,
  ) {}

  add(trade: StoredTrade): void {
    this.trades.push(trade);
    this.lastPrice = trade.price;
    this.prune(trade.time);
  }

  /** The average at `now`: trades with time in (now - mins, now]. */
  price(now: number): string {
    this.prune(now);
    let qty = ZERO;
    let quote = ZERO;
    for (let i = this.head; i < this.trades.length; i++) {
      const t = this.trades[i] as StoredTrade;
      if (t.time > now) continue;
      // Simple: each trade weighs one, so the sum of prices over the count.
      qty = this.simple ? qty.plus(1) : qty.plus(t.qty);
      quote = quote.plus(this.simple ? t.price : t.quote);
    }
    if (qty.isZero()) return this.lastPrice ? toWire(this.lastPrice) : '0';
    return toWire(quote.div(qty).toDecimalPlaces(DERIVED_PRICE_PLACES));
  }

  private prune(now: number): void {
    const from = now - this.mins * 60_000;
    while (this.head < this.trades.length && (this.trades[this.head] as StoredTrade).time <= from) this.head++;
    // Compact now and then, so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.trades.length) {
      this.trades = this.trades.slice(this.head);
      this.head = 0;
    }
  }
}
