/**
 * The engine's order record (one object per order, fields fixed at construction so V8 keeps one
 * shape, and few of them: resting orders are most of what the GC copies) and its spec 2.4 snapshot. Prices and quantities are scaled integers (scaled.ts), quote
 * amounts and locks bigint units (core/portfolio/amount.ts).
 */
import { ORDER_TYPES } from '../../market/index.ts';
import type { OrderType } from '../../market/index.ts';
import { formatAmount } from '../../portfolio/amount.ts';
import { AUTO_ID_PREFIX } from '../accounts/account-book.ts';
import { quoteHeld } from '../numbers/amounts.ts';
import type { Held } from '../numbers/amounts.ts';
import type { AccountBook, Trade } from '../accounts/account-book.ts';
import type { Level } from './book-side.ts';
import type { SymbolBook } from './symbol-book.ts';
import type { ParsedOrder } from '../validate.ts';
import type { EngineEvent, Fill, OrderSide, OrderSnapshot, OrderStatus, PlaceSuccess, StpFlag, TimeInForce } from '../types.ts';

const TIFS: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];
const STPS: readonly StpFlag[] = ['CB', 'CN', 'CO'];

/**
 * Fields most orders never use (a stop price, an explicit client id and its chain, a quote budget,
 * a quote sum beyond 2^53), on a side object made only for the orders that do.
 */
class OrderExtra {
  stopPrice = 0;
  explicitCid: string | null = null;
  prevSameClientId: Order | null = null;
  quoteQty = 0n;
  /** quoteQty on the notional scale, -1 when it does not fit there (validate.ts). */
  quoteN = -1;
  cumBig: bigint | null = null;
}

const NO_EXTRA: OrderExtra = Object.freeze(new OrderExtra());

const STATUSES: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'EXPIRED'];

// Bits of Order.bits: type, time in force and stpFlag as indexes, five booleans, the status index.
const TIF_SHIFT = 3;
const STP_SHIFT = 5;
const BUY = 1 << 7;
const BY_QUOTE = 1 << 8;
const WORKING = 1 << 9;
const LOCKS = 1 << 10;
const LISTED = 1 << 11;
const STATUS_SHIFT = 12;
const STATUS_MASK = 7 << STATUS_SHIFT;
/** NEW (0) and PARTIALLY_FILLED (1) are the open statuses. */
const OPEN_LIMIT = 2 << STATUS_SHIFT;

export class Order {
  readonly acct: AccountBook;
  /** Position in the engine's order id sequence (id-sequence.ts), which is also arrival order. */
  readonly seq: number;
  /**
   * Type, time in force, stpFlag, side, sizing, working, locks, listed and status packed in one
   * small integer, read and written through the accessors below: every field of an Order costs
   * 8 bytes on each of the hundreds of thousands of resting orders the GC copies.
   */
  /** @internal (Placed copies it whole) */
  bits: number;
  readonly price: number;
  /** For quote-sized orders this follows executedQty (the venue reports the quantity it bought). */
  origQty: number;
  readonly time: number;
  updateTime: number;
  executed = 0;
  /**
   * Cumulative quote as price int * lots (the symbol's pd + qd decimals): a plain number while it
   * stays a safe integer (no bigint per fill, no bigint kept per resting order), else `cumBig`.
   */
  cumN = 0;
  level: Level | null = null;
  prev: Order | null = null;
  next: Order | null = null;
  openPrev: Order | null = null;
  openNext: Order | null = null;
  private x: OrderExtra = NO_EXTRA;
  /** The id's text once read (most orders of a backtest never are). */
  private idText: string | null = null;

  /** `p` is the parsed request (prices and quantities already on the symbol's integer scale). */
  constructor(acct: AccountBook, seq: number, explicitCid: string | null, p: ParsedOrder, time: number) {
    this.acct = acct;
    this.seq = seq;
    const byQuote = p.quoteQty > 0n;
    this.bits =
      ORDER_TYPES.indexOf(p.type) |
      (TIFS.indexOf(p.tif) << TIF_SHIFT) |
      (STPS.indexOf(p.stp) << STP_SHIFT) |
      (p.side === 'BUY' ? BUY : 0) |
      (byQuote ? BY_QUOTE : 0) |
      (p.isAlgo ? 0 : WORKING);
    this.price = p.price;
    this.origQty = byQuote ? 0 : p.qty;
    this.time = time;
    this.updateTime = time;
    if (explicitCid !== null || byQuote || p.stopPrice !== 0) {
      const x = (this.x = new OrderExtra());
      x.explicitCid = explicitCid;
      x.quoteQty = p.quoteQty;
      x.quoteN = p.quoteN;
      x.stopPrice = p.stopPrice;
    }
  }

