/**
 * The engine's order record (one object per order, fields fixed at construction so V8 keeps one
 * shape) and its spec 2.4 snapshot. Prices and quantities are scaled integers (scaled.ts), quote
 * amounts and locks bigint units (core/portfolio/amount.ts).
 */
import type { OrderType } from '../market/index.ts';
import { formatAmount } from '../portfolio/amount.ts';
import { AUTO_ID_PREFIX } from './account-book.ts';
import { quoteHeld } from './amounts.ts';
import type { Held } from './amounts.ts';
import type { AccountBook } from './account-book.ts';
import type { Level } from './book-side.ts';
import type { SymbolBook } from './symbol-book.ts';
import type { ParsedOrder } from './validate.ts';
import type { OrderSide, OrderSnapshot, OrderStatus, StpFlag, TimeInForce } from './types.ts';

export class Order {
  readonly acct: AccountBook;
  readonly sb: SymbolBook;
  readonly id: string;
  readonly seq: number;
  readonly side: OrderSide;
  readonly isBuy: boolean;
  readonly type: OrderType;
  readonly tif: TimeInForce;
  readonly stp: StpFlag;
  /** The client's own id; null for a generated one (`auto-<id>`, built when read: most are never read). */
  readonly explicitCid: string | null;
  readonly price: number;
  readonly stopPrice: number;
  /** For quote-sized orders this follows executedQty (the venue reports the quantity it bought). */
  origQty: number;
  readonly quoteQty: bigint;
  readonly byQuote: boolean;
  readonly isAlgo: boolean;
  readonly time: number;
  updateTime: number;
  executed = 0;
  /**
   * Cumulative quote as price int * lots (the symbol's pd + qd decimals): a plain number while it
   * stays a safe integer (no bigint per fill, no bigint kept per resting order), else `cumBig`.
   */
  cumN = 0;
  /** The same once it outgrew 2^53 (null before). */
  cumBig: bigint | null = null;
  status: OrderStatus = 'NEW';
  /** Not a stop waiting for its trigger. */
  working: boolean;
  /**
   * Whether the order holds funds in `locked` (quote for a BUY, base for a SELL) and its fills
   * draw on them; false for funds-limited market orders. What it holds is derived, see `held`.
   */
  locks = false;
  level: Level | null = null;
  prev: Order | null = null;
  next: Order | null = null;
  /** The previous order of this account and symbol that used the same client order id. */
  prevSameClientId: Order | null = null;
  /** In its account's open list (account-book.ts). */
  listed = false;
  openPrev: Order | null = null;
  openNext: Order | null = null;
  /** Position in the id index's array (order-index.ts), -1 when not there. */
  slot = -1;

  /** `p` is the parsed request (prices and quantities already on the symbol's integer scale). */
  constructor(acct: AccountBook, sb: SymbolBook, id: string, seq: number, explicitCid: string | null, p: ParsedOrder, time: number) {
    this.acct = acct;
    this.sb = sb;
    this.id = id;
    this.seq = seq;
    this.side = p.side;
    this.isBuy = p.side === 'BUY';
    this.type = p.type;
    this.tif = p.tif;
    this.stp = p.stp;
    this.explicitCid = explicitCid;
    this.price = p.price;
    this.stopPrice = p.stopPrice;
    this.quoteQty = p.quoteQty;
    this.byQuote = p.quoteQty > 0n;
    this.origQty = this.byQuote ? 0 : p.qty;
    this.isAlgo = p.isAlgo;
    this.time = time;
    this.updateTime = time;
    this.working = !p.isAlgo;
  }

  get clientOrderId(): string {
    return this.explicitCid ?? AUTO_ID_PREFIX + this.id;
  }

  /** Cumulative quote in units of 1e-18 (core/portfolio/amount.ts). */
  get cumQuote(): bigint {
    const big = this.cumBig;
    return (big === null ? BigInt(this.cumN) : big) * this.sb.spec.notionalK;
  }

  /** cummulativeQuoteQty as a decimal string (the same text formatAmount(cumQuote) gives). */
  get cumQuoteText(): string {
    const big = this.cumBig;
    const spec = this.sb.spec;
    return big === null ? this.sb.text(this.cumN, spec.pd + spec.qd) : formatAmount(big * spec.notionalK);
  }

  /** Add one fill's quote (price int * lots). */
  addQuote(price: number, lots: number): void {
    const product = price * lots;
    if (this.cumBig === null && product <= Number.MAX_SAFE_INTEGER) {
      const sum = this.cumN + product;
      if (sum <= Number.MAX_SAFE_INTEGER) {
        this.cumN = sum;
        return;
      }
    }
    this.cumBig = (this.cumBig ?? BigInt(this.cumN)) + BigInt(price) * BigInt(lots);
  }

  /** Wire texts of the fixed fields: prices and quantities from the book's shared cache (no string kept per order). */
  get priceText(): string {
    return this.sb.priceTexts.get(this.price);
  }

  get stopPriceText(): string {
    return this.sb.priceTexts.get(this.stopPrice);
  }

  /** origQuoteOrderQty ('0' for quantity-sized orders). */
  get quoteQtyText(): string {
    return this.byQuote ? formatAmount(this.quoteQty) : '0';
  }

  /** origQty as a decimal string (a quote-sized order's follows its executed quantity). */
  get origQtyText(): string {
    return this.sb.qtyTexts.get(this.origQty);
  }

  get remaining(): number {
    return this.origQty - this.executed;
  }

  get isOpen(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }

  /** Executes with a limit price (LIMIT, LIMIT_MAKER, and the *_LIMIT stops once triggered). */
  get hasLimit(): boolean {
    return this.price > 0;
  }
}

/**
 * What the order holds locked right now (amounts.ts: a number on its side's scale, or bigint units). Derived rather than tracked (one bigint less per
 * fill): a BUY with a limit locked limit * qty and releases limit * lots per fill; a quote-sized
 * BUY locked its budget and releases each fill's quote; a SELL locked its quantity.
 */
export function held(o: Order): Held {
  if (!o.locks || !o.isOpen) return 0;
  if (!o.isBuy) return o.remaining;
  return o.price > 0 ? quoteHeld(o.sb.spec, o.price, o.remaining) : o.quoteQty - o.cumQuote;
}

export function snapshotOf(o: Order): OrderSnapshot {
  return {
    symbol: o.sb.spec.symbol,
    accountId: o.acct.accountId,
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    price: o.priceText,
    origQty: o.origQtyText,
    executedQty: o.sb.qtyTexts.get(o.executed),
    cummulativeQuoteQty: o.cumQuoteText,
    status: o.status,
    timeInForce: o.tif,
    type: o.type,
    side: o.side,
    stopPrice: o.stopPriceText,
    origQuoteOrderQty: o.quoteQtyText,
    stpFlag: o.stp,
    time: o.time,
    updateTime: o.updateTime,
    isWorking: o.working,
  };
}
