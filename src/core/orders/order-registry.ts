/**
 * The order manager's orders: open ones by client order id, closed ones kept for a while (late
 * or repeated venue events still find them), lookups by tag, the counts the MAX_NUM_ORDERS /
 * MAX_NUM_ALGO_ORDERS filters need, the funds pending orders claim, and a cached open-orders
 * view per strategy.
 *
 * Only orders that reached the venue are kept once closed: a DENIED order was never sent, so no
 * venue event can concern it, and keeping it would push out of the closed set the orders whose
 * late fills (a stream resent, or fills reconciled over REST after a reconnect) must still find
 * them: a strategy denied on every book update would otherwise lose those fills within minutes.
 */
import type { Dec } from '../money/decimal.ts';
import { D } from '../money/decimal.ts';
import type { ManagedOrder } from './managed-order.ts';
import type { OpenOrderOut } from './types.ts';

const ZERO = new D(0);

export class OrderRegistry {
  private readonly open = new Map<string, ManagedOrder>();
  private readonly closed = new Map<string, ManagedOrder>();
  private readonly views = new Map<string, readonly OpenOrderOut[]>();
  /** Orders that reached the venue and ended, by the status they ended with (counted as they close: the closed set forgets). */
  private readonly endedBy = new Map<string, number>();
  private seq = 0;

  constructor(private readonly retainClosed = 1000) {}

  nextSeq(): number {
    return ++this.seq;
  }

  add(o: ManagedOrder): void {
    if (o.isOpen) this.open.set(o.clientOrderId, o);
    else if (o.status !== 'DENIED') this.retire(o);
    this.changed(o);
  }

  get(clientOrderId: string): ManagedOrder | undefined {
    return this.open.get(clientOrderId) ?? this.closed.get(clientOrderId);
  }

  /** Call after an order changed: moves a finished order to the closed set, drops cached views. */
  changed(o: ManagedOrder): void {
    if (!o.isOpen && this.open.delete(o.clientOrderId)) this.retire(o);
    if (this.views.size !== 0) this.views.delete(o.strategy);
  }

  /** The strategy's latest open order with this tag on the symbol. */
  byTag(strategy: string, symbol: string, tag: string): ManagedOrder | undefined {
    let best: ManagedOrder | undefined;
    for (const o of this.open.values()) {
      if (o.strategy === strategy && o.symbol === symbol && o.tag === tag && (!best || o.seq > best.seq)) best = o;
    }
    return best;
  }

  /** Open orders, optionally of one strategy and symbol, oldest first. */
  *openOrders(strategy?: string, symbol?: string): Generator<ManagedOrder> {
    for (const o of this.open.values()) if ((strategy === undefined || o.strategy === strategy) && (symbol === undefined || o.symbol === symbol)) yield o;
  }

  /** Open orders on the symbol (every strategy: the venue counts per account) and untriggered stops. */
  counts(symbol: string): { orders: number; algoOrders: number } {
    let orders = 0;
    let algoOrders = 0;
    for (const o of this.open.values()) {
      if (o.symbol !== symbol) continue;
      orders++;
      if (o.isAlgoWaiting) algoOrders++;
    }
    return { orders, algoOrders };
  }

  /** Open orders on the symbol (`counts(symbol).orders` without the object). */
  openOn(symbol: string): number {
    let n = 0;
    for (const o of this.open.values()) if (o.symbol === symbol) n++;
    return n;
  }

  /** Whether any order the venue has not acknowledged yet claims funds of `asset` (`reserved` may still be zero). */
  reserving(asset: string): boolean {
    for (const o of this.open.values()) if (o.isPending && o.reserve?.asset === asset) return true;
    return false;
  }

  /** Funds of `asset` claimed by orders the venue has not acknowledged yet. */
  reserved(asset: string): Dec {
    let sum = ZERO;
    for (const o of this.open.values()) if (o.isPending && o.reserve?.asset === asset) sum = sum.plus(o.reserve.amount);
    return sum;
  }

  view(strategy: string, symbol?: string): readonly OpenOrderOut[] {
    let all = this.views.get(strategy);
    if (!all) {
      all = Object.freeze([...this.openOrders(strategy)].map((o) => o.openView()));
      this.views.set(strategy, all);
    }
    return symbol === undefined ? all : all.filter((o) => o.symbol === symbol);
  }

  get openCount(): number {
    return this.open.size;
  }

  /**
   * The orders that reached the venue, by status: those that ended by the status they ended with
   * (FILLED, CANCELED, EXPIRED, REJECTED...), the open ones by their status now (NEW,
   * PARTIALLY_FILLED, a pending one's PENDING_NEW). Denied orders never reached it and are not
   * counted. Keys in the order first counted.
   */
  statusCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [status, n] of this.endedBy) out[status] = n;
    for (const o of this.open.values()) out[o.status] = (out[o.status] ?? 0) + 1;
    return out;
  }

  /** Keep at least `retainClosed` closed orders; past twice that, drop the oldest down to it (amortised O(1)). */
  private retire(o: ManagedOrder): void {
    this.endedBy.set(o.status, (this.endedBy.get(o.status) ?? 0) + 1);
    this.closed.set(o.clientOrderId, o);
    if (this.closed.size <= 2 * this.retainClosed) return;
    let drop = this.closed.size - this.retainClosed;
    for (const id of this.closed.keys()) {
      if (drop-- <= 0) break;
      this.closed.delete(id);
    }
  }
}