  /** orderId: decimal text, above 2^53 on the sandbox as on the venue. */
  get id(): string {
    return (this.idText ??= this.acct.sb.orderIds.text(this.seq));
  }

  /** The symbol's book (the account state is per symbol). */
  get sb(): SymbolBook {
    return this.acct.sb;
  }

  get isBuy(): boolean {
    return (this.bits & BUY) !== 0;
  }

  get side(): OrderSide {
    return (this.bits & BUY) !== 0 ? 'BUY' : 'SELL';
  }

  get type(): OrderType {
    return ORDER_TYPES[this.bits & 7] as OrderType;
  }

  get tif(): TimeInForce {
    return TIFS[(this.bits >> TIF_SHIFT) & 3] as TimeInForce;
  }

  get stp(): StpFlag {
    return STPS[(this.bits >> STP_SHIFT) & 3] as StpFlag;
  }

  /** Sized by quoteOrderQty. */
  get byQuote(): boolean {
    return (this.bits & BY_QUOTE) !== 0;
  }

  get status(): OrderStatus {
    return STATUSES[(this.bits & STATUS_MASK) >> STATUS_SHIFT] as OrderStatus;
  }

  set status(v: OrderStatus) {
    this.bits = (this.bits & ~STATUS_MASK) | (STATUSES.indexOf(v) << STATUS_SHIFT);
  }

  get isOpen(): boolean {
    return (this.bits & STATUS_MASK) < OPEN_LIMIT;
  }

  /** Not a stop waiting for its trigger. */
  get working(): boolean {
    return (this.bits & WORKING) !== 0;
  }

  set working(v: boolean) {
    this.bits = v ? this.bits | WORKING : this.bits & ~WORKING;
  }

  /**
   * Whether the order holds funds in `locked` (quote for a BUY, base for a SELL) and its fills
   * draw on them; false for funds-limited market orders. What it holds is derived, see `held`.
   */
  get locks(): boolean {
    return (this.bits & LOCKS) !== 0;
  }

  set locks(v: boolean) {
    this.bits = v ? this.bits | LOCKS : this.bits & ~LOCKS;
  }

  /** In its account's open list (account-book.ts). */
  get listed(): boolean {
    return (this.bits & LISTED) !== 0;
  }

  set listed(v: boolean) {
    this.bits = v ? this.bits | LISTED : this.bits & ~LISTED;
  }

  /** 0 for every type but the stops (whose stopPrice is always > 0). */
  get stopPrice(): number {
    return this.x.stopPrice;
  }

  get isAlgo(): boolean {
    return this.x.stopPrice > 0;
  }

  /** The client's own id; null for a generated one (`auto-<id>`, built when read: most are never read). */
  get explicitCid(): string | null {
    return this.x.explicitCid;
  }

  /** The quote budget of a quote-sized order (units), 0n otherwise. */
  get quoteQty(): bigint {
    return this.x.quoteQty;
  }

  /** The unspent quote budget on the notional scale (a quote-sized order), -1 when only bigint units hold it. */
  quoteLeftN(): number {
    const x = this.x;
    return x.quoteN >= 0 && x.cumBig === null ? x.quoteN - this.cumN : -1;
  }

  /** The unspent quote budget in units (quote-sized orders). */
  get quoteLeft(): bigint {
    return this.quoteQty - this.cumQuote;
  }

  /** The cumulative quote once it outgrew 2^53 (null before). */
  get cumBig(): bigint | null {
    return this.x.cumBig;
  }

  set cumBig(v: bigint | null) {
    this.extra().cumBig = v;
  }

  /** The previous order of this account and symbol that used the same client order id. */
  get prevSameClientId(): Order | null {
    return this.x.prevSameClientId;
  }

  set prevSameClientId(v: Order | null) {
    if (v === null && this.x === NO_EXTRA) return;
    this.extra().prevSameClientId = v;
  }

  private extra(): OrderExtra {
    if (this.x === NO_EXTRA) this.x = new OrderExtra();
    return this.x;
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
    return cumQuoteText(this.sb, this.cumN, this.cumBig);
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
    if (!this.byQuote) return '0';
    const n = this.x.quoteN;
    const spec = this.sb.spec;
    return n >= 0 ? this.sb.text(n, spec.pd + spec.qd) : formatAmount(this.quoteQty);
  }

  /** origQty as a decimal string (a quote-sized order's follows its executed quantity). */
  get origQtyText(): string {
    return this.sb.qtyTexts.get(this.origQty);
  }

