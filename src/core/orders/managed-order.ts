/**
 * One order as the order manager tracks it, from the intent to its final status, and the views
 * of it that reach a strategy (open order, order update). Mutable on purpose: the manager is its
 * only writer, and strategies only ever see the frozen views built from it.
 */
import { isAlgoOrder } from '../market/types.ts';
import type { Dec } from '../money/decimal.ts';
import { D } from '../money/decimal.ts';
import { decimalText, parsedDecimal } from './decimal-cache.ts';
import { isTerminal, visibleStatus } from './order-state.ts';
import type { OrderProgress, OrderState } from './order-state.ts';
import type { Reserve } from './pre-trade/reserve.ts';
import type { OpenOrderOut, OrderFields, OrderUpdateOut } from './types.ts';

const ZERO = new D(0);
/** Text exactly as Decimal's toFixed() prints its own value (no sign, exponent, leading or trailing zeros): printing its parse gives it back. */
const CANONICAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

export class ManagedOrder {
  status: OrderState;
  resume: OrderState | undefined = undefined;
  executedQty: Dec = ZERO;
  /** The venue's cumulative quote quantity as it printed it; parsed when read (`cumQuote`). */
  private cumQuoteText = '0';
  private cumQuoteDec: Dec | undefined = ZERO;
  /** A venue text `executedQty` was parsed from (`executedFrom`), so an update prints it without toFixed(). */
  private executedText: string | undefined = undefined;
  private executedDec: Dec | undefined = undefined;
  orderId: string | undefined = undefined;
  /** False for a stop order the venue has not triggered yet. */
  working: boolean;
  updateTime: number;
  /** What the order claims from free funds until the venue acknowledges it. */
  reserve: Reserve | undefined = undefined;
  /** Trade ids of the fills applied: the first one alone (most orders fill once), then a set. */
  private tradeId: string | undefined = undefined;
  private tradeIds: Set<string> | undefined = undefined;

  constructor(
    readonly strategy: string,
    readonly symbol: string,
    readonly clientOrderId: string,
    readonly fields: OrderFields,
    readonly createdAt: number,
    /** Creation order, for "the latest order with this tag". */
    readonly seq: number,
    status: OrderState,
  ) {
    this.status = status;
    this.working = !isAlgoOrder(fields.type);
    this.updateTime = createdAt;
  }

  get cumQuote(): Dec {
    return (this.cumQuoteDec ??= parsedDecimal(this.cumQuoteText));
  }

  set cumQuote(d: Dec) {
    this.cumQuoteDec = d;
    this.cumQuoteText = d.toFixed();
  }

  /** The cumulative quote quantity as the venue printed it (a checked decimal string). */
  setCumQuoteText(text: string): void {
    if (text === this.cumQuoteText) return;
    this.cumQuoteText = text;
    this.cumQuoteDec = undefined;
  }

  /** `d` (now or soon the executed quantity) was parsed from the venue's `text`. */
  executedFrom(text: string, d: Dec): void {
    this.executedText = text;
    this.executedDec = d;
  }

  /** Record a fill's trade id; false when it was applied before (a resent message). */
  firstTrade(id: string): boolean {
    if (this.tradeId === undefined) {
      this.tradeId = id;
      return true;
    }
    if (this.tradeId === id) return false;
    const set = (this.tradeIds ??= new Set());
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }

  get tag(): string | undefined {
    return this.fields.tag;
  }

  get isOpen(): boolean {
    return !isTerminal(this.status);
  }

  /** Sent, and the venue has not acknowledged it yet (its funds are not locked there). */
  get isPending(): boolean {
    const s = this.status === 'PENDING_CANCEL' ? this.resume : this.status;
    return s === 'PENDING_NEW' || s === 'UNKNOWN';
  }

  /** Untriggered stop (MAX_NUM_ALGO_ORDERS). */
  get isAlgoWaiting(): boolean {
    return this.isOpen && isAlgoOrder(this.fields.type) && !this.working;
  }

  get progress(): OrderProgress {
    return { status: this.status, resume: this.resume, executedQty: this.executedQty };
  }

  apply(p: OrderProgress): void {
    this.status = p.status;
    this.resume = p.resume;
    this.executedQty = p.executedQty;
  }

  openView(): OpenOrderOut {
    const v: Mutable<OpenOrderOut> = { symbol: this.symbol, clientOrderId: this.clientOrderId, side: this.fields.side, type: this.fields.type, status: visibleStatus(this), executedQty: this.executedQty.toFixed(), time: this.createdAt };
    this.describe(v);
    return Object.freeze(v);
  }

  update(time: number, reason?: string): OrderUpdateOut {
    const u: Mutable<OrderUpdateOut> = {
      symbol: this.symbol,
      clientOrderId: this.clientOrderId,
      side: this.fields.side,
      type: this.fields.type,
      status: visibleStatus(this),
      executedQty: this.executedQty === this.executedDec && CANONICAL.test(this.executedText as string) ? (this.executedText as string) : decimalText(this.executedQty),
      cumulativeQuoteQty: this.quoteText(),
      time,
    };
    this.describe(u);
    if (reason !== undefined) u.reason = reason;
    return Object.freeze(u);
  }

  /** `decimalText(cumQuote)`: the venue's text itself when it is printed as toFixed() would. */
  private quoteText(): string {
    const t = this.cumQuoteText;
    if (CANONICAL.test(t)) {
      // Parsed once now (the memo then hands it to whoever reads the update's amount).
      this.cumQuoteDec ??= parsedDecimal(t);
      return t;
    }
    return decimalText(this.cumQuote);
  }

  /** The optional fields both views carry, only when present. */
  private describe(v: Mutable<Pick<OrderUpdateOut, 'tag' | 'orderId' | 'price' | 'stopPrice' | 'origQty'>>): void {
    const f = this.fields;
    if (f.tag !== undefined) v.tag = f.tag;
    if (this.orderId !== undefined) v.orderId = this.orderId;
    if (f.price !== undefined) v.price = f.price;
    if (f.stopPrice !== undefined) v.stopPrice = f.stopPrice;
    if (f.quantity !== undefined) v.origQty = f.quantity;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
