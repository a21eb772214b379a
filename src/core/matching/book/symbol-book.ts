/**
 * Everything the engine keeps per symbol: the scales and rules (SymbolSpec), both book sides,
 * the untriggered stops, the last trade price and the book update id (notes 4 depth U/u).
 */
import type { AccountBook } from '../accounts/account-book.ts';
import type { IdSequence } from './id-sequence.ts';
import type { BalanceEntry } from '../../portfolio/balances.ts';
import { BookSide } from './book-side.ts';
import { ScaledTexts } from '../numbers/scaled-texts.ts';
import { StopBook } from '../stops.ts';
import type { SymbolSpec } from '../numbers/symbol-spec.ts';

export class SymbolBook {
  // Made in the constructor, not by field initialisers: docs/architecture.md, "Objects made once per run".
  readonly bids: BookSide;
  readonly asks: BookSide;
  readonly stops: StopBook;
  /** Price int of the last trade; -1 before the first. */
  lastPrice = -1;
  /**
   * Lots outside liquidity may still give on this symbol, all external fills together (placeOrder's
   * externalPrice, applyPrint's resting orders and the stops triggered within); Infinity: no cap
   * (the default). Set by SpotEngine.capExternal (a backtest's volume share per bar); not persisted.
   */
  extLeft = Infinity;
  /** Incremented once per changed depth level. */
  updateId = 0;
  /** The accounts' states on this symbol by account id (account-registry.ts keeps them; this is its one-lookup cache). */
  readonly accounts = new Map<string, AccountBook>();
  /** Text caches per decimal scale: prices, quantities, notionals, commissions (the scales never change for a book, see addInstrument). */
  private readonly texts: (ScaledTexts | undefined)[] = [];
  /** Wire texts of prices and quantities: the caches of the price and quantity scales. */
  readonly priceTexts: ScaledTexts;
  readonly qtyTexts: ScaledTexts;

  constructor(
    public spec: SymbolSpec,
    /** The fee account's entries for this symbol's assets (commissions land here). */
    readonly feeBase: BalanceEntry,
    readonly feeQuote: BalanceEntry,
    /** The engine's id sequences (orders and trades make their id text from them). */
    readonly orderIds: IdSequence,
    readonly tradeIds: IdSequence,
  ) {
    this.bids = new BookSide(true);
    this.asks = new BookSide(false);
    this.stops = new StopBook();
    this.priceTexts = this.textsAt(spec.pd);
    this.qtyTexts = this.textsAt(spec.qd);
  }

  /** formatScaled(n, decimals), cached per scale. */
  text(n: number, decimals: number): string {
    return this.textsAt(decimals).get(n);
  }

  private textsAt(decimals: number): ScaledTexts {
    let t = this.texts[decimals];
    if (t === undefined) this.texts[decimals] = t = new ScaledTexts(decimals);
    return t;
  }

  side(isBid: boolean): BookSide {
    return isBid ? this.bids : this.asks;
  }
}