  get remaining(): number {
    return this.origQty - this.executed;
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
  if (o.price > 0) return quoteHeld(o.sb.spec, o.price, o.remaining);
  const left = o.quoteLeftN();
  return left >= 0 ? left : o.quoteLeft;
}

export function snapshotOf(o: Order): OrderSnapshot {
  return snapshotAt(o, o.status, o.executed, o.origQty, o.cumN, o.cumBig, o.updateTime, o.working);
}

/** cummulativeQuoteQty text of a cumulative quote held as cumN (price int * lots) or, past 2^53, cumBig. */
function cumQuoteText(sb: SymbolBook, cumN: number, cumBig: bigint | null): string {
  const spec = sb.spec;
  return cumBig === null ? sb.text(cumN, spec.pd + spec.qd) : formatAmount(cumBig * spec.notionalK);
}

/** The snapshot of `o` with the given values of the fields that change after placement. */
function snapshotAt(o: Order, status: OrderStatus, executed: number, origQty: number, cumN: number, cumBig: bigint | null, updateTime: number, working: boolean): OrderSnapshot {
  const sb = o.sb;
  const spec = sb.spec;
  return {
    symbol: spec.symbol,
    accountId: o.acct.accountId,
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    price: o.priceText,
    origQty: sb.qtyTexts.get(origQty),
    executedQty: sb.qtyTexts.get(executed),
    cummulativeQuoteQty: cumQuoteText(sb, cumN, cumBig),
    status,
    timeInForce: o.tif,
    type: o.type,
    side: o.side,
    stopPrice: o.stopPriceText,
    origQuoteOrderQty: o.quoteQtyText,
    stpFlag: o.stp,
    time: o.time,
    updateTime,
    isWorking: working,
  };
}

const NO_EVENTS: EngineEvent[] = Object.freeze([]) as unknown as EngineEvent[];
const NO_FILLS: Fill[] = Object.freeze([]) as unknown as Fill[];

/** The taker's view of one of its trades (spec 2.4 fill): commission in the asset it received. */
function takerFill(t: Trade, isBuy: boolean): Fill {
  return {
    price: t.priceText,
    qty: t.qtyText,
    commission: isBuy ? t.buyerFeeText : t.sellerFeeText,
    commissionAsset: isBuy ? t.spec.baseAsset : t.spec.quoteAsset,
    tradeId: t.id,
  };
}

/** The fills of a placement's taker trades (op-context.ts: none, one, or an array). */
function takerFills(trades: Trade | readonly Trade[] | null, isBuy: boolean): Fill[] {
  if (trades === null) return NO_FILLS;
  if (!Array.isArray(trades)) return [takerFill(trades as Trade, isBuy)];
  const n = trades.length;
  const out = new Array<Fill>(n);
  for (let i = 0; i < n; i++) out[i] = takerFill(trades[i] as Trade, isBuy);
  return out;
}

/**
 * A successful placement. The snapshot and the fills are built when first read, the snapshot
 * from the values the order had when the placement ended (copied here), the fills from its
 * trades: most callers read a field or two (the backtest reads only the events, an agent the
 * fill count), and formatting an 18-field snapshot and a fill per trade with its 19-digit id
 * was a large share of what placing cost.
 */
export class Placed implements PlaceSuccess {
  // The order's changing fields as the placement left them, in as few fields as they fit: one of
  // these is made per order.
  /** Order.bits (status, working). */
  private readonly bits: number;
  private readonly executed: number;
  private readonly origQty: number;
  /** cumN, or cumBig when the quote outgrew 2^53. */
  private readonly cum: number | bigint;
  private readonly updateTime: number;
  private snapshot: OrderSnapshot | null = null;
  private fillList: Fill[] | null = null;
  /** Set by the engine once the operation's events are final. */
  events: EngineEvent[] = NO_EVENTS;

  constructor(
    private readonly o: Order,
    /** The order's taker trades, in fill order (op-context.ts; the fills are built from them when read). */
    private readonly trades: Trade | readonly Trade[] | null,
  ) {
    this.bits = o.bits;
    this.executed = o.executed;
    this.origQty = o.origQty;
    this.cum = o.cumBig ?? o.cumN;
    this.updateTime = o.updateTime;
  }

  get ok(): true {
    return true;
  }

  get order(): OrderSnapshot {
    const bits = this.bits;
    const status = STATUSES[(bits & STATUS_MASK) >> STATUS_SHIFT] as OrderStatus;
    const cum = this.cum;
    return (this.snapshot ??= snapshotAt(this.o, status, this.executed, this.origQty, typeof cum === 'number' ? cum : 0, typeof cum === 'bigint' ? cum : null, this.updateTime, (bits & WORKING) !== 0));
  }

  /** Spec 2.4 fills of the placed order (taker side), built on first read: a trade's texts never change. */
  get fills(): Fill[] {
    return (this.fillList ??= takerFills(this.trades, this.o.isBuy));
  }

  /** JSON sees the snapshot and the fills like plain properties (a spread does not: read them by name). */
  toJSON(): PlaceSuccess {
    return { ok: true, order: this.order, fills: this.fills, events: this.events };
  }
}
