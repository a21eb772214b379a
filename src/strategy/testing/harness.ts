/**
 * StrategyHarness: drive a strategy in a test without a venue. It owns a FakeStateView and a
 * StrategyRunner, delivers bars at their close time (clock = closeTime + 1), and plays a tiny
 * paper venue for the intents that come back: MARKET orders fill at once at the last close (or
 * the book mid), other orders rest until the test fills them with `fill(tag)`, cancels and
 * cancel-replaces act on the resting orders. Fills move balances and positions (no fees, no
 * locks, no filters) and are reported back to the strategy as onFill and onOrderUpdate, whose
 * intents are applied in turn. Every intent is recorded in `intents`, every failure in `failures`.
 * Not a backtester: no matching, no book, no latency.
 */
import type { Candle } from '../../core/indicators/candle.ts';
import type { Instrument } from '../../core/market/instrument.ts';
import { D, dec, toWire } from '../../core/money/decimal.ts';
import type { AnyStrategyDefinition } from '../define.ts';
import type { Intent, OrderFieldsOf, PlaceIntent } from '../intents.ts';
import { StrategyRunner } from '../runner.ts';
import type { AnyStrategyRunner } from '../runner.ts';
import type { Amount, BookTopInput, Interval, OrderStatus, StrategyFailure, StrategyLogEntry, TradeInput } from '../types.ts';
import { FakeStateView } from './fake-state.ts';
import { testInstrument } from './test-instrument.ts';

export interface HarnessOptions {
  readonly params?: unknown;
  /** Default: [testInstrument()] (BTCPHP). */
  readonly instruments?: readonly Instrument[];
  /** asset -> free amount. */
  readonly balances?: Readonly<Record<string, Amount>>;
  /** Clock at construction; default 0. */
  readonly now?: number;
}

/** A resting paper order. */
export interface PaperOrder {
  readonly clientOrderId: string;
  readonly tag?: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: PlaceIntent['type'];
  readonly price?: string;
  readonly stopPrice?: string;
  readonly quantity: string;
  executedQty: string;
}

export interface RecordedIntent {
  readonly time: number;
  readonly intent: Intent;
}

export class StrategyHarness {
  readonly view: FakeStateView;
  readonly runner: AnyStrategyRunner;
  readonly failures: StrategyFailure[] = [];
  readonly logs: StrategyLogEntry[] = [];
  /** Every intent the strategy returned, in order. */
  readonly intents: RecordedIntent[] = [];
  /** Cancels that found no order, and the like. */
  readonly notes: string[] = [];
  private readonly resting = new Map<string, PaperOrder>();
  private seq = 0;
  private tradeSeq = 0;

  constructor(definition: AnyStrategyDefinition, options: HarnessOptions = {}) {
    this.view = new FakeStateView({ now: options.now ?? 0, instruments: options.instruments ?? [testInstrument()], balances: options.balances ?? {} });
    this.runner = new StrategyRunner(definition, {
      params: options.params,
      state: this.view,
      onFailure: (f) => this.failures.push(f),
      onLog: (e) => this.logs.push(e),
    });
  }

  get symbol(): string {
    return this.runner.setup.symbols[0] as string;
  }

  start(): readonly Intent[] {
    return this.apply(this.runner.start());
  }

  stop(reason?: string): readonly Intent[] {
    return this.apply(this.runner.stop(reason));
  }

  /** Deliver one closed bar at its close (clock = closeTime + 1). */
  bar(candle: Candle, symbol = this.symbol, interval: Interval = this.runner.setup.intervals[0] as Interval): readonly Intent[] {
    this.view.time = Math.max(this.view.time, candle.closeTime + 1);
    const out = this.apply(this.runner.bar(symbol, interval, candle));
    this.apply(this.runner.timer());
    return out;
  }

  /** Deliver bars in order; returns every intent they produced. */
  bars(candles: Iterable<Candle>, symbol = this.symbol, interval?: Interval): readonly Intent[] {
    const out: Intent[] = [];
    for (const c of candles) out.push(...this.bar(c, symbol, interval));
    return out;
  }

