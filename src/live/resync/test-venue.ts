/**
 * Test support (not part of the adapter): a small venue that keeps its orders, trades and
 * balances exactly (decimal.js), tells what happens as the user stream would (decoded
 * executionReports and outboundAccountPositions, exchange/streams/user-payload-types.ts) and as
 * the new-order answer would (ACK / RESULT / FULL), and answers the resync's REST queries from its
 * state (spec 4.5 semantics: myTrades `fromId` inclusive and ascending, `limit` rows; without
 * fromId the most recent). Order and trade ids are above 2^53. LIMIT GTC orders only: fills at
 * the order's price, fees 0.1 % (a BUY's in the base asset, a SELL's in the quote asset), user
 * cancels, engine expiries and self-trade-prevention cancels (spec 3.1 PARTIALLY_CANCELED).
 */
import { D } from '../../core/money/decimal.ts';
import type { Dec } from '../../core/money/decimal.ts';
import type { AccountTrade, NewOrderResponse, Order } from '../../exchange/codecs/order.ts';
import type { AccountPosition, ExecutionReport, ExecutionType, ReportOrderStatus } from '../../exchange/streams/user-payload-types.ts';
import type { PlaceCommand } from '../../ports/venue.ts';
import type { ResyncAnswer, ResyncQuery } from './resync-queries.ts';

export const ASSETS: Readonly<Record<string, { base: string; quote: string }>> = { BTCPHP: { base: 'BTC', quote: 'PHP' }, ETHPHP: { base: 'ETH', quote: 'PHP' } };
const FEE = new D('0.001');

export interface VenueOrder {
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: Dec;
  readonly qty: Dec;
  executed: Dec;
  cumQuote: Dec;
  status: ReportOrderStatus;
  readonly time: number;
  updateTime: number;
}

export type StreamItem = { readonly kind: 'report'; readonly report: ExecutionReport } | { readonly kind: 'position'; readonly position: AccountPosition };

export class TestVenue {
  time = 10_000;
  readonly orders = new Map<string, VenueOrder>();
  readonly trades: AccountTrade[] = [];
  readonly stream: StreamItem[] = [];
  readonly balances = new Map<string, { free: Dec; locked: Dec }>();
  private nextOrderId = 2n ** 62n + 7n;
  private readonly nextTrade = new Map<string, bigint>([
    ['BTCPHP', 2n ** 61n + 3n],
    ['ETHPHP', 2n ** 60n + 11n],
  ]);
  private accountTime = 0;

  constructor(balances: Readonly<Record<string, string>>) {
    for (const [a, v] of Object.entries(balances)) this.balances.set(a, { free: new D(v), locked: new D(0) });
  }

  /** The venue receives a place command; fills `immediate` of it at once (taker). Returns the new-order answer of `respType`. */
  place(cmd: PlaceCommand, immediate: Dec, respType: 'ACK' | 'RESULT' | 'FULL'): NewOrderResponse {
    const t = this.tick();
    const o: VenueOrder = { symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, orderId: (this.nextOrderId++).toString(), side: cmd.side as 'BUY' | 'SELL', price: new D(cmd.price as string), qty: new D(cmd.quantity as string), executed: new D(0), cumQuote: new D(0), status: 'NEW', time: t, updateTime: t };
    this.orders.set(o.clientOrderId, o);
    const { base, quote } = ASSETS[o.symbol] as { base: string; quote: string };
    if (o.side === 'BUY') this.lock(quote, o.price.times(o.qty));
    else this.lock(base, o.qty);
    this.report(o, 'NEW', undefined);
    this.position(o.side === 'BUY' ? [quote] : [base]);
    const fills: { price: string; qty: string; commission: string; commissionAsset: string; tradeId: string }[] = [];
    if (immediate.gt(0)) {
      const tr = this.fill(o.clientOrderId, immediate, 0, false);
      if (tr !== undefined) fills.push({ price: tr.price, qty: tr.qty, commission: tr.commission, commissionAsset: tr.commissionAsset, tradeId: tr.id });
    }
    const ack = { symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, transactTime: t };
    if (respType === 'ACK') return ack;
    const result = { ...ack, price: o.price.toFixed(), origQty: o.qty.toFixed(), executedQty: o.executed.toFixed(), cummulativeQuoteQty: o.cumQuote.toFixed(), status: o.status, timeInForce: 'GTC', type: 'LIMIT', side: o.side, stopPrice: '0', origQuoteOrderQty: '0' };
    return respType === 'RESULT' ? result : { ...result, fills };
  }

  /** A trade of up to `qty` of the order (others' trades take `skip` ids first). */
  fill(clientOrderId: string, qty: Dec, skip: number, maker = true): AccountTrade | undefined {
    const o = this.orders.get(clientOrderId);
    if (o === undefined || !isOpen(o.status)) return undefined;
    const q = D.min(qty, o.qty.minus(o.executed));
    if (!q.gt(0)) return undefined;
    const t = this.tick();
    const next = (this.nextTrade.get(o.symbol) as bigint) + BigInt(skip);
    this.nextTrade.set(o.symbol, next + 1n);
    const { base, quote } = ASSETS[o.symbol] as { base: string; quote: string };
    const quoteQty = o.price.times(q);
    const buy = o.side === 'BUY';
    const fee = buy ? q.times(FEE) : quoteQty.times(FEE);
    if (buy) {
      this.take(quote, quoteQty);
      this.give(base, q.minus(fee));
    } else {
      this.take(base, q);
      this.give(quote, quoteQty.minus(fee));
    }
    o.executed = o.executed.plus(q);
    o.cumQuote = o.cumQuote.plus(quoteQty);
    o.status = o.executed.eq(o.qty) ? 'FILLED' : 'PARTIALLY_FILLED';
    o.updateTime = t;
    const trade: AccountTrade = { symbol: o.symbol, id: next.toString(), orderId: o.orderId, price: o.price.toFixed(), qty: q.toFixed(), quoteQty: quoteQty.toFixed(), commission: fee.toFixed(), commissionAsset: buy ? base : quote, time: t, isBuyer: buy, isMaker: maker, isBestMatch: true };
    this.trades.push(trade);
    this.report(o, 'TRADE', trade);
    this.position([base, quote]);
    return trade;
  }

