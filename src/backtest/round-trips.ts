/**
 * Round trips from fills, FIFO (the RoundTrip of types.ts). Spot is long only: a trip opens when
 * the position goes from flat to holding and closes when it is flat again, "flat" meaning less
 * than the symbol's minimum quantity (the dust a base commission leaves cannot be sold). Costs
 * are matched first in, first out: each BUY fill is a lot (the base received, net of a base
 * commission, at its quote cost plus any quote commission); a SELL consumes the oldest lots, and
 * its proceeds are net of its commission. pnl = proceeds - matched cost, so every fee is in it;
 * `fees` values base commissions at the fill price. Dust lots left at a close stay in the queue
 * and are matched by the next trip's first sells. Base held at the start is a lot bought at the
 * first bar's open without fees. Amounts are rounded to 12 decimals for reporting only.
 *
 * A trip that sells part of what it holds and stays open (a grid trading around base it started
 * with, a strategy scaling out) has realized profit before it closes: the open trip's
 * `realizedPnl`, so the trades, the open trip's realized and its unrealized PnL add up to net PnL.
 *
 * A closed trip is kept as a record of its exact amounts (`records`); the RoundTrip objects with
 * their texts (two divisions and six roundings a trip) are made the first time `trips` is read.
 * Metrics read the records (`tripPnls`), so a run that is only ranked (a sweep, the benchmark)
 * never makes them.
 *
 * The book is worked out when it is read, not as the fills come: `onFill` only queues the fill
 * (and its bar), and `records` (or `trips`) applies the queue, in order, first. Nothing during a
 * run reads the book, and in a fresh process the same arithmetic costs several times as much
 * while it runs interleaved with the rest of the order path (unoptimised, each piece waiting
 * for the compiler) as it does in one loop afterwards: about a tenth of a year's backtest.
 */
import type { FillOut } from '../core/orders/types.ts';
import type { Dec } from '../core/money/decimal.ts';
import { X40 } from '../core/money/exact40.ts';
import { defineLazyField, lazySource } from './lazy-field.ts';
import type { OpenTrade, RoundTrip } from './types.ts';

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
const DP = 12;
const text = (d: Num) => d.toFixedDp(DP);

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
  private readonly queued: FillOut[] = [];
  private readonly queuedBars: number[] = [];
  private made: RoundTrip[] | undefined;
  private readonly lots: Lot[] = [];
  private held = ZERO;
  private trip: OpenTrip | undefined;
  private readonly minQty: Num;

  constructor(
    private readonly symbol: string,
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

  /** The closed trips as RoundTrips (made on first read, then kept; trips closed later are added). */
  get trips(): RoundTrip[] {
    const records = this.records;
    const made = (this.made ??= []);
    for (let i = made.length; i < records.length; i++) made.push(roundTripOf(this.symbol, records[i] as TripRecord));
    return made;
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
  onFill(f: FillOut, bar: number): void {
    this.queued.push(f);
    this.queuedBars.push(bar);
  }

  private applyQueued(): void {
    const fills = this.queued;
    const bars = this.queuedBars;
    for (let i = 0; i < fills.length; i++) this.apply(fills[i] as FillOut, bars[i] as number);
    fills.length = 0;
    bars.length = 0;
  }

  private apply(f: FillOut, bar: number): void {
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

/** A record's PnL as reported (rounded to the 12 places its text shows): what the trade metrics count and sum. */
export const reportedPnl = (r: TripRecord): Num => r.pnl.roundDp(DP);

/** The RoundTrip of a record: the types.ts object, its keys in that order, its amounts printed. */
function roundTripOf(symbol: string, r: TripRecord): RoundTrip {
  return {
    symbol,
    direction: 'LONG',
    entryTime: r.entryTime,
    exitTime: r.exitTime,
    entryPrice: text(r.buyQty.gt(ZERO) ? r.buyNotional.div(r.buyQty) : ZERO),
    exitPrice: text(r.sellNotional.div(r.sellQty)),
    qty: text(r.buyQty.gt(ZERO) ? r.buyQty : r.sellQty),
    pnl: text(r.pnl),
    returnRatio: r.buyNotional.gt(ZERO) ? r.pnl.div(r.buyNotional).toNumber() : 0,
    fees: text(r.fees),
    barsHeld: r.barsHeld,
    ...(r.entryTag === undefined ? {} : { entryTag: r.entryTag }),
    ...(r.exitTag === undefined ? {} : { exitTag: r.exitTag }),
  };
}

/**
 * Define `run.trades` as the book's trips, made on first read (lazy-field.ts). Call it where
 * `trades` belongs in the object's key order.
 */
export function attachTrades<T extends object>(run: T, book: RoundTripBook): T & { trades: RoundTrip[] } {
  defineLazyField(run, 'trades', book, (b) => b.trips);
  return run as T & { trades: RoundTrip[] };
}

/**
 * The OpenTrade of the book's open trip, valued at `markText` (the last close); undefined when flat.
 * `endBar` is the run's bar count, the number of the bar after the last: a closed trip counts its
 * bars to its exit's bar (the bar closes it was held at), and a position valued at the last close
 * was held at that close too.
 */
export function openTradeOf(book: RoundTripBook, symbol: string, markText: string, endBar: number): OpenTrade | undefined {
  const r = book.open;
  if (r === undefined) return undefined;
  const mark = X40.parse(markText);
  const value = r.qty.times(mark);
  return {
    symbol,
    direction: 'LONG',
    entryTime: r.entryTime,
    qty: text(r.qty),
    cost: text(r.cost),
    entryPrice: text(r.cost.div(r.qty)),
    markPrice: text(mark),
    value: text(value),
    unrealizedPnl: text(value.minus(r.cost)),
    realizedPnl: text(r.realized),
    fees: text(r.fees),
    barsHeld: endBar - r.entryBar,
    ...(r.entryTag === undefined ? {} : { entryTag: r.entryTag }),
  };
}

/**
 * Define `run.openTrade` as the book's open trip at the end (openTradeOf, `endBar` the run's bar
 * count), made on first read like `trades` (the book's fills are applied then). Call it where
 * `openTrade` belongs in the key order; a run that ended flat reads undefined (JSON leaves the key out).
 */
export function attachOpenTrade<T extends object>(run: T, book: RoundTripBook, symbol: string, markText: string, endBar: number): T & { openTrade?: OpenTrade | undefined } {
  defineLazyField(run, 'openTrade', book, (b) => openTradeOf(b, symbol, markText, endBar));
  return run as T & { openTrade?: OpenTrade | undefined };
}

/** The trip records a run's trades come from, while they are not made yet (and not replaced). */
export function tripRecordsOf(run: object): readonly TripRecord[] | undefined {
  return lazySource<RoundTripBook>(run, 'trades')?.records;
}

