/**
 * Position and PnL of one strategy on one symbol from its fills (issue 21 deliverable 4: "per
 * strategy: position, open orders, realised and unrealised PnL"), counted the way the backtest
 * reports count them: the round-trip book (core/portfolio/round-trips.ts), FIFO, every fee in the
 * realised PnL, a base commission taken off what was bought. So a live run and the backtest of its
 * bars print the same PnL for the same fills (live-against-backtest compares them).
 *
 * - realised: the closed trips' PnL plus what the open trip's sells realised (FIFO cost).
 * - unrealised: open quantity at the mark price minus the FIFO cost of the open lots (as
 *   backtest/record/run-trades.ts openTradeOf values the open trade at the last close).
 * - quantity: the base the fills moved, signed (a BUY adds what was received net of a base fee, a
 *   SELL takes what was sold and its base fee), counted by the order manager's own position
 *   arithmetic (core/orders/holdings.ts), so it is the position the strategy's context read.
 *   Spot is long only, but a run that sells base it held before its first journaled fill shows
 *   it as negative rather than hiding it.
 *
 * `checkpoint()` reads the realised PnL so far, so a caller can feed fills of earlier runs (the
 * cost of a position carried over a restart) and report only what this run realised.
 * Amounts are printed to 12 decimals, as the backtest's trades are (run-trades.ts).
 */
import { X40 } from '../../core/money/exact40.ts';
import { RoundTripBook, type BookFill } from '../../core/portfolio/round-trips.ts';
import { D } from '../../core/money/decimal.ts';
import { Holdings } from '../../core/orders/holdings.ts';

/** Decimals printed: the backtest's reports print trades to 12 (backtest/record/run-trades.ts). */
export const PNL_DP = 12;

export interface SymbolAssets {
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** LOT_SIZE minQty: below it a position is dust (flat); "0" when unknown. */
  readonly minQty: string;
}

/** What is read of a fill: the journal's FillRecord and the order manager's FillOut both fit. */
export type PnlFill = Pick<BookFill, 'side' | 'price' | 'qty' | 'quoteQty' | 'commission' | 'commissionAsset' | 'time'>;

const text = (x: X40): string => x.toFixedDp(PNL_DP);

export class SymbolPnl {
  private readonly book: RoundTripBook;
  /** The position as the order manager counts a strategy's (one symbol's entry). */
  private readonly held = new Holdings();
  private lastFill: { price: string; time: number } | undefined;
  private fillCount = 0;
  private feeTotal = X40.ZERO;

  constructor(
    readonly symbol: string,
    readonly assets: SymbolAssets,
  ) {
    this.book = new RoundTripBook(symbol, assets.baseAsset, assets.quoteAsset, new D(assets.minQty));
  }

  add(f: PnlFill): void {
    this.book.onFill({ ...f, tag: undefined }, 0);
    const qty = X40.parse(f.qty);
    const baseFee = f.commissionAsset === this.assets.baseAsset ? X40.parse(f.commission) : X40.ZERO;
    const fee = X40.parse(f.commission);
    if (f.commissionAsset === this.assets.quoteAsset) this.feeTotal = this.feeTotal.plus(fee);
    else if (f.commissionAsset === this.assets.baseAsset) this.feeTotal = this.feeTotal.plus(fee.times(X40.parse(f.price)));
    this.held.move(this.symbol, f.side, qty, baseFee, undefined, f.price);
    if (this.lastFill === undefined || f.time >= this.lastFill.time) this.lastFill = { price: f.price, time: f.time };
    this.fillCount++;
  }

  get fills(): number {
    return this.fillCount;
  }

  /** The price and time of the latest fill added; undefined before any. */
  get last(): { price: string; time: number } | undefined {
    return this.lastFill;
  }

  /** Realised PnL of every fill added so far, exact (closed trips and the open trip's sells). */
  checkpoint(): X40 {
    let total = X40.ZERO;
    for (const r of this.book.records) total = total.plus(r.pnl);
    const open = this.book.open;
    return open === undefined ? total : total.plus(open.realized);
  }

  /** The signed base quantity the fills moved. */
  get quantity(): string {
    const base = this.held.baseOf(this.symbol);
    return base === undefined ? text(X40.ZERO) : text(X40.of(base));
  }

  /** Average entry price of the open lots (FIFO cost / quantity); null when flat. */
  get averageEntryPrice(): string | null {
    const open = this.book.open;
    return open === undefined || open.qty.isZero() ? null : text(open.cost.div(open.qty));
  }

  /**
   * Fees of every fill added, in the quote asset (a base fee valued at its fill's price, as the
   * book values it); a fee in a third asset (BNB) is not counted. Already inside realised PnL.
   */
  get fees(): X40 {
    return this.feeTotal;
  }

  /** Open quantity at `mark` minus the open lots' cost; "0" when flat or without a mark. */
  unrealised(mark: string | null): string {
    const open = this.book.open;
    if (open === undefined || mark === null) return '0';
    return text(open.qty.times(X40.parse(mark)).minus(open.cost));
  }

  /** Realised PnL since `from` (a checkpoint taken earlier), printed. */
  realisedSince(from: X40 = X40.ZERO): string {
    return text(this.checkpoint().minus(from));
  }
}

/** Sum of printed decimal strings, printed (strategy totals over symbols). */
export function sumText(values: readonly string[]): string {
  let total = X40.ZERO;
  for (const v of values) total = total.plus(X40.parse(v));
  return text(total);
}
