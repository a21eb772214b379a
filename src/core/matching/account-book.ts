/**
 * One account's state on one symbol: its open orders (an intrusive list in arrival order, so
 * adding and removing cost no hashing) and the counts the MAX_NUM_ORDERS and MAX_NUM_ALGO_ORDERS
 * filters need, the client order id index (spec 4.5: unique among open orders), its closed
 * orders and its trades (spec 2.5), plus cached balance entries so a fill settles without a map
 * lookup. Generated client ids (`auto-<orderId>`) are not indexed: they resolve through the id.
 */
import { formatAmount } from '../portfolio/amount.ts';
import type { BalanceEntry } from '../portfolio/balances.ts';
import type { Order } from './order.ts';
import type { SymbolBook } from './symbol-book.ts';
import type { SymbolSpec } from './symbol-spec.ts';

/** One fill. `buyer` / `seller` is null for the outside side of an external fill. */
export class Trade {
  private quoteStr: string | null = null;

  constructor(
    readonly sb: SymbolBook,
    readonly spec: SymbolSpec,
    readonly id: string,
    readonly price: number,
    readonly qty: number,
    readonly quote: bigint,
    readonly time: number,
    readonly buyer: Order | null,
    readonly seller: Order | null,
    readonly buyerIsMaker: boolean,
    readonly buyerFee: bigint,
    readonly sellerFee: bigint,
  ) {}

  /** Price and quantity as decimal strings (the book's shared cache). */
  get priceText(): string {
    return this.sb.priceTexts.get(this.price);
  }

  get qtyText(): string {
    return this.sb.qtyTexts.get(this.qty);
  }

  /** Quote as a decimal string, made once on first use (the trade and both order updates use it). */
  get quoteText(): string {
    return (this.quoteStr ??= formatAmount(this.quote));
  }
}

export const AUTO_ID_PREFIX = 'auto-';

export class AccountBook {
  private openHead: Order | null = null;
  private openTail: Order | null = null;
  /** Open orders that count for MAX_NUM_ORDERS: working ones (normal, or stops after their trigger). */
  openWorking = 0;
  /** Untriggered stop orders (MAX_NUM_ALGO_ORDERS). */
  openAlgo = 0;
  /** The latest order per explicit client order id; older ones hang off `prevSameClientId`. */
  readonly byClientId = new Map<string, Order>();
  /** Closed orders in the order they closed (pruned by the engine's retention option). */
  readonly closed: Order[] = [];
  readonly trades: Trade[] = [];

  constructor(
    readonly accountId: string,
    readonly sb: SymbolBook,
    readonly base: BalanceEntry,
    readonly quote: BalanceEntry,
  ) {}

  addOpen(o: Order): void {
    o.listed = true;
    o.openPrev = this.openTail;
    if (this.openTail === null) this.openHead = o;
    else this.openTail.openNext = o;
    this.openTail = o;
    if (o.working) this.openWorking++;
    else this.openAlgo++;
  }

  /** Unlist an open order and file it among the closed; false when it was not listed. */
  close(o: Order): boolean {
    if (!o.listed) return false;
    o.listed = false;
    if (o.openPrev === null) this.openHead = o.openNext;
    else o.openPrev.openNext = o.openNext;
    if (o.openNext === null) this.openTail = o.openPrev;
    else o.openNext.openPrev = o.openPrev;
    o.openPrev = o.openNext = null;
    if (o.working) this.openWorking--;
    else this.openAlgo--;
    this.closed.push(o);
    return true;
  }

  /** A listed stop becomes working: it moves from the algo count to the order count. */
  promote(o: Order): void {
    if (!o.listed) return;
    this.openAlgo--;
    this.openWorking++;
  }

  /** Open orders, arrival order (a copy, safe to cancel while iterating). */
  openOrders(): Order[] {
    const out: Order[] = [];
    for (let o = this.openHead; o !== null; o = o.openNext) out.push(o);
    return out;
  }
}