  /** The order ends: a user cancel, an engine expiry, or a self-trade-prevention cancel. */
  end(clientOrderId: string, how: 'cancel' | 'expire' | 'stp'): void {
    const o = this.orders.get(clientOrderId);
    if (o === undefined || !isOpen(o.status)) return;
    o.updateTime = this.tick();
    const { base, quote } = ASSETS[o.symbol] as { base: string; quote: string };
    const rest = o.qty.minus(o.executed);
    if (o.side === 'BUY') this.unlock(quote, o.price.times(rest));
    else this.unlock(base, rest);
    o.status = how === 'expire' ? 'EXPIRED' : how === 'stp' && o.executed.gt(0) ? 'PARTIALLY_CANCELED' : 'CANCELED';
    this.report(o, how === 'expire' ? 'EXPIRED' : 'CANCELED', undefined);
    this.position([o.side === 'BUY' ? quote : base]);
  }

  answer(q: ResyncQuery): ResyncAnswer {
    switch (q.kind) {
      case 'openOrders':
        return { kind: 'openOrders', query: q, orders: [...this.orders.values()].filter((o) => isOpen(o.status) && (q.symbol === undefined || o.symbol === q.symbol)).map(orderAnswer) };
      case 'queryOrder': {
        const o = q.orderId !== undefined ? [...this.orders.values()].find((x) => x.orderId === q.orderId) : this.orders.get(q.clientOrderId);
        if (o === undefined) return { kind: 'orderNotFound', query: q, code: -2013, message: 'Order does not exist.' };
        return { kind: 'queryOrder', query: q, orders: [orderAnswer(o)] };
      }
      case 'myTrades': {
        const mine = this.trades.filter((t) => t.symbol === q.symbol && (q.orderId === undefined || t.orderId === q.orderId)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        const from = q.fromId;
        const rows = from === undefined ? mine.slice(-q.limit) : mine.filter((t) => BigInt(t.id) >= BigInt(from)).slice(0, q.limit);
        return { kind: 'myTrades', query: q, trades: rows };
      }
      case 'account':
        return { kind: 'account', query: q, account: { updateTime: this.accountTime, balances: [...this.balances].map(([asset, b]) => ({ asset, free: b.free.toFixed(), locked: b.locked.toFixed() })) } };
    }
  }

  private tick(): number {
    return ++this.time;
  }

  private bal(asset: string): { free: Dec; locked: Dec } {
    let b = this.balances.get(asset);
    if (b === undefined) this.balances.set(asset, (b = { free: new D(0), locked: new D(0) }));
    return b;
  }

  private lock(asset: string, amount: Dec): void {
    const b = this.bal(asset);
    b.free = b.free.minus(amount);
    b.locked = b.locked.plus(amount);
  }

  private unlock(asset: string, amount: Dec): void {
    this.lock(asset, amount.negated());
  }

  private take(asset: string, amount: Dec): void {
    const b = this.bal(asset);
    b.locked = b.locked.minus(amount);
  }

  private give(asset: string, amount: Dec): void {
    const b = this.bal(asset);
    b.free = b.free.plus(amount);
  }

  private report(o: VenueOrder, x: ExecutionType, t: AccountTrade | undefined): void {
    const report: ExecutionReport = {
      eventType: 'executionReport',
      eventTime: this.time,
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      side: o.side,
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      quantity: o.qty.toFixed(),
      price: o.price.toFixed(),
      stopPrice: '0',
      executionType: x,
      orderStatus: o.status,
      rejectReason: 'NONE',
      orderId: o.orderId,
      lastQty: t?.qty ?? '0',
      cumulativeQty: o.executed.toFixed(),
      lastPrice: t?.price ?? '0',
      commission: t?.commission ?? '0',
      commissionAsset: t?.commissionAsset ?? null,
      transactionTime: t === undefined ? -1 : t.time,
      tradeId: t?.id,
      working: isOpen(o.status),
      maker: t?.isMaker ?? false,
      createdTime: o.time,
      cumulativeQuoteQty: o.cumQuote.toFixed(),
      lastQuoteQty: t?.quoteQty ?? '0',
      quoteOrderQty: '0',
    };
    this.stream.push({ kind: 'report', report });
  }

  private position(assets: readonly string[]): void {
    this.accountTime = this.time;
    const balances = assets.map((a) => ({ asset: a, free: this.bal(a).free.toFixed(), locked: this.bal(a).locked.toFixed() }));
    this.stream.push({ kind: 'position', position: { eventType: 'outboundAccountPosition', eventTime: this.time, lastUpdateTime: this.time, balances } });
  }
}

const isOpen = (s: ReportOrderStatus): boolean => s === 'NEW' || s === 'PARTIALLY_FILLED';

function orderAnswer(o: VenueOrder): Order {
  return {
    symbol: o.symbol,
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    price: o.price.toFixed(),
    origQty: o.qty.toFixed(),
    executedQty: o.executed.toFixed(),
    cummulativeQuoteQty: o.cumQuote.toFixed(),
    status: o.status,
    timeInForce: 'GTC',
    type: 'LIMIT',
    side: o.side,
    stopPrice: '0',
    origQuoteOrderQty: '0',
    time: o.time,
    updateTime: o.updateTime,
    isWorking: isOpen(o.status),
  };
}
