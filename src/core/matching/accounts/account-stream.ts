/**
 * One account's user data stream (protocol notes 4.1) as venue events (core/orders/venue-messages.ts),
 * built straight from the engine's orders, trades and balance entries while an operation runs:
 * the engine option `accountStream` (engine-core.ts). The backtester's simulated venue streams
 * its one account this way instead of having every EngineEvent built and then translated:
 * five event objects of up to 29 fields per market order (a public trade, two executionReports,
 * two balances), of which the venue kept a handful of fields, were a third of an order's cost.
 *
 * The events are those toVenueEvents (src/backtest/run/engine-events.ts) makes of the engine's
 * events for the account, in the same order and batches (one per engine operation, taken by
 * `take`): an execution report with a trade is a `fill` with the order's status after it, any
 * other one an `order` event, a balance position a `balance` event; public trades and depth are
 * not the account's. `open` follows the account's open order ids (added while an order is live,
 * removed when it ends), as toVenueEvents keeps it, brought up to date by `take`.
 */
import type { VenueEvent, VenueOrderEvent } from '../../orders/venue-messages.ts';
import type { BalanceEntry } from '../../portfolio/balances.ts';
import type { Trade } from './account-book.ts';
import type { Order } from '../book/order.ts';
import type { ExecutionType, OrderType, OrderUpdateEvent, TimeInForce } from '../types.ts';

/** Handed out when an operation streamed nothing: one shared, frozen empty array. */
const NONE: VenueEvent[] = Object.freeze([]) as unknown as VenueEvent[];

/** The `reason` of an order event: self-trade prevention, or why an order expired; undefined otherwise. */
export function venueReason(cause: OrderUpdateEvent['cause'], x: ExecutionType, type: OrderType, tif: TimeInForce): string | undefined {
  if (cause === 'STP') return 'self-trade prevention';
  if (x !== 'EXPIRED') return undefined;
  if (type === 'MARKET' || type === 'STOP_LOSS' || type === 'TAKE_PROFIT') return 'expired: no liquidity (or funds) for the rest of the market order';
  return `expired: ${tif} remainder not filled`;
}

export class AccountStream {
  /** The current operation's events: NONE until the first (a fresh array each operation, handed to the caller). */
  private out: VenueEvent[] = NONE;
  /** Orders reported since the last take, the first `nReported` (the list is reused). */
  private readonly reported: (Order | null)[] = [];
  private nReported = 0;

  constructor(
    readonly accountId: string,
    /** The account's open order ids, brought up to date by each `take`. */
    readonly open: Set<string>,
  ) {}

  /**
   * The events streamed since the last take, in order; `open` now holds the orders whose last
   * report left them open. Settled here, not per report: an order's last report has its
   * status at the end of the operation, and a market order that fills at once (open after its
   * NEW report, closed after its fill) then costs the set nothing: no id hashed to be added
   * and deleted again, nothing to delete while the set is empty.
   */
  take(): VenueEvent[] {
    const open = this.open;
    const reported = this.reported;
    for (let i = 0; i < this.nReported; i++) {
      const o = reported[i] as Order;
      reported[i] = null;
      if (o.isOpen) open.add(o.id);
      else if (open.size !== 0) open.delete(o.id);
    }
    this.nReported = 0;
    const out = this.out;
    this.out = NONE;
    return out;
  }

  /** @internal The engine's: an execution report of the account's order `o` (a trade `t` for x TRADE). */
  order(o: Order, x: ExecutionType, t: Trade | null, cause: OrderUpdateEvent['cause'], time: number): void {
    const id = o.id;
    // FILLED, CANCELED, PARTIALLY_CANCELED and EXPIRED end an order: exactly the statuses that are
    // not open (take() settles `open`; the same order twice in a row is listed once).
    const n = this.nReported;
    if (n === 0 || this.reported[n - 1] !== o) {
      this.reported[n] = o;
      this.nReported = n + 1;
    }
    const sb = o.sb;
    if (x === 'TRADE' && t !== null) {
      const buy = o.isBuy;
      const spec = sb.spec;
      // The order's first fill (most are its only one): its cumulative texts are the trade's.
      const first = o.executed === t.qty && o.cumBig === null;
      this.push({
        kind: 'fill',
        symbol: spec.symbol,
        clientOrderId: o.clientOrderId,
        orderId: id,
        tradeId: t.id,
        side: buy ? 'BUY' : 'SELL',
        price: t.priceText,
        qty: t.qtyText,
        quoteQty: t.quoteText,
        commission: buy ? t.buyerFeeText : t.sellerFeeText,
        commissionAsset: buy ? spec.baseAsset : spec.quoteAsset,
        isMaker: t.buyerIsMaker === buy,
        orderStatus: o.status === 'FILLED' ? 'FILLED' : 'PARTIALLY_FILLED',
        cumulativeQty: first ? t.qtyText : sb.qtyTexts.get(o.executed),
        cumulativeQuoteQty: first ? t.quoteText : o.cumQuoteText,
        time,
      });
      return;
    }
    const reason = cause === null && x !== 'EXPIRED' ? undefined : venueReason(cause, x, o.type, o.tif);
    // Written out, `reason` only when there is one (as toVenueEvents writes it).
    const e: { -readonly [K in keyof VenueOrderEvent]: VenueOrderEvent[K] } = {
      kind: 'order',
      symbol: sb.spec.symbol,
      clientOrderId: o.clientOrderId,
      orderId: id,
      status: o.status,
      // Nothing executed (a NEW order, most of these events): no quote either.
      executedQty: o.executed === 0 ? '0' : sb.qtyTexts.get(o.executed),
      cumulativeQuoteQty: o.executed === 0 ? '0' : o.cumQuoteText,
      working: o.working,
      time,
    };
    if (reason !== undefined) e.reason = reason;
    this.push(e);
  }

  /** @internal The engine's: the account's position in one asset at the end of an operation. */
  balance(e: BalanceEntry, time: number): void {
    this.push({ kind: 'balance', asset: e.asset, free: e.f.format(), locked: e.l.format(), time });
  }

  private push(e: VenueEvent): void {
    if (this.out === NONE) this.out = [e];
    else this.out.push(e);
  }
}
