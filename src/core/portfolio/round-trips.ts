/**
 * Round trips from fills, FIFO: the one count of trades the backtest reports (`run.trades`,
 * backtest/record/run-trades.ts) and a strategy's protections() judge (strategy/exits/protections.ts). Spot is
 * long only: a trip opens when the position goes from flat to holding and closes when it is flat
 * again, "flat" meaning less than the symbol's minimum quantity (the dust a base commission leaves
 * cannot be sold). Costs are matched first in, first out: each BUY fill is a lot (the base
 * received, net of a base commission, at its quote cost plus any quote commission); a SELL
 * consumes the oldest lots, and its proceeds are net of its commission. pnl = proceeds - matched
 * cost, so every fee is in it; `fees` values base commissions at the fill price. Dust lots left at
 * a close stay in the queue and are matched by the next trip's first sells (what is sold is
 * charged what it cost, whichever trip bought it). Base held at the start is a lot bought at the
 * first bar's open without fees.
 *
 * A trip that sells part of what it holds and stays open (a grid trading around base it started
 * with, a strategy scaling out) has realized profit before it closes: the open trip's
 * `realized`, so the trades, the open trip's realized and its unrealized PnL add up to net PnL.
 *
 * A closed trip is kept as a record of its exact amounts (`records`); printing them (texts,
 * roundings) is the reader's business (backtest/record/run-trades.ts), so a run that is only ranked (a
 * sweep, the benchmark) never prints them. Pure: exact40.ts arithmetic, no clock, no I/O.
 *
 * The book is worked out when it is read, not as the fills come: `onFill` only queues the fill
 * (and its bar), and `records` (or `open`, `takeClosed`) applies the queue, in order, first.
 * Nothing during a backtest reads the book, and in a fresh process the same arithmetic costs
 * several times as much while it runs interleaved with the rest of the order path (unoptimised,
 * each piece waiting for the compiler) as it does in one loop afterwards: about a tenth of a
 * year's backtest. A reader that follows the fills one by one (protections) reads after each.
 */
import type { Dec } from '../money/decimal.ts';
import { X40 } from '../money/exact40.ts';
import type { FillOut } from '../orders/types.ts';

// The arithmetic is Decimal's (precision 40, ROUND_HALF_UP), done on BigInts (exact40.ts): the
// same digits, a fraction of the cost per fill.
type Num = X40;

interface Lot {
  qty: Num;
  cost: Num;
}

interface OpenTrip {
  entryTime: number;
  entryBar: number;
  /** The tag of the order whose fill opened it. */
  entryTag: string | undefined;
  buyQty: Num;
  buyNotional: Num;
  sellQty: Num;
  sellNotional: Num;
  fees: Num;
  cost: Num;
  proceeds: Num;
}

const ZERO = X40.ZERO;

/** What the book reads of a fill: the order manager's FillOut, or a strategy's fill as text. */
export type BookFill = Pick<FillOut, 'side' | 'price' | 'qty' | 'quoteQty' | 'commission' | 'commissionAsset' | 'time' | 'tag'>;

/**
 * A fill's amount as an exact value. parseOnce, not parse: the book is worked out long after the
 * account read the same texts, so exact40's memo of the last few texts would only miss.
 */
const amount = (t: string): Num => (t === '0' ? ZERO : X40.parseOnce(t));

/** The open trip's exact amounts at the end of the fills (`RoundTripBook.open`). */
export interface OpenTripRecord {
  readonly entryTime: number;
  readonly entryBar: number;
  readonly entryTag: string | undefined;
  readonly qty: Num;
  readonly cost: Num;
  readonly fees: Num;
  /** What the trip's sells so far took: their proceeds net of fees - the FIFO cost of what they sold. */
  readonly realized: Num;
}

/** A closed trip's exact amounts (what its RoundTrip is printed from). */
export interface TripRecord {
  readonly entryTime: number;
  readonly exitTime: number;
  /** The tags of the orders whose fills opened and closed the trip. */
  readonly entryTag: string | undefined;
  readonly exitTag: string | undefined;
  readonly barsHeld: number;
  readonly buyQty: Num;
  readonly buyNotional: Num;
  readonly sellQty: Num;
  readonly sellNotional: Num;
  readonly fees: Num;
  /** proceeds - matched cost, exact. */
  readonly pnl: Num;
}

export class RoundTripBook {
  private readonly closed: TripRecord[] = [];
  /** Fills not applied yet, and the bar of each (`onFill`). */
  private readonly queued: BookFill[] = [];
  private readonly queuedBars: number[] = [];
  private readonly lots: Lot[] = [];
  private held = ZERO;
  private trip: OpenTrip | undefined;
  private readonly minQty: Num;

  constructor(
    /** The symbol booked (a label for the reader: the trips it prints name it). */
    readonly symbol: string,
    private readonly baseAsset: string,
    private readonly quoteAsset: string,
    minQty: Dec,
  ) {
    this.minQty = X40.of(minQty);
  }

  /** Closed trips, in closing order (the queued fills applied first). */
  get records(): readonly TripRecord[] {
    if (this.queued.length !== 0) this.applyQueued();
    return this.closed;
  }

