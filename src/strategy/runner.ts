/**
 * StrategyRunner: hosts one strategy instance. The engine pushes events in (closed bars, trades,
 * book tops, the strategy's order updates and fills, timer ticks) and gets validated intents
 * back (intent-schema.ts); the runner never talks to a venue itself.
 *
 * Isolation: a handler that throws, returns something that is not an intent list (or a Promise:
 * handlers are synchronous; or a value that throws when read: a getter, a Proxy), or returns an
 * invalid intent stops the strategy. The runner records
 * a StrategyFailure {strategy, handler, kind, message, stack, field, time}, hands it to
 * `onFailure`, calls no further handler (not even onStop) and returns no intents; it never
 * rethrows, so the host carries on. What to do with the strategy's open orders is the engine's
 * call. Host mistakes do throw: invalid params (StrategyParamsError, at construction) and a bar
 * fed before it closed (RunnerInputError: that would be lookahead).
 *
 * Closed bars only: a bar is accepted when clock.now() > bar.closeTime (the kline's closeTime is
 * its last millisecond, spec 2.6), so a backtest delivers each bar at openTime + interval. A bar
 * not newer than the series' last one (a re-sent kline after a reconnect) is ignored. Bars before
 * start() and bars while a series is still short of `warmup` only fill the history: with a number,
 * each series on its own; with a count per interval, onBar of a symbol waits until every declared
 * series of it has its count (a 1m bar is not handed over while the 1h series the strategy reads
 * is short), checked only until it first has them. A closed bar
 * is copied into its history's columns; its frozen Bar is built when something can read it: an
 * onBar that takes the bar argument, or the strategy asking its series (bar-series.ts).
 */
import type { Candle } from '../core/indicators/candle.ts';
import type { Dec } from '../core/money/decimal.ts';
import { dec, isDecimalText } from '../core/money/decimal.ts';
import { knownDecimal, parsedDecimal } from '../core/orders/decimal-cache.ts';
import { BarHistory } from './series/bar-series.ts';
import type { BarSeries } from './series/bar-series.ts';
import { createContext } from './context.ts';
import type { PlotStyle, StrategyContext } from './context.ts';
import type { AnyStrategyDefinition, Params, StrategyDefinition, StrategySetup } from './define.ts';
import { resolveSetup, warmupOf } from './define.ts';
import { withDenialHint } from './denial-hint.ts';
import { RunnerInputError } from './errors.ts';
import { frozenCopy } from './freeze.ts';
import { checkIntents } from './intents/intent-schema.ts';
import type { Intent } from './intents/intents.ts';
import { parseParams } from './params.ts';
import { readsArgument } from './reads-argument.ts';
import type { ParamsSchema } from './params.ts';
import type { StrategyStateView } from './state-view.ts';
import type {
  Amount,
  Bar,
  BookTop,
  BookTopInput,
  Denied,
  Fill,
  FillInput,
  HandlerName,
  Interval,
  OrderUpdate,
  OrderUpdateInput,
  StrategyFailure,
  StrategyLogEntry,
  StrategyPlotEntry,
  Trade,
  TradeInput,
} from './types.ts';

export type RunnerStatus = 'created' | 'running' | 'stopped' | 'failed';

export interface StrategyRunnerOptions {
  /** Raw params (from config or CLI); validated strictly against the definition's schema. */
  readonly params?: unknown;
  /** The engine's read-only state for this strategy. */
  readonly state: StrategyStateView;
  /** Called once when the strategy fails. */
  readonly onFailure?: (failure: StrategyFailure) => void;
  /** Called for each ctx.log line. */
  readonly onLog?: (entry: StrategyLogEntry) => void;
  /**
   * Called for each ctx.plot value (absent: ctx.plot does nothing, checks aside). The entry is the
   * runner's one object, rewritten for the next value: read it during the call, copy what you keep.
   */
  readonly onPlot?: (entry: StrategyPlotEntry) => void;
}

const NONE: readonly Intent[] = Object.freeze([]);