  bookTop(top: Omit<BookTopInput, 'time' | 'symbol'> & { symbol?: string; time?: number }): readonly Intent[] {
    if (top.time !== undefined) this.view.time = Math.max(this.view.time, top.time);
    return this.apply(this.runner.bookTop({ ...top, symbol: top.symbol ?? this.symbol, time: top.time ?? this.view.time }));
  }

  trade(trade: Omit<TradeInput, 'time' | 'symbol' | 'id' | 'buyerIsMaker'> & Partial<TradeInput>): readonly Intent[] {
    return this.apply(this.runner.trade({ symbol: this.symbol, id: String(++this.tradeSeq), time: this.view.time, buyerIsMaker: false, ...trade }));
  }

  /** Move the clock and fire the timer if due. */
  advance(ms: number): readonly Intent[] {
    this.view.time += ms;
    return this.apply(this.runner.timer());
  }

  /** Resting orders, oldest first. */
  openOrders(): readonly PaperOrder[] {
    return [...this.resting.values()];
  }

  /** The resting order with this tag (or client order id). */
  order(ref: string): PaperOrder | undefined {
    return this.resting.get(ref) ?? [...this.resting.values()].find((o) => o.tag === ref);
  }

  /** Fill a resting order (by tag or client order id), fully by default, at its limit price by default. */
  fill(ref: string, opts: { qty?: Amount; price?: Amount } = {}): readonly Intent[] {
    const o = this.order(ref);
    if (!o) throw new Error(`no resting order '${ref}' (resting: ${this.openOrders().map((x) => x.tag ?? x.clientOrderId).join(', ') || 'none'})`);
    const remaining = dec(o.quantity).minus(o.executedQty);
    const qty = opts.qty === undefined ? remaining : D.min(dec(opts.qty), remaining);
    const price = opts.price ?? o.price ?? o.stopPrice;
    if (price === undefined) throw new Error(`order '${ref}' has no price: pass one`);
    return this.execute(o, toWire(qty), toWire(price));
  }

  /** Apply intents to the paper venue; returns them (the caller's view), recording each. */
  private apply(intents: readonly Intent[], depth = 0): readonly Intent[] {
    if (depth > 20) throw new Error('intent feedback loop: more than 20 nested rounds');
    for (const intent of intents) {
      this.intents.push({ time: this.view.time, intent });
      if (intent.kind === 'place') this.place(intent.symbol, intent, depth);
      else if (intent.kind === 'cancel') this.cancel(intent.symbol, intent.tag ?? intent.clientOrderId, depth);
      else if (this.cancel(intent.symbol, intent.tag ?? intent.clientOrderId, depth)) this.place(intent.symbol, intent.order, depth);
    }
    return intents;
  }

  private place(symbol: string, fields: OrderFieldsOf<string>, depth: number): void {
    const clientOrderId = `${fields.tag ?? 'o'}-${++this.seq}`;
    let quantity = fields.quantity;
    let price = fields.price;
    if (fields.type === 'MARKET') {
      price = this.referencePrice(symbol);
      if (quantity === undefined && fields.quoteOrderQty !== undefined) {
        const inst = this.view.instrument(symbol);
        const raw = dec(fields.quoteOrderQty).div(price);
        quantity = toWire(inst ? inst.roundQty(raw, 'down') : raw);
      }
    }
    const order: PaperOrder = { clientOrderId, tag: fields.tag, symbol, side: fields.side, type: fields.type, price, stopPrice: fields.stopPrice, quantity: quantity ?? '0', executedQty: '0' };
    this.resting.set(clientOrderId, order);
    this.sync();
    if (fields.type === 'MARKET') {
      this.execute(order, order.quantity, price as string, depth);
      return;
    }
    this.apply(this.runner.orderUpdate(this.update(order, 'NEW')), depth + 1);
  }