  /**
   * The trips closed since the last call (the queued fills applied first), oldest first, and then
   * forgotten: for a reader that follows the fills one by one and keeps what it needs itself
   * (protections.ts), so a long live run does not keep every trip. `records` then holds only what
   * was not taken: a reader uses one or the other.
   */
  takeClosed(): TripRecord[] {
    if (this.queued.length !== 0) this.applyQueued();
    return this.closed.splice(0);
  }

  /**
   * The trip still open once every fill is applied (the position is at least the minimum
   * quantity): when it started, what is held and what those lots cost, the fees it paid. Undefined
   * when flat.
   */
  get open(): OpenTripRecord | undefined {
    if (this.queued.length !== 0) this.applyQueued();
    const t = this.trip;
    if (t === undefined || this.flat()) return undefined;
    let cost = ZERO;
    for (const lot of this.lots) cost = cost.plus(lot.cost);
    return { entryTime: t.entryTime, entryBar: t.entryBar, entryTag: t.entryTag, qty: this.held, cost, fees: t.fees, realized: t.proceeds.minus(t.cost) };
  }

  /** Base held before the first bar, valued at `price` (the first open). */
  seed(qtyDec: Dec, priceDec: Dec, time: number): void {
    if (this.queued.length !== 0) this.applyQueued();
    const qty = X40.of(qtyDec);
    if (!qty.gt(ZERO)) return;
    const price = X40.of(priceDec);
    this.lots.push({ qty, cost: qty.times(price) });
    this.held = this.held.plus(qty);
    if (!this.flat()) this.trip = { ...this.fresh(time, 0, undefined), buyQty: qty, buyNotional: qty.times(price) };
  }

  /** A fill of the symbol during bar number `bar` (applied when the book is next read). */
  onFill(f: BookFill, bar: number): void {
    this.queued.push(f);
    this.queuedBars.push(bar);
  }

  private applyQueued(): void {
    const fills = this.queued;
    const bars = this.queuedBars;
    for (let i = 0; i < fills.length; i++) this.apply(fills[i] as BookFill, bars[i] as number);
    fills.length = 0;
    bars.length = 0;
  }

  private apply(f: BookFill, bar: number): void {
    const qty = amount(f.qty);
    const quote = amount(f.quoteQty);
    const fee = amount(f.commission);
    const baseFee = f.commissionAsset === this.baseAsset ? fee : ZERO;
    const quoteFee = f.commissionAsset === this.quoteAsset ? fee : ZERO;
    const trip = (this.trip ??= this.fresh(f.time, bar, f.tag));
    if (!fee.isZero()) trip.fees = trip.fees.plus(baseFee === ZERO ? quoteFee : baseFee.times(amount(f.price)));
    if (f.side === 'BUY') {
      const got = baseFee === ZERO ? qty : qty.minus(baseFee);
      this.lots.push({ qty: got, cost: quoteFee === ZERO ? quote : quote.plus(quoteFee) });
      this.held = this.held.plus(got);
      trip.buyQty = trip.buyQty.plus(qty);
      trip.buyNotional = trip.buyNotional.plus(quote);
      return;
    }
    const sold = baseFee === ZERO ? qty : qty.plus(baseFee);
    trip.cost = trip.cost.plus(this.consume(sold));
    this.held = this.held.minus(sold);
    trip.proceeds = trip.proceeds.plus(quoteFee === ZERO ? quote : quote.minus(quoteFee));
    trip.sellQty = trip.sellQty.plus(qty);
    trip.sellNotional = trip.sellNotional.plus(quote);
    if (this.flat()) this.close(trip, f.time, bar, f.tag);
  }

  private fresh(time: number, bar: number, tag: string | undefined): OpenTrip {
    return { entryTime: time, entryBar: bar, entryTag: tag, buyQty: ZERO, buyNotional: ZERO, sellQty: ZERO, sellNotional: ZERO, fees: ZERO, cost: ZERO, proceeds: ZERO };
  }

  private flat(): boolean {
    return !this.held.gt(ZERO) || this.held.lt(this.minQty);
  }

  /** Cost of `qty` taken from the oldest lots (what has no lot costs nothing). */
  private consume(qty: Num): Num {
    let left = qty;
    let cost = ZERO;
    while (left.gt(ZERO) && this.lots.length > 0) {
      const lot = this.lots[0] as Lot;
      if (lot.qty.lte(left)) {
        cost = cost.plus(lot.cost);
        left = left.minus(lot.qty);
        this.lots.shift();
      } else {
        const part = lot.cost.times(left).div(lot.qty);
        cost = cost.plus(part);
        lot.cost = lot.cost.minus(part);
        lot.qty = lot.qty.minus(left);
        left = ZERO;
      }
    }
    return cost;
  }

  private close(t: OpenTrip, time: number, bar: number, exitTag: string | undefined): void {
    this.trip = undefined;
    if (!t.sellQty.gt(ZERO)) return;
    this.closed.push({
      entryTime: t.entryTime,
      exitTime: time,
      entryTag: t.entryTag,
      exitTag,
      barsHeld: bar - t.entryBar,
      buyQty: t.buyQty,
      buyNotional: t.buyNotional,
      sellQty: t.sellQty,
      sellNotional: t.sellNotional,
      fees: t.fees,
      pnl: t.proceeds.minus(t.cost),
    });
  }
}
