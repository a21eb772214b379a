/**
 * Everything the engine keeps per symbol: the scales and rules (SymbolSpec), both book sides,
 * the untriggered stops, the last trade price and the book update id (notes 4 depth U/u).
 */
import type { BalanceEntry } from '../portfolio/balances.ts';
import { BookSide } from './book-side.ts';
import { ScaledTexts } from './scaled-texts.ts';
import { StopBook } from './stops.ts';
import type { SymbolSpec } from './symbol-spec.ts';

export class SymbolBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  readonly stops = new StopBook();
  /** Price int of the last trade; -1 before the first. */
  lastPrice = -1;
  /** Incremented once per changed depth level. */
  updateId = 0;
  /** Wire texts of prices and quantities (the scales never change for a book, see addInstrument). */
  readonly priceTexts: ScaledTexts;
  readonly qtyTexts: ScaledTexts;

  constructor(
    public spec: SymbolSpec,
    /** The fee account's entries for this symbol's assets (commissions land here). */
    readonly feeBase: BalanceEntry,
    readonly feeQuote: BalanceEntry,
  ) {
    this.priceTexts = new ScaledTexts(spec.pd);
    this.qtyTexts = new ScaledTexts(spec.qd);
  }

  /** Texts of amounts on other scales (commissions: quantity or notional decimals plus the rate's), per scale. */
  private readonly otherTexts: (ScaledTexts | undefined)[] = [];

  /** formatScaled(n, decimals), cached per scale like prices and quantities. */
  text(n: number, decimals: number): string {
    let t = this.otherTexts[decimals];
    if (t === undefined) this.otherTexts[decimals] = t = new ScaledTexts(decimals);
    return t.get(n);
  }

  side(isBid: boolean): BookSide {
    return isBid ? this.bids : this.asks;
  }
}