  private cancel(symbol: string, ref: string, depth: number): boolean {
    const o = this.order(ref);
    if (!o || o.symbol !== symbol) {
      this.notes.push(`cancel of '${ref}' found no resting order`);
      return false;
    }
    this.resting.delete(o.clientOrderId);
    this.sync();
    this.apply(this.runner.orderUpdate(this.update(o, 'CANCELED')), depth + 1);
    return true;
  }

  private execute(o: PaperOrder, qty: string, price: string, depth = 0): readonly Intent[] {
    const inst = this.view.instrument(o.symbol);
    const base = inst?.baseAsset ?? 'BASE';
    const quote = inst?.quoteAsset ?? 'QUOTE';
    const q = dec(qty);
    const notional = q.times(price);
    const sign = o.side === 'BUY' ? 1 : -1;
    this.adjust(base, q.times(sign));
    this.adjust(quote, notional.times(-sign));
    const pos = this.view.position(o.symbol);
    const held = pos ? dec(pos.base) : new D(0);
    const nextHeld = held.plus(q.times(sign));
    if (o.side === 'BUY') {
      const avg = pos?.avgEntryPrice === undefined ? dec(price) : dec(pos.avgEntryPrice).times(held).plus(notional).div(nextHeld);
      this.view.setPosition(o.symbol, toWire(nextHeld), toWire(avg.toDecimalPlaces(8)));
    } else {
      this.view.setPosition(o.symbol, toWire(nextHeld), nextHeld.gt(0) ? pos?.avgEntryPrice : undefined);
    }
    o.executedQty = toWire(dec(o.executedQty).plus(q));
    const filled = dec(o.executedQty).gte(o.quantity);
    if (filled) this.resting.delete(o.clientOrderId);
    this.sync();
    const status = filled ? 'FILLED' : 'PARTIALLY_FILLED';
    const out = [
      ...this.apply(
        this.runner.fill({
          symbol: o.symbol,
          clientOrderId: o.clientOrderId,
          ...(o.tag === undefined ? {} : { tag: o.tag }),
          orderId: String(this.seq),
          tradeId: String(++this.tradeSeq),
          side: o.side,
          price,
          qty,
          quoteQty: toWire(notional),
          commission: '0',
          commissionAsset: quote,
          isMaker: o.type !== 'MARKET',
          orderStatus: status,
          cumulativeQty: o.executedQty,
          time: this.view.time,
        }),
        depth + 1,
      ),
    ];
    out.push(...this.apply(this.runner.orderUpdate(this.update(o, status)), depth + 1));
    return out;
  }

  private update(o: PaperOrder, status: OrderStatus) {
    return {
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      ...(o.tag === undefined ? {} : { tag: o.tag }),
      orderId: String(this.seq),
      side: o.side,
      type: o.type,
      status,
      ...(o.price === undefined ? {} : { price: o.price }),
      origQty: o.quantity,
      executedQty: o.executedQty,
      cumulativeQuoteQty: o.price === undefined ? '0' : toWire(dec(o.executedQty).times(o.price)),
      time: this.view.time,
    };
  }

  private referencePrice(symbol: string): string {
    const interval = this.runner.setup.intervals[0] as Interval;
    const close = this.runner.series(symbol, interval)?.last?.exact.close;
    if (close !== undefined) return close;
    throw new Error(`no price for a MARKET order on ${symbol}: deliver a bar first`);
  }

  private adjust(asset: string, delta: InstanceType<typeof D>): void {
    const b = this.view.balances().find((x) => x.asset === asset);
    this.view.setBalance(asset, toWire(dec(b?.free ?? '0').plus(delta)), b?.locked ?? '0');
  }

  private sync(): void {
    this.view.setOpenOrders(
      [...this.resting.values()].map((o) => ({
        symbol: o.symbol,
        clientOrderId: o.clientOrderId,
        ...(o.tag === undefined ? {} : { tag: o.tag }),
        side: o.side,
        type: o.type,
        status: dec(o.executedQty).gt(0) ? 'PARTIALLY_FILLED' : 'NEW',
        ...(o.price === undefined ? {} : { price: o.price }),
        origQty: o.quantity,
        executedQty: o.executedQty,
        time: this.view.time,
      })),
    );
  }
}
