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
import { D } from '../core/money/decimal.ts';
import { parsedDecimal } from '../core/orders/decimal-cache.ts';
import type { RoundTrip } from './types.ts';

interface Lot {
  qty: Dec;
  cost: Dec;
}

interface OpenTrip {
  entryTime: number;
  entryBar: number;
  buyQty: Dec;
  buyNotional: Dec;
  sellQty: Dec;
  sellNotional: Dec;
  fees: Dec;
  cost: Dec;
  proceeds: Dec;
}

const ZERO = new D(0);
const DP = 12;
const text = (d: Dec) => d.toDecimalPlaces(DP).toFixed();

export class RoundTripBook {
  readonly trips: RoundTrip[] = [];
  private readonly lots: Lot[] = [];
  private held = ZERO;
  private trip: OpenTrip | undefined;

  constructor(
    private readonly symbol: string,
    private readonly baseAsset: string,
    private readonly quoteAsset: string,
    private readonly minQty: Dec,
  ) {}

  /** Base held before the first bar, valued at `price` (the first open). */
  seed(qty: Dec, price: Dec, time: number): void {
    if (!qty.gt(0)) return;
    this.lots.push({ qty, cost: qty.times(price) });
    this.held = this.held.plus(qty);
    if (!this.flat()) this.trip = { ...this.fresh(time, 0), buyQty: qty, buyNotional: qty.times(price) };
  }

  onFill(f: FillOut, bar: number): void {
    // The fill's strings were parsed already by the order manager: parsedDecimal hands back those values.
    const qty = parsedDecimal(f.qty);
    const quote = parsedDecimal(f.quoteQty);
    const fee = f.commission === '0' ? ZERO : parsedDecimal(f.commission);
    const baseFee = f.commissionAsset === this.baseAsset ? fee : ZERO;
    const quoteFee = f.commissionAsset === this.quoteAsset ? fee : ZERO;
    const trip = (this.trip ??= this.fresh(f.time, bar));
    if (!fee.isZero()) trip.fees = trip.fees.plus(baseFee === ZERO ? quoteFee : baseFee.times(parsedDecimal(f.price)));
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
    return !this.held.gt(0) || this.held.lt(this.minQty);
  }

  /** Cost of `qty` taken from the oldest lots (what has no lot costs nothing). */
  private consume(qty: Dec): Dec {
    let left = qty;
    let cost = ZERO;
    while (left.gt(0) && this.lots.length > 0) {
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
    if (!t.sellQty.gt(0)) return;
    const pnl = t.proceeds.minus(t.cost);
    const entryPrice = t.buyQty.gt(0) ? t.buyNotional.div(t.buyQty) : ZERO;
    this.trips.push({
      symbol: this.symbol,
      direction: 'LONG',
      entryTime: t.entryTime,
      exitTime: time,
      entryPrice: text(entryPrice),
      exitPrice: text(t.sellNotional.div(t.sellQty)),
      qty: text(t.buyQty.gt(0) ? t.buyQty : t.sellQty),
      pnl: text(pnl),
      returnPct: t.buyNotional.gt(0) ? pnl.div(t.buyNotional).toNumber() : 0,
      fees: text(t.fees),
      barsHeld: bar - t.entryBar,
    });
  }
}
