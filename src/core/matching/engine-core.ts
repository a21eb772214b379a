/**
 * The engine's core: symbols, placing and canceling, stop triggering, and the operation life
 * cycle (one reused context, events delivered at the end). Model and assumptions: engine.ts.
 */
import { ENGINE_MESSAGE } from '../market/index.ts';
import type { Instrument } from '../market/index.ts';
import type { Balances } from '../portfolio/balances.ts';
import { AccountRegistry } from './accounts/account-registry.ts';
import type { AccountStream } from './accounts/account-stream.ts';
import { admit } from './admission.ts';
import type { MarketRefs } from './admission.ts';
import { externalPriceInt, setStopPrices } from './external.ts';
import { activate, latestByClientId, register, rest, retire } from './lifecycle.ts';
import { execute } from './matcher.ts';
import { OpContext } from './op-context.ts';
import { IdSequence } from './book/id-sequence.ts';
import { OrderIndex } from './book/order-index.ts';
import { Order, Placed, snapshotOf } from './book/order.ts';
import { pruneHistory } from './accounts/retention.ts';
import { EngineStateRecord } from './state.ts';
import type { EngineState } from './state.ts';
import { SymbolBook } from './book/symbol-book.ts';
import { buildSymbolSpec, feesFor } from './numbers/symbol-spec.ts';
import type { FeeRates } from './numbers/symbol-spec.ts';
import type { CancelResult, EngineEvent, NewOrderRequest, OrderRef, OrderSnapshot, PlaceOptions, PlaceResult, Rejection } from './types.ts';
import { ParsedOrder, parseOrder, reject } from './validate.ts';

export interface SpotEngineOptions {
  readonly instruments: ReadonlyMap<string, Instrument> | Iterable<Instrument>;
  /** Maker / taker rates per symbol; symbols not listed use `defaultFees` (else zero). */
  readonly fees?: ReadonlyMap<string, FeeRates> | Readonly<Record<string, FeeRates>>;
  readonly defaultFees?: FeeRates;
  readonly feeAccountId: string;
  /** The first order id (default 1); later ones count up from it (id-sequence.ts). The sandbox starts above 2^53, as the venue's. */
  readonly firstOrderId?: bigint;
  /** The first trade id (default 1). */
  readonly firstTradeId?: bigint;
  readonly balances: Balances;
  /** Called with every event, in order, when an operation ends. */
  readonly listener?: (event: EngineEvent) => void;
  /** Build events (default true). Off, results carry `events: []` and the listener is not called. */
  readonly recordEvents?: boolean;
  /**
   * Stream one account's execution reports and balances as venue events (account-stream.ts)
   * instead of building EngineEvents: results then carry `events: []` and the listener is not
   * called, whatever `recordEvents` says.
   */
  readonly accountStream?: AccountStream;
  /** Reference prices for PERCENT_PRICE / _SA / _INDEX filters (the engine keeps no averages). */
  readonly marketRefs?: MarketRefs;
  /** Closed orders and trades kept per account and symbol (default: all). Older ones are forgotten. */
  readonly retain?: number;
}

export class EngineCore {
  /** @internal shared with the helpers of this folder. */
  readonly st: EngineState;
  /** @internal */
  readonly books = new Map<string, SymbolBook>();
  /** @internal */
  readonly accounts: AccountRegistry;
  private readonly record: boolean;
  private readonly scratch: OpContext;
  private readonly parsed: ParsedOrder;
  private readonly feeOverrides = new Map<string, FeeRates>();
  private readonly outbox: EngineEvent[] = [];
  private dispatching = false;
  private lastSymbol = '';
  private lastBook: SymbolBook | undefined;

  // What the order path reads of the options, copied out of the caller's object: see state.ts
  // EngineStateRecord (a backtest makes an engine, and its options object, per run).
  private readonly marketRefs: MarketRefs | undefined;
  private readonly retain: number | undefined;
  private readonly listener: ((event: EngineEvent) => void) | undefined;

