/**
 * One account's state on one symbol: its open orders (an intrusive list in arrival order, so
 * adding and removing cost no hashing) and the counts the MAX_NUM_ORDERS and MAX_NUM_ALGO_ORDERS
 * filters need, the client order id index (spec 4.5: unique among open orders), its closed
 * orders and its trades (spec 2.5), plus cached balance entries so a fill settles without a map
 * lookup. Generated client ids (`auto-<orderId>`) are not indexed: they resolve through the id.
 */
import { AMOUNT_SCALE, formatAmount } from '../../portfolio/amount.ts';
import type { BalanceEntry } from '../../portfolio/balances.ts';
import { History } from './history.ts';
import type { Order } from '../book/order.ts';
import type { SymbolBook } from '../book/symbol-book.ts';
import { commissionUnits, notionalUnits } from '../numbers/symbol-spec.ts';
import type { SymbolSpec } from '../numbers/symbol-spec.ts';

/**
 * The text of one side's commission on `t` (formatAmount of buyerFee / sellerFee). The fee is
 * floor(amount * n / 10^d) on the 1e-18 grid, `amount` a scaled integer (lots, or price int * lots
 * for the quote): when amount * n is a safe integer and needs no more than 18 decimals nothing was
 * rounded, and formatting that number gives the same text without any bigint (cached: a book
 * repeats the same few commissions).
 */
function feeText(t: Trade, buyerSide: boolean): string {
  const spec = t.spec;
  if ((buyerSide ? t.buyer : t.seller) === null) return '0';
  const rate = buyerSide === t.buyerIsMaker ? spec.maker : spec.taker;
  const n = (buyerSide ? t.qty : t.price * t.qty) * rate.n;
  const d = (buyerSide ? spec.qd : spec.pd + spec.qd) + rate.d;
  return d <= AMOUNT_SCALE && n <= Number.MAX_SAFE_INTEGER ? t.sb.text(n, d) : formatAmount(buyerSide ? t.buyerFee : t.sellerFee);
}

/** One fill. `buyer` / `seller` is null for the outside side of an external fill. */
export class Trade {
  private quoteStr: string | null = null;
  private buyerFeeStr: string | null = null;
  private sellerFeeStr: string | null = null;

  private idStr: string | null = null;

  constructor(
    readonly sb: SymbolBook,
    readonly spec: SymbolSpec,
    /** Position in the engine's trade id sequence (id-sequence.ts). */
    readonly seq: number,
    readonly price: number,
    readonly qty: number,
    readonly time: number,
    readonly buyer: Order | null,
    readonly seller: Order | null,
    readonly buyerIsMaker: boolean,
  ) {}

  /**
   * Quote and commissions in units, derived from price, quantity and the rates in force at the
   * fill (`spec` is the symbol's spec then): the same values the fill settled, with no bigint kept
   * on every retained trade.
   */
  get quote(): bigint {
    return notionalUnits(this.spec, this.price, this.qty);
  }

  get buyerFee(): bigint {
    const spec = this.spec;
    return this.buyer === null ? 0n : commissionUnits(BigInt(this.qty) * spec.baseK, this.buyerIsMaker ? spec.maker : spec.taker);
  }

  get sellerFee(): bigint {
    const spec = this.spec;
    return this.seller === null ? 0n : commissionUnits(this.quote, this.buyerIsMaker ? spec.taker : spec.maker);
  }

  /** The trade id as decimal text, made on first read. */
  get id(): string {
    return (this.idStr ??= this.sb.tradeIds.text(this.seq));
  }

  /** Price and quantity as decimal strings (the book's shared cache). */
  get priceText(): string {
    return this.sb.priceTexts.get(this.price);
  }

  get qtyText(): string {
    return this.sb.qtyTexts.get(this.qty);
  }

  /** Quote as a decimal string, made once on first use (the trade and both order updates use it). */
  get quoteText(): string {
    if (this.quoteStr === null) {
      const n = this.price * this.qty;
      const spec = this.spec;
      this.quoteStr = n <= Number.MAX_SAFE_INTEGER ? this.sb.text(n, spec.pd + spec.qd) : formatAmount(this.quote);
    }
    return this.quoteStr;
  }

  /** Commission texts (buyer: base, seller: quote), made once on first use. */
  get buyerFeeText(): string {
    return (this.buyerFeeStr ??= feeText(this, true));
  }

  get sellerFeeText(): string {
    return (this.sellerFeeStr ??= feeText(this, false));
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
  /** Explicit client ids indexed that look like generated ones (`auto-...`); lets pruning skip most lookups. */
  autoLikeIds = 0;
  /** Closed orders in the order they closed (pruned by the engine's retention option). */
  // Made in the constructor, not by field initialisers: docs/architecture.md, "Objects made once per run".
  readonly closed: History<Order>;
  readonly trades: History<Trade>;

  constructor(
    readonly accountId: string,
    readonly sb: SymbolBook,
    readonly base: BalanceEntry,
    readonly quote: BalanceEntry,
    /**
     * The account's books on every symbol, this one included (one array shared by them, kept by
     * the registry): a client order id is unique among the account's open orders on all symbols.
     */
    readonly siblings: readonly AccountBook[],
  ) {
    this.closed = new History<Order>();
    this.trades = new History<Trade>();
  }

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