// Checked text goes through the shared memo (one fill's amounts reach the order manager, the
// strategy and the reports as the same strings); anything else through dec(), which says what is wrong.
/** Text dec() would accept as it is (no surrounding spaces): safe for the memo, which does not validate. */
const isCleanDecimalText = (a: Amount): a is string => typeof a === 'string' && isDecimalText(a) && a.trim() === a;
/** A memo hit is text parsed (so checked) before: no second check. */
const money = (a: Amount, field: string): Dec => (typeof a === 'string' ? (knownDecimal(a) ?? (isCleanDecimalText(a) ? parsedDecimal(a) : dec(a, field))) : dec(a, field));
const optMoney = (a: Amount | undefined, field: string): Dec | undefined => (a === undefined ? undefined : money(a, field));
/** `money` for an amount nobody reads: checked (bad input throws the same error), not parsed. */
const checkMoney = (a: Amount | undefined, field: string): void => {
  if (a === undefined || (typeof a === 'string' && knownDecimal(a) !== undefined) || isCleanDecimalText(a)) return;
  dec(a, field);
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The frozen OrderUpdate of an input: `{ ...input, price, stopPrice, origQty, executedQty,
 * cumulativeQuoteQty }` with the amounts as Decimals (converted in that order: the first bad one
 * is the error), written out rather than spread (a spread of a frozen object is several times
 * slower, and it runs for every order update). Same keys in the same order as the spread for an
 * input laid out as the order manager writes updates (managed-order.ts): its fields, then price,
 * stopPrice and origQty (undefined) where the input has none.
 */
function orderUpdateOf(input: OrderUpdateInput): OrderUpdate {
  const price = optMoney(input.price, 'price');
  const stopPrice = optMoney(input.stopPrice, 'stopPrice');
  const origQty = optMoney(input.origQty, 'origQty');
  const executedQty = money(input.executedQty, 'executedQty');
  const cumulativeQuoteQty = money(input.cumulativeQuoteQty, 'cumulativeQuoteQty');
  const u: Mutable<OrderUpdate> = { symbol: input.symbol, clientOrderId: input.clientOrderId, side: input.side, type: input.type, status: input.status, executedQty, cumulativeQuoteQty, time: input.time };
  const hasPrice = 'price' in input;
  const hasStop = 'stopPrice' in input;
  const hasOrig = 'origQty' in input;
  if ('tag' in input) u.tag = input.tag;
  if ('orderId' in input) u.orderId = input.orderId;
  if (hasPrice) u.price = price;
  if (hasStop) u.stopPrice = stopPrice;
  if (hasOrig) u.origQty = origQty;
  // A pre-trade denial names the context helper that avoids it (denial-hint.ts), when one does.
  if ('reason' in input) u.reason = input.status === 'DENIED' && input.reason !== undefined ? withDenialHint(input.reason) : input.reason;
  if (!hasPrice) u.price = undefined;
  if (!hasStop) u.stopPrice = undefined;
  if (!hasOrig) u.origQty = undefined;
  return Object.freeze(u);
}

/** The frozen Fill of an input: `{ ...input }` with the amounts as Decimals, written out (as `orderUpdateOf`, for fills as the order manager writes them). */
function fillOf(input: FillInput): Fill {
  const price = money(input.price, 'price');
  const qty = money(input.qty, 'qty');
  const quoteQty = money(input.quoteQty, 'quoteQty');
  const commission = money(input.commission, 'commission');
  const cumulativeQty = money(input.cumulativeQty, 'cumulativeQty');
  const f: Mutable<Fill> = { symbol: input.symbol, clientOrderId: input.clientOrderId, orderId: input.orderId, tradeId: input.tradeId, side: input.side, price, qty, quoteQty, commission, commissionAsset: input.commissionAsset, isMaker: input.isMaker, orderStatus: input.orderStatus, cumulativeQty, time: input.time };
  if ('tag' in input) f.tag = input.tag;
  return Object.freeze(f);
}

export class StrategyRunner<Schema extends ParamsSchema = ParamsSchema, S = unknown> {
  readonly name: string;
  readonly params: Params<Schema>;
  readonly setup: StrategySetup;
  private readonly def: StrategyDefinition<Schema, S>;
  private readonly view: StrategyStateView;
  private readonly options: StrategyRunnerOptions;
  private readonly histories = new Map<string, BarHistory>();
  private readonly books = new Map<string, BookTop>();
  private readonly trades = new Map<string, Trade>();
  private ctx: StrategyContext<Params<Schema>, S> | undefined;
  private current: RunnerStatus = 'created';
  private failed: StrategyFailure | undefined;
  private timerAt: number | undefined;
  private ignored = 0;
  private lastHistory: BarHistory | undefined;
  /** Bars a series must have seen before onBar runs: max(1, warmup); 1 with a warmup per interval (`cold` holds the rest). */
  private readonly onBarFrom: number;
  /**
   * With a warmup per interval: each symbol whose series do not all have their count yet, with
   * them and their counts. Undefined with a number, and once every symbol is warm: the bar path
   * then pays one comparison.
   */
  private cold: Map<string, readonly WarmupNeed[]> | undefined;
  /** When each symbol's series first all had their warm-up (per-interval form), by the clock. */
  private readonly warmTimes = new Map<string, number>();
  /** Whether onBar can read its bar argument (reads-argument.ts): when it cannot, no Bar is built for it. */
  private readonly onBarTakesBar: boolean;

  constructor(definition: StrategyDefinition<Schema, S>, options: StrategyRunnerOptions) {
    this.def = definition;
    this.name = definition.name;
    this.view = options.state;
    this.options = options;
    this.params = parseParams(definition.name, definition.params, options.params);
    this.setup = resolveSetup(definition, this.params);
    const perInterval = this.setup.warmupByInterval !== undefined;
    this.onBarFrom = perInterval ? 1 : Math.max(1, this.setup.warmup);
    this.onBarTakesBar = definition.onBar !== undefined && readsArgument(definition.onBar, 1);
    for (const symbol of this.setup.symbols) {
      for (const interval of this.setup.intervals) this.histories.set(key(symbol, interval), new BarHistory(symbol, interval, this.setup.history));
    }
    if (perInterval && this.setup.warmup > 0) {
      this.cold = new Map();
      for (const symbol of this.setup.symbols) {
        const needs = this.setup.intervals.map((i): WarmupNeed => ({ history: this.histories.get(key(symbol, i)) as BarHistory, bars: warmupOf(this.setup, i) })).filter((n) => n.bars > 0);
        this.cold.set(symbol, needs);
      }
    }
  }

  get status(): RunnerStatus {
    return this.current;
  }

  /** The failure report, once the strategy has failed. */
  get failure(): StrategyFailure | undefined {
    return this.failed;
  }

  /** When onTimer is next due (undefined without a timer or when not running). */
  get nextTimerAt(): number | undefined {
    return this.current === 'running' ? this.timerAt : undefined;
  }

  /** Bars ignored as duplicates or out of order. */
  get ignoredBars(): number {
    return this.ignored;
  }

  /**
   * When onBar of `symbol` was first let through by a warmup per interval (every series of it had
   * its count), by the clock; undefined before, and with a numeric warmup (each series on its own).
   */
  warmedAt(symbol: string): number | undefined {
    return this.warmTimes.get(symbol);
  }

  /** The declared series of `symbol` still short of their warm-up: what each needs and has (for notices and tests). */
  warmupShort(symbol: string): { interval: Interval; needs: number; has: number }[] {
    const out: { interval: Interval; needs: number; has: number }[] = [];
    for (const interval of this.setup.intervals) {
      const has = this.histories.get(key(symbol, interval))?.count ?? 0;
      const needs = warmupOf(this.setup, interval);
      if (has < needs) out.push({ interval, needs, has });
    }
    return out;
  }

  /** The read-only history of a declared series (for reports and charts). */
  series(symbol: string, interval: Interval): BarSeries | undefined {
    return this.histories.get(key(symbol, interval))?.view;
  }

  /** Load history (e.g. klines fetched at start) without calling any handler. */
  preload(symbol: string, interval: Interval, candles: Iterable<Candle>): void {
    const history = this.history(symbol, interval);
    if (!history) return;
    for (const c of candles) if (this.accept(history, symbol, interval, c)) history.push(c);
  }

  /** Build the state and call onStart. */
  start(): readonly Intent[] {
    if (this.current !== 'created') return NONE;
    let state: S;
    try {
      state = (this.def.state ? this.def.state(this.params) : undefined) as S;
    } catch (e) {
      this.current = 'running';
      this.fail('onStart', 'threw', errorMessage(e, 'state(params) threw'), stackOf(e));
      return NONE;
    }
    this.ctx = createContext({
      name: this.name,
      params: this.params,
      state,
      symbols: this.setup.symbols,
      intervals: this.setup.intervals,
      view: this.view,
      series: (symbol, interval) => this.history(symbol, interval)?.view,
      book: (symbol) => this.books.get(symbol),
      lastTrade: (symbol) => this.trades.get(symbol),
      log: (message, data) => this.options.onLog?.({ strategy: this.name, time: this.view.now(), message, ...(data === undefined ? {} : { data: frozenCopy(data) }) }),
      ...(this.options.onPlot === undefined ? {} : { plot: this.plotTo(this.options.onPlot) }),
    });
    this.current = 'running';
    const timer = this.setup.timerMs;
    if (timer !== undefined) this.timerAt = nextAligned(this.view.now(), timer);
    return this.call('onStart', this.def.onStart && ((ctx) => this.def.onStart?.(ctx)));
  }

  /** A bar has closed. Throws RunnerInputError if it has not (lookahead). */
  bar(symbol: string, interval: Interval, candle: Candle): readonly Intent[] {
    const history = this.history(symbol, interval);
    if (!history || !this.accept(history, symbol, interval, candle)) return NONE;
    // Copied into the history; the frozen Bar is built from it only for a reader (history.last).
    history.push(candle);
    if (history.count < this.onBarFrom) return NONE;
    if (this.cold !== undefined && !this.warm(symbol)) return NONE;
    const onBar = this.def.onBar;
    if (!onBar || this.current !== 'running') return NONE;
    // An onBar(ctx) cannot see its second argument: it gets nothing rather than a Bar nobody reads.
    return this.callWith('onBar', onBar, this.onBarTakesBar ? (history.last as Bar) : (undefined as unknown as Bar));
  }

  trade(input: TradeInput): readonly Intent[] {
    if (!this.setup.symbols.includes(input.symbol)) return NONE;
    const trade: Trade = Object.freeze({
      symbol: input.symbol,
      id: input.id,
      price: Number(input.price),
      qty: Number(input.qty),
      time: input.time,
      buyerIsMaker: input.buyerIsMaker,
      exact: Object.freeze({ price: input.price, qty: input.qty }),
    });
    this.trades.set(trade.symbol, trade);
    return this.call('onTrade', this.def.onTrade && ((ctx) => this.def.onTrade?.(ctx, trade)));
  }

  bookTop(input: BookTopInput): readonly Intent[] {
    if (!this.setup.symbols.includes(input.symbol)) return NONE;
    const bid = Number(input.bidPrice);
    const ask = Number(input.askPrice);
    const top: BookTop = Object.freeze({
      symbol: input.symbol,
      bidPrice: bid,
      bidQty: Number(input.bidQty),
      askPrice: ask,
      askQty: Number(input.askQty),
      mid: (bid + ask) / 2,
      time: input.time,
      exact: Object.freeze({ bidPrice: input.bidPrice, bidQty: input.bidQty, askPrice: input.askPrice, askQty: input.askQty }),
    });
    this.books.set(top.symbol, top);
    return this.call('onBookTop', this.def.onBookTop && ((ctx) => this.def.onBookTop?.(ctx, top)));
  }

  orderUpdate(input: OrderUpdateInput): readonly Intent[] {
    const handler = this.def.onOrderUpdate;
    if (!handler || this.current !== 'running') {
      // Nobody reads it: the amounts are still checked (bad input throws as always), no frozen copy is built.
      checkMoney(input.price, 'price');
      checkMoney(input.stopPrice, 'stopPrice');
      checkMoney(input.origQty, 'origQty');
      checkMoney(input.executedQty, 'executedQty');
      checkMoney(input.cumulativeQuoteQty, 'cumulativeQuoteQty');
      return NONE;
    }
    return this.callWith('onOrderUpdate', handler, orderUpdateOf(input));
  }

  fill(input: FillInput): readonly Intent[] {
    const handler = this.def.onFill;
    if (!handler || this.current !== 'running') {
      // As in orderUpdate: checked, not copied, when no handler reads it.
      checkMoney(input.price, 'price');
      checkMoney(input.qty, 'qty');
      checkMoney(input.quoteQty, 'quoteQty');
      checkMoney(input.commission, 'commission');
      checkMoney(input.cumulativeQty, 'cumulativeQty');
      return NONE;
    }
    return this.callWith('onFill', handler, fillOf(input));
  }

  /** A cancel or cancel-replace refused with no order to update (types.ts Denied): onDenial, if the strategy has one. */
  denial(input: Denied): readonly Intent[] {
    const handler = this.def.onDenial;
    if (!handler || this.current !== 'running') return NONE;
    const view: Denied = Object.freeze({
      intent: input.intent,
      symbol: input.symbol,
      tag: input.tag,
      clientOrderId: input.clientOrderId,
      reasons: Object.freeze([...input.reasons]),
      time: input.time,
    });
    return this.callWith('onDenial', handler, view);
  }

  /**
   * Fire onTimer if it is due at `now` (default: the clock). One call per due time; a host that
   * fell behind gets one call with the latest due time (missed ticks are not replayed).
   */
  timer(now: number = this.view.now()): readonly Intent[] {
    const timer = this.setup.timerMs;
    if (this.current !== 'running' || timer === undefined || this.timerAt === undefined || now < this.timerAt) return NONE;
    const due = now - ((now - this.timerAt) % timer);
    this.timerAt = due + timer;
    return this.call('onTimer', this.def.onTimer && ((ctx) => this.def.onTimer?.(ctx, due)));
  }

  /** Call onStop (once) and stop. Intents it returns (cancels) are delivered. */
  stop(reason = 'requested'): readonly Intent[] {
    if (this.current === 'created') {
      this.current = 'stopped';
      return NONE;
    }
    if (this.current !== 'running') return NONE;
    const out = this.call('onStop', this.def.onStop && ((ctx) => this.def.onStop?.(ctx, Object.freeze({ reason }))));
    if (this.current === 'running') this.current = 'stopped';
    return out;
  }

  /**
   * Fail the strategy for a reason its host found (the kernel: an intent loop): recorded and
   * reported like a failure of its own, no handler (not even onStop) runs after. No-op unless running.
   */
  abort(handler: HandlerName, kind: StrategyFailure['kind'], message: string): void {
    if (this.current === 'running') this.fail(handler, kind, message);
  }

  /** Per-interval warm-up: whether every declared series of `symbol` has its count (once they have, the symbol is not checked again). */
  private warm(symbol: string): boolean {
    const cold = this.cold as Map<string, readonly WarmupNeed[]>;
    const needs = cold.get(symbol);
    if (needs === undefined) return true;
    // Not before start(): a bar fed then only fills the history (the time wanted is when onBar could first run).
    if (this.current === 'created') return false;
    for (const n of needs) if (n.history.count < n.bars) return false;
    cold.delete(symbol);
    this.warmTimes.set(symbol, this.view.now());
    if (cold.size === 0) this.cold = undefined;
    return true;
  }

  /** Whether a bar may be stored: throws if it has not closed (lookahead); false (counted) for a duplicate or older one. */
  private accept(history: BarHistory, symbol: string, interval: Interval, candle: Candle): boolean {
    const now = this.view.now();
    if (!(now > candle.closeTime)) {
      throw new RunnerInputError(`${symbol} ${interval} bar opening at ${candle.openTime} closes at ${candle.closeTime}, but the clock is at ${now}: only closed bars may reach a strategy`);
    }
    // history.isAfterLast rather than reading lastOpenTime: a double returned is a heap number a bar.
    if (!history.isAfterLast(candle.openTime)) {
      this.ignored++;
      return false;
    }
    return true;
  }

  /** The history of a declared series; the last one asked for is remembered (a bar loop asks for the same one every bar). */
  private history(symbol: string, interval: Interval): BarHistory | undefined {
    const hit = this.lastHistory;
    if (hit !== undefined && hit.symbol === symbol && hit.interval === interval) return hit;
    const h = this.histories.get(key(symbol, interval));
    if (h !== undefined) this.lastHistory = h;
    return h;
  }

  /**
   * ctx.plot's sink: the host's, each value with its name's style (the context keeps the first one
   * given and limits the names). One entry object, rewritten for every value and handed over
   * (onPlot reads it during the call; StrategyRunnerOptions.onPlot): a strategy plotting two lines
   * every bar made two objects a bar, with a spread, about 1.05 million over a backtested year of
   * 1-minute bars. `color` is always a field (undefined when the name has none): one shape.
   */
  private plotTo(onPlot: (entry: StrategyPlotEntry) => void): (name: string, value: number, style: PlotStyle) => void {
    const entry: { -readonly [K in keyof StrategyPlotEntry]: StrategyPlotEntry[K] } = { strategy: this.name, name: '', time: 0, value: 0, pane: 'price', color: undefined };
    const view = this.view;
    return (name, value, style) => {
      entry.name = name;
      entry.time = view.now();
      entry.value = value;
      entry.pane = style.pane;
      entry.color = style.color;
      onPlot(entry);
    };
  }

  private call(handler: HandlerName, fn: ((ctx: StrategyContext<Params<Schema>, S>) => unknown) | undefined): readonly Intent[] {
    return this.callWith(handler, fn, undefined);
  }

  /** `fn(ctx, arg)` as a handler call: `call` without a closure per event (onBar runs every bar). */
  private callWith<A>(handler: HandlerName, fn: ((ctx: StrategyContext<Params<Schema>, S>, arg: A) => unknown) | undefined, arg: A): readonly Intent[] {
    const ctx = this.ctx;
    if (this.current !== 'running' || !fn || !ctx) return NONE;
    let out: unknown;
    try {
      out = fn.call(this.def, ctx, arg);
    } catch (e) {
      this.fail(handler, 'threw', errorMessage(e), stackOf(e));
      return NONE;
    }
    if (out === undefined) return NONE;
    let checked: ReturnType<typeof checkIntents> | undefined;
    // Reading what came back can run the strategy's code too (a getter, a Proxy, a thenable's
    // `then`): a throw there is the strategy's failure, never the host's.
    try {
      if (typeof out === 'object' && out !== null && typeof (out as { then?: unknown }).then === 'function') {
        // Swallow the promise's own outcome so an async handler cannot crash the host with an unhandled rejection.
        (out as Promise<unknown>).then(undefined, () => undefined);
      } else checked = checkIntents(out, this.setup.symbols);
    } catch (e) {
      this.fail(handler, 'bad-return', errorMessage(e, `${handler} returned a value that threw when read`), stackOf(e));
      return NONE;
    }
    if (checked === undefined) {
      this.fail(handler, 'bad-return', `${handler} returned a Promise: handlers must be synchronous and return intents`);
      return NONE;
    }
    if (!checked.ok) {
      this.fail(handler, checked.kind, checked.message, undefined, checked.field);
      return NONE;
    }
    return checked.intents;
  }

  private fail(handler: HandlerName, kind: StrategyFailure['kind'], message: string, stack?: string, field?: string): void {
    this.current = 'failed';
    this.timerAt = undefined;
    const failure: StrategyFailure = Object.freeze({
      strategy: this.name,
      handler,
      kind,
      message,
      ...(stack === undefined ? {} : { stack }),
      ...(field === undefined ? {} : { field }),
      time: this.view.now(),
    });
    this.failed = failure;
    this.options.onFailure?.(failure);
  }
}

const key = (symbol: string, interval: Interval) => `${symbol}|${interval}`;

/** A series and the closed bars it needs before onBar runs (per-interval warm-up). */
interface WarmupNeed {
  readonly history: BarHistory;
  readonly bars: number;
}

/** What was thrown, as text; never throws itself (a thrown value may have no toString, or one that throws). */
function errorMessage(e: unknown, prefix?: string): string {
  let text: string;
  try {
    text = e instanceof Error ? String(e.message) : String(e);
  } catch {
    text = 'a value that cannot be printed was thrown';
  }
  return prefix ? `${prefix}: ${text}` : text;
}

/** The stack of a thrown Error, if it can be read without throwing. */
function stackOf(e: unknown): string | undefined {
  try {
    return e instanceof Error && typeof e.stack === 'string' ? e.stack : undefined;
  } catch {
    return undefined;
  }
}

/** The first multiple of `period` strictly after `now`. */
function nextAligned(now: number, period: number): number {
  return Math.floor(now / period) * period + period;
}

/** A runner over any definition (what hosts keep in lists). */
export type AnyStrategyRunner = StrategyRunner<ParamsSchema, unknown>;

/** Convenience: a runner for a definition of unknown params (loader output). */
export function createRunner(definition: AnyStrategyDefinition, options: StrategyRunnerOptions): AnyStrategyRunner {
  return new StrategyRunner(definition, options);
}
