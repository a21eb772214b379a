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

/** The fill's amount as an exact value; the last few read are remembered (a fill's qty is its cumulative qty, a quote amount repeats). */
class Amounts {
  private readonly keys: string[] = ['', '', '', ''];
  private readonly values: Num[] = [ZERO, ZERO, ZERO, ZERO];
  private next = 0;

  of(t: string): Num {
    if (t === '0') return ZERO;
    const k = this.keys;
    for (let i = 0; i < 4; i++) if (k[i] === t) return this.values[i] as Num;
    const v = X40.parse(t);
    const at = this.next;
    k[at] = t;
    this.values[at] = v;
    this.next = (at + 1) & 3;
    return v;
  }
}

export class RoundTripBook {
  readonly trips: RoundTrip[] = [];
  private readonly lots: Lot[] = [];
  private held = ZERO;
  private trip: OpenTrip | undefined;
  private readonly minQty: Num;
  private readonly amounts = new Amounts();

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
    const a = this.amounts;
    const qty = a.of(f.qty);
    const quote = a.of(f.quoteQty);
    const fee = a.of(f.commission);
    const baseFee = f.commissionAsset === this.baseAsset ? fee : ZERO;
    const quoteFee = f.commissionAsset === this.quoteAsset ? fee : ZERO;
    const trip = (this.trip ??= this.fresh(f.time, bar));
    if (!fee.isZero()) trip.fees = trip.fees.plus(baseFee === ZERO ? quoteFee : baseFee.times(a.of(f.price)));
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
    const entryPrice = t.buyQty.gt(ZERO) ? t.buyNotional.div(t.buyQty) : ZERO;
    this.trips.push({
      symbol: this.symbol,
      direction: 'LONG',
      entryTime: t.entryTime,
      exitTime: time,
      entryPrice: text(entryPrice),
      exitPrice: text(t.sellNotional.div(t.sellQty)),
      qty: text(t.buyQty.gt(ZERO) ? t.buyQty : t.sellQty),
      pnl: text(pnl),
      returnRatio: t.buyNotional.gt(ZERO) ? pnl.div(t.buyNotional).toNumber() : 0,
      fees: text(t.fees),
      barsHeld: bar - t.entryBar,
    });
  }
}
