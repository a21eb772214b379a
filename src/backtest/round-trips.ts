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
 */
import type { FillOut } from '../core/orders/types.ts';
import type { Dec } from '../core/money/decimal.ts';
import { X40 } from '../core/money/exact40.ts';
import type { RoundTrip } from './types.ts';

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

/** A fill's amount as an exact value (exact40's own memo remembers the last few texts: the account read the same fill just before). */
const amount = (t: string): Num => (t === '0' ? ZERO : X40.parse(t));

export class RoundTripBook {
  readonly trips: RoundTrip[] = [];
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

  /** Base held before the first bar, valued at `price` (the first open). */
  seed(qtyDec: Dec, priceDec: Dec, time: number): void {
    const qty = X40.of(qtyDec);
    if (!qty.gt(ZERO)) return;
    const price = X40.of(priceDec);
    this.lots.push({ qty, cost: qty.times(price) });
    this.held = this.held.plus(qty);
    if (!this.flat()) this.trip = { ...this.fresh(time, 0), buyQty: qty, buyNotional: qty.times(price) };
  }

  onFill(f: FillOut, bar: number): void {
    const qty = amount(f.qty);
    const quote = amount(f.quoteQty);
    const fee = amount(f.commission);
    const baseFee = f.commissionAsset === this.baseAsset ? fee : ZERO;
    const quoteFee = f.commissionAsset === this.quoteAsset ? fee : ZERO;
    const trip = (this.trip ??= this.fresh(f.time, bar));
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
    if (this.flat()) this.close(trip, f.time, bar);
  }

  private fresh(time: number, bar: number): OpenTrip {
    return { entryTime: time, entryBar: bar, buyQty: ZERO, buyNotional: ZERO, sellQty: ZERO, sellNotional: ZERO, fees: ZERO, cost: ZERO, proceeds: ZERO };
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

  private close(t: OpenTrip, time: number, bar: number): void {
    this.trip = undefined;
    if (!t.sellQty.gt(ZERO)) return;
    const pnl = t.proceeds.minus(t.cost);
    const returnRatio = t.buyNotional.gt(ZERO) ? pnl.div(t.buyNotional).toNumber() : 0;
    this.trips.push(new ClosedTrip(this.symbol, t, time, text(pnl), returnRatio, bar - t.entryBar));
  }
}

/**
 * A RoundTrip (types.ts) as the book closes it. pnl and returnRatio (what the metrics read) are
 * computed at once; the price, quantity and fee texts (two divisions and four roundings, read by
 * reports only) on first read, from the trip's exact amounts, then kept. To a reader it is the
 * plain object it stands for: the same own enumerable keys in the same order (JSON, spreads and
 * structured clones see the values), each assignable. The accessors are shared by every trip
 * (one fast shape for all of them).
 */
class ClosedTrip implements RoundTrip {
  declare symbol: string;
  declare direction: 'LONG' | 'SHORT';
  declare entryTime: number;
  declare exitTime: number;
  declare entryPrice: string;
  declare exitPrice: string;
  declare qty: string;
  declare pnl: string;
  declare returnRatio: number;
  declare fees: string;
  declare barsHeld: number;
  readonly #buyQty: Num;
  readonly #buyNotional: Num;
  readonly #sellQty: Num;
  readonly #sellNotional: Num;
  readonly #fees: Num;
  #entryPrice: string | undefined;
  #exitPrice: string | undefined;
  #qty: string | undefined;
  #feesText: string | undefined;

  static readonly #ENTRY: PropertyDescriptor = {
    get(this: ClosedTrip) {
      return (this.#entryPrice ??= text(this.#buyQty.gt(ZERO) ? this.#buyNotional.div(this.#buyQty) : ZERO));
    },
    set(this: ClosedTrip, v: string) {
      this.#entryPrice = v;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #EXIT: PropertyDescriptor = {
    get(this: ClosedTrip) {
      return (this.#exitPrice ??= text(this.#sellNotional.div(this.#sellQty)));
    },
    set(this: ClosedTrip, v: string) {
      this.#exitPrice = v;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #QTY: PropertyDescriptor = {
    get(this: ClosedTrip) {
      return (this.#qty ??= text(this.#buyQty.gt(ZERO) ? this.#buyQty : this.#sellQty));
    },
    set(this: ClosedTrip, v: string) {
      this.#qty = v;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #FEES: PropertyDescriptor = {
    get(this: ClosedTrip) {
      return (this.#feesText ??= text(this.#fees));
    },
    set(this: ClosedTrip, v: string) {
      this.#feesText = v;
    },
    enumerable: true,
    configurable: true,
  };

  constructor(symbol: string, t: OpenTrip, exitTime: number, pnl: string, returnRatio: number, barsHeld: number) {
    this.#buyQty = t.buyQty;
    this.#buyNotional = t.buyNotional;
    this.#sellQty = t.sellQty;
    this.#sellNotional = t.sellNotional;
    this.#fees = t.fees;
    // RoundTrip's key order.
    this.symbol = symbol;
    this.direction = 'LONG';
    this.entryTime = t.entryTime;
    this.exitTime = exitTime;
    Object.defineProperty(this, 'entryPrice', ClosedTrip.#ENTRY);
    Object.defineProperty(this, 'exitPrice', ClosedTrip.#EXIT);
    Object.defineProperty(this, 'qty', ClosedTrip.#QTY);
    this.pnl = pnl;
    this.returnRatio = returnRatio;
    Object.defineProperty(this, 'fees', ClosedTrip.#FEES);
    this.barsHeld = barsHeld;
  }
}
