/**
 * A local order book (protocol notes 4, "Local book"): the levels of a REST depth snapshot, then
 * the diff stream's levels applied on top. Pure: no I/O, no clock, no ids checked here (the rules
 * of which diff may be applied live in depth-sync.ts), so a backtest or a test can use it alone.
 *
 * Quantities are absolute; a quantity of 0 removes the level, and a 0 for a level the book does
 * not hold is ignored (it was beyond the snapshot's limit, or already gone). Prices are ordered
 * exactly by their normalised text (price-key.ts), never as floats. Each side is an array kept
 * sorted best first, found by binary search: reading the top N is a slice, the common case.
 */
import { compareKeys, isZeroKey, priceKey } from './price-key.ts';
import type { Level } from './wire-fields.ts';

interface Entry {
  readonly key: string;
  /** [price text as last sent, quantity]: replaced, never changed, so states can share it. */
  level: Level;
}

export class BookSide {
  private readonly entries: Entry[] = [];

  /** `descending`: bids (best = highest first); asks ascend. */
  constructor(private readonly descending: boolean) {}

  get size(): number {
    return this.entries.length;
  }

  /** Sets one level (absolute quantity; 0 removes it). */
  set(price: string, qty: string): void {
    const key = priceKey(price);
    const zero = isZeroKey(priceKey(qty, 'quantity'));
    const at = this.find(key);
    const found = at < this.entries.length && this.entries[at]?.key === key;
    if (zero) {
      if (found) this.entries.splice(at, 1);
      return;
    }
    if (found) (this.entries[at] as Entry).level = [price, qty];
    else this.entries.splice(at, 0, { key, level: [price, qty] });
  }

  best(): Level | undefined {
    return this.entries[0]?.level;
  }

  /** The best `n` levels (all when `n` is omitted). */
  top(n = this.entries.length): Level[] {
    const out: Level[] = [];
    const count = Math.min(n, this.entries.length);
    for (let i = 0; i < count; i++) out.push((this.entries[i] as Entry).level);
    return out;
  }

  /** The index of `key`, or where it would be inserted (binary search on the side's order). */
  private find(key: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys((this.entries[mid] as Entry).key, key);
      if (this.descending ? c > 0 : c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export interface DepthSnapshotLike {
  readonly lastUpdateId: string | number | bigint;
  readonly bids: readonly (readonly [string, string])[];
  readonly asks: readonly (readonly [string, string])[];
}

export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  private last: bigint;

  /** A book holding `snapshot`'s levels (levels of quantity 0 in it are ignored). */
  constructor(snapshot: DepthSnapshotLike) {
    this.last = toUpdateId(snapshot.lastUpdateId);
    this.applyLevels(snapshot.bids, snapshot.asks);
  }

  /** The id of the last change the book holds (the snapshot's, then each applied diff's `u`). */
  get lastUpdateId(): bigint {
    return this.last;
  }

  /** Applies one diff's levels and moves the book to `finalUpdateId`. */
  apply(finalUpdateId: bigint, bids: readonly Level[], asks: readonly Level[]): void {
    this.applyLevels(bids, asks);
    this.last = finalUpdateId;
  }

  bestBid(): Level | undefined {
    return this.bids.best();
  }

  bestAsk(): Level | undefined {
    return this.asks.best();
  }

  private applyLevels(bids: readonly (readonly [string, string])[], asks: readonly (readonly [string, string])[]): void {
    for (const [p, q] of bids) this.bids.set(p, q);
    for (const [p, q] of asks) this.asks.set(p, q);
  }
}

/** An update id as a bigint; a TypeError when it is not an integer. */
export function toUpdateId(v: string | number | bigint): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' ? !Number.isSafeInteger(v) : !/^\d+$/.test(v)) throw new TypeError(`lastUpdateId: expected an integer, got ${String(v)}`);
  return BigInt(v);
}