  constructor(private readonly opts: SpotEngineOptions) {
    this.marketRefs = opts.marketRefs;
    this.retain = opts.retain;
    this.listener = opts.listener;
    this.parsed = new ParsedOrder();
    this.st = new EngineStateRecord(opts.balances, opts.feeAccountId, new IdSequence(opts.firstOrderId ?? 1n), new IdSequence(opts.firstTradeId ?? 1n), new OrderIndex());
    const stream = opts.accountStream ?? null;
    this.record = stream === null && (opts.recordEvents ?? true);
    this.scratch = new OpContext(this.record, stream);
    this.accounts = new AccountRegistry(opts.balances);
    const list = 'values' in opts.instruments && typeof opts.instruments.values === 'function' ? opts.instruments.values() : opts.instruments;
    for (const inst of list as Iterable<Instrument>) this.addInstrument(inst);
  }

  /** Add a symbol, or replace its rules (status, filters); its scales must not change while it has orders. */
  addInstrument(inst: Instrument): void {
    const spec = buildSymbolSpec(inst, this.feesOf(inst.symbol));
    const existing = this.books.get(inst.symbol);
    if (existing === undefined) {
      const b = this.st.balances;
      this.books.set(inst.symbol, new SymbolBook(spec, b.entry(this.st.feeAccountId, inst.baseAsset), b.entry(this.st.feeAccountId, inst.quoteAsset), this.st.orderIds, this.st.tradeIds));
      return;
    }
    const old = existing.spec;
    if (old.pd !== spec.pd || old.qd !== spec.qd || old.baseAsset !== spec.baseAsset || old.quoteAsset !== spec.quoteAsset) {
      throw new RangeError(`${inst.symbol}: new rules change the price or quantity scale or the assets`);
    }
    existing.spec = spec;
  }

  /** Change a symbol's maker / taker rates from now on (fills already made keep theirs). */
  setFees(symbol: string, fees: FeeRates): void {
    const sb = this.books.get(symbol);
    if (sb === undefined) throw new RangeError(`unknown symbol ${symbol}`);
    this.feeOverrides.set(symbol, fees);
    sb.spec = buildSymbolSpec(sb.spec.instrument, fees);
  }

  placeOrder(accountId: string, req: NewOrderRequest, now: number, opts?: PlaceOptions): PlaceResult {
    const sb = this.bookOf(req.symbol);
    if (sb === undefined) return reject(-1025, "parameter 'symbol' is not valid");
    const p = parseOrder(sb.spec, req, this.parsed);
    if (!p.ok) return p;
    // (No `opts = {}` default: that allocated an object per call.)
    const ext = opts?.externalPrice === undefined ? -1 : externalPriceInt(sb.spec, opts.externalPrice, p.side === 'BUY' ? 'up' : 'down');
    const acct = this.accounts.get(accountId, sb);
    const lock = admit(this.st, sb, acct, req, p, now, ext, this.marketRefs);
    if (typeof lock === 'object') return lock;
    const ctx = this.context(now);
    ctx.ext = ext;
    if (opts?.stopPrices !== undefined) setStopPrices(ctx, sb.spec, opts.stopPrices);
    const explicitId = req.clientOrderId !== undefined && req.clientOrderId !== '';
    const o = new Order(acct, this.st.orderIds.take(this.st.seq++), explicitId ? (req.clientOrderId as string) : null, p, now);
    ctx.fillsOf = o;
    register(this.st, ctx, o, lock, explicitId, p.sameClientId);
    if (o.isAlgo) sb.stops.add(o);
    else if (o.type === 'LIMIT_MAKER') rest(ctx, o);
    else execute(this.st, ctx, o);
    this.runTriggered(ctx);
    if (this.retain !== undefined) pruneHistory(this.st, acct, this.retain);
    // Read everything before end(): a listener may start another operation on the same context.
    const placed = new Placed(o, ctx.takerTrades);
    placed.events = this.end(ctx);
    return placed;
  }

  /**
   * Spec 4.5 order/test: every check `placeOrder` makes (combination, filters, post-only, duplicate
   * client id, stop trigger rule, funds), by the same code, and nothing placed or locked.
   * Undefined when the order would be accepted.
   */
  testOrder(accountId: string, req: NewOrderRequest, now: number, opts?: PlaceOptions): Rejection | undefined {
    const sb = this.books.get(req.symbol);
    if (sb === undefined) return reject(-1025, "parameter 'symbol' is not valid");
    const p = parseOrder(sb.spec, req, new ParsedOrder());
    if (!p.ok) return p;
    const ext = opts?.externalPrice === undefined ? -1 : externalPriceInt(sb.spec, opts.externalPrice, p.side === 'BUY' ? 'up' : 'down');
    const verdict = admit(this.st, sb, this.accounts.get(accountId, sb), req, p, now, ext, this.marketRefs);
    return typeof verdict === 'object' ? verdict : undefined;
  }

