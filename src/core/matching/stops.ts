/**
 * Stop orders waiting for their trigger (spec 4.5 trigger rules). STOP_LOSS* BUY and
 * TAKE_PROFIT* SELL trigger when lastPrice >= stopPrice ("rising"); STOP_LOSS* SELL and
 * TAKE_PROFIT* BUY when lastPrice <= stopPrice ("falling"). Each list is sorted so the next
 * order to trigger is last: checking after a trade costs one comparison when nothing fires.
 * Among equal stop prices the earlier order triggers first.
 */
import type { OrderType } from '../market/index.ts';
import type { Order } from './book/order.ts';
import type { OrderSide } from './types.ts';

/** True for the types and sides that trigger on a rising price. */
export function triggersRising(type: OrderType, side: OrderSide): boolean {
  const stopLoss = type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT';
  return stopLoss === (side === 'BUY');
}

/** Whether the trigger condition already holds at `lastPrice` (placement: "Order would trigger immediately."). */
export function wouldTrigger(type: OrderType, side: OrderSide, stopPrice: number, lastPrice: number): boolean {
  return triggersRising(type, side) ? lastPrice >= stopPrice : lastPrice <= stopPrice;
}

export class StopBook {
  /** Sorted by stopPrice descending (newest first among equals): the lowest, earliest is last. */
  private readonly rising: Order[] = [];
  /** Sorted by stopPrice ascending (newest first among equals): the highest, earliest is last. */
  private readonly falling: Order[] = [];

  get size(): number {
    return this.rising.length + this.falling.length;
  }

  add(o: Order): void {
    const up = triggersRising(o.type, o.side);
    const list = up ? this.rising : this.falling;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = (list[mid] as Order).stopPrice;
      if (up ? s > o.stopPrice : s < o.stopPrice) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, o);
  }

  remove(o: Order): boolean {
    const list = triggersRising(o.type, o.side) ? this.rising : this.falling;
    const i = list.lastIndexOf(o);
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  }

  /**
   * The stop price of the first stop a price moving up (`rising`) or down from `price` would
   * trigger strictly beyond `price`; -1 when none. Stops whose trigger already holds at `price`
   * (placed since it was last seen) are passed over: the next trade triggers them anyway.
   */
  nextBeyond(rising: boolean, price: number): number {
    const list = rising ? this.rising : this.falling;
    for (let i = list.length - 1; i >= 0; i--) {
      const s = (list[i] as Order).stopPrice;
      if (rising ? s > price : s < price) return s;
    }
    return -1;
  }

  /** Move every order whose trigger holds at `lastPrice` to `out`, in trigger order. */
  collect(lastPrice: number, out: Order[]): void {
    const up = this.rising;
    for (let o = up[up.length - 1]; o !== undefined && o.stopPrice <= lastPrice; o = up[up.length - 1]) out.push(up.pop() as Order);
    const down = this.falling;
    for (let o = down[down.length - 1]; o !== undefined && o.stopPrice >= lastPrice; o = down[down.length - 1]) out.push(down.pop() as Order);
  }
}