  cancelOrder(accountId: string, symbol: string, ref: OrderRef, now: number): CancelResult {
    const sb = this.books.get(symbol);
    if (!given(ref.orderId) && !given(ref.clientOrderId)) return reject(-2011, ENGINE_MESSAGE.cancelInvalid);
    const o = sb === undefined ? undefined : this.find(accountId, sb, ref)[0];
    if (o === undefined || !o.isOpen) return reject(-2011, ENGINE_MESSAGE.unknownOrder);
    const ctx = this.context(now);
    retire(ctx, o, 'CANCELED', 'CANCELED');
    const order = snapshotOf(o);
    return { ok: true, order, events: this.end(ctx) };
  }

  /** Cancel every open order of the account on the symbol (spec 4.5 DELETE openOrders). */
  cancelAll(accountId: string, symbol: string, now: number): { ok: true; orders: OrderSnapshot[]; events: EngineEvent[] } {
    const acct = this.accounts.peek(accountId, symbol);
    const ctx = this.context(now);
    const orders: OrderSnapshot[] = [];
    for (const o of acct === undefined ? [] : acct.openOrders()) {
      retire(ctx, o, 'CANCELED', 'CANCELED');
      orders.push(snapshotOf(o));
    }
    return { ok: true, orders, events: this.end(ctx) };
  }

  /** @internal Orders of the account on the symbol by id (one) or client order id (newest first). */
  find(accountId: string, sb: SymbolBook, ref: OrderRef): Order[] {
    if (given(ref.orderId)) {
      const o = this.st.ordersById.get(this.st.orderIds.position(ref.orderId));
      return o !== undefined && o.sb === sb && o.acct.accountId === accountId ? [o] : [];
    }
    const out: Order[] = [];
    if (!given(ref.clientOrderId)) return out;
    const acct = this.accounts.peek(accountId, sb.spec.symbol);
    if (acct === undefined) return out;
    for (let o = latestByClientId(this.st, acct, ref.clientOrderId); o; o = o.prevSameClientId ?? undefined) out.push(o);
    return out;
  }

  /** @internal Run the stops triggered during the operation, each after the previous finished. */
  runTriggered(ctx: OpContext): void {
    for (let o = ctx.pending.shift(); o !== undefined; o = ctx.pending.shift()) {
      if (!o.isOpen || o.working) continue;
      activate(ctx, o);
      execute(this.st, ctx, o);
    }
  }

  /** The symbol's book; the last one asked for is remembered (a flow of orders mostly repeats its symbol). */
  private bookOf(symbol: string): SymbolBook | undefined {
    if (symbol === this.lastSymbol && this.lastBook !== undefined) return this.lastBook;
    const sb = this.books.get(symbol);
    if (sb !== undefined) {
      this.lastSymbol = symbol;
      this.lastBook = sb;
    }
    return sb;
  }

  /** @internal A fresh operation context. */
  context(now: number): OpContext {
    // Reserve ids before the operation changes anything (id-sequence.ts): a reservation that
    // fails then fails the operation whole. No-ops unless the owner reserves.
    this.st.orderIds.ahead(this.st.seq);
    this.st.tradeIds.ahead(this.st.tradeSeq);
    return this.scratch.reset(now);
  }

  /**
   * @internal Close the operation: final depth and balance events, then the listener. A listener
   * may call the engine; the nested operation's events are delivered after the current ones.
   */
  end(ctx: OpContext): EngineEvent[] {
    const events = ctx.finish();
    const listener = this.listener;
    if (!this.record || listener === undefined) return events;
    for (const e of events) this.outbox.push(e);
    if (this.dispatching) return events;
    this.dispatching = true;
    try {
      for (let i = 0; i < this.outbox.length; i++) listener(this.outbox[i] as EngineEvent);
    } finally {
      this.outbox.length = 0;
      this.dispatching = false;
    }
    return events;
  }


  private feesOf(symbol: string): FeeRates | undefined {
    return this.feeOverrides.get(symbol) ?? feesFor(this.opts.fees, symbol) ?? this.opts.defaultFees;
  }

}

const given = (v: string | undefined): v is string => v !== undefined && v !== '';
