/**
 * The read-only context a handler receives. Everything in it is frozen or immutable (Decimal);
 * the one mutable thing is `ctx.state`, the strategy instance's own state from `state(params)`.
 * Strategies get no exchange client, no keys and no feed: market data reaches them as closed bars,
 * trades and book tops the runner has recorded; account data is converted from the engine's
 * StrategyStateView on each call. Misuse (a symbol the strategy did not declare) throws a
 * StrategyContextError into the handler, which the runner reports like any other throw.
 */
import type { Dec } from '../core/money/decimal.ts';
import { D, dec } from '../core/money/decimal.ts';
import type { BarSeries } from './bar-series.ts';
import { StrategyContextError } from './errors.ts';
import type { InstrumentView } from './instrument-view.ts';
import { instrumentView } from './instrument-view.ts';
import type { StrategyStateView } from './state-view.ts';
import type { Instrument } from '../core/market/instrument.ts';
import type { Amount, Balance, BookTop, Interval, OpenOrder, OpenOrderInput, Position, PositionInput, Trade } from './types.ts';

export interface StrategyContext<P = Readonly<Record<string, unknown>>, S = unknown> {
  /** The strategy's name. */
  readonly name: string;
  /** Validated, frozen parameters. */
  readonly params: P;
  /** The instance's own mutable state, from the definition's `state(params)` (undefined without one). */
  readonly state: S;
  /** Declared symbols, and the first of them (for single-symbol strategies). */
  readonly symbols: readonly string[];
  readonly symbol: string;
  readonly intervals: readonly Interval[];
  /** Clock time (virtual in backtests). */
  now(): number;
  /** Closed bars of a declared symbol and interval (defaults: the first of each). */
  bars(symbol?: string, interval?: Interval): BarSeries;
  /** The last book top received for the symbol. */
  book(symbol?: string): BookTop | undefined;
  /** The last public trade received for the symbol. */
  lastTrade(symbol?: string): Trade | undefined;
  /** Free and locked of an asset (zero when the account has none). */
  balance(asset: string): Balance;
  balances(): readonly Balance[];
  /** What is held for the symbol (zero when nothing). */
  position(symbol?: string): Position;
  /** The strategy's own open orders. */
  openOrders(symbol?: string): readonly OpenOrder[];
  /** Rules and rounding helpers of a declared symbol. */
  instrument(symbol?: string): InstrumentView;
  /** A log line, attributed to the strategy by the host. */
  log(message: string, data?: Record<string, unknown>): void;
}

/** What the runner passes in to build a context; none of it is reachable from the context. */
export interface ContextSource<P, S> {
  readonly name: string;
  readonly params: P;
  readonly state: S;
  readonly symbols: readonly string[];
  readonly intervals: readonly Interval[];
  readonly view: StrategyStateView;
  /** The series of a declared pair: the same object on every call (the context keeps the default one). */
  series(symbol: string, interval: Interval): BarSeries | undefined;
  book(symbol: string): BookTop | undefined;
  lastTrade(symbol: string): Trade | undefined;
  log(message: string, data?: Record<string, unknown>): void;
}

const ZERO = new D(0);
/** `d.gt(0)` (false for zero, negatives and NaN). */
const above0 = (d: Dec): boolean => d.isPositive() && !d.isZero();
const amount = (a: Amount | undefined, field: string): Dec | undefined => (a === undefined ? undefined : dec(a, field));

function openOrder(o: OpenOrderInput): OpenOrder {
  return Object.freeze({
    symbol: o.symbol,
    clientOrderId: o.clientOrderId,
    tag: o.tag,
    orderId: o.orderId,
    side: o.side,
    type: o.type,
    status: o.status,
    price: amount(o.price, 'price'),
    stopPrice: amount(o.stopPrice, 'stopPrice'),
    origQty: amount(o.origQty, 'origQty'),
    executedQty: dec(o.executedQty, 'executedQty'),
    time: o.time,
  });
}

export function createContext<P, S>(src: ContextSource<P, S>): StrategyContext<P, S> {
  const first = src.symbols[0] as string;
  const firstInterval = src.intervals[0] as Interval;
  const declared = (symbol: string): string => {
    // The first symbol (the default, what a single-symbol strategy asks for every bar) without a search.
    if ((symbol !== first || first === undefined) && !src.symbols.includes(symbol)) throw new StrategyContextError(`'${symbol}' is not one of the strategy's symbols (${src.symbols.join(', ')})`);
    return symbol;
  };
  /** The series of the first symbol and interval, once looked up. */
  let defaultSeries: BarSeries | undefined;
  const views = new WeakMap<object, InstrumentView>();
  const positions = new Map<string, { input: PositionInput | undefined; inst: Instrument | undefined; out: Position }>();
  /** The first symbol's entry of `positions`, kept apart (read every bar by a single-symbol strategy). */
  let firstPosition: { input: PositionInput | undefined; inst: Instrument | undefined; out: Position } | undefined;
  const instrument = (symbol = first): InstrumentView => {
    const inst = src.view.instrument(declared(symbol));
    if (!inst) throw new StrategyContextError(`no exchange rules known for '${symbol}' (exchangeInfo not loaded?)`);
    let v = views.get(inst);
    if (!v) views.set(inst, (v = instrumentView(inst)));
    return v;
  };
  const balance = (asset: string): Balance => {
    const b = src.view.balances().find((x) => x.asset === asset);
    const free = b ? dec(b.free, `${asset}.free`) : ZERO;
    const locked = b ? dec(b.locked, `${asset}.locked`) : ZERO;
    return Object.freeze({ asset, free, locked, total: free.plus(locked) });
  };
  const members: StrategyContext<P, S> = {
    name: src.name,
    params: src.params,
    state: src.state,
    symbols: src.symbols,
    symbol: first,
    intervals: src.intervals,
    now: () => src.view.now(),
    bars(symbol = first, interval = firstInterval) {
      const isDefault = symbol === first && interval === firstInterval;
      if (isDefault && defaultSeries !== undefined) return defaultSeries;
      const s = src.series(declared(symbol), interval);
      if (!s) throw new StrategyContextError(`interval '${interval}' is not one of the strategy's intervals (${src.intervals.join(', ')})`);
      if (isDefault) defaultSeries = s;
      return s;
    },
    book: (symbol = first) => src.book(declared(symbol)),
    lastTrade: (symbol = first) => src.lastTrade(declared(symbol)),
    balance,
    balances: () => Object.freeze(src.view.balances().map((b) => balance(b.asset))),
    position(symbol = first) {
      const p = src.view.position(declared(symbol));
      const inst = src.view.instrument(symbol);
      // The engine hands out one position object per change: reuse the converted view while it (and the rules) stay the same.
      const hit = symbol === first ? firstPosition : positions.get(symbol);
      if (hit !== undefined && hit.input === p && hit.inst === inst) return hit.out;
      const base = p ? dec(p.base, 'position.base') : ZERO;
      const minQty = inst?.filter('LOT_SIZE')?.minQty;
      // `d > 0` without decimal.js's copy of a Decimal(0) per comparison.
      const flat = !above0(base) || (minQty !== undefined && above0(minQty) && base.lt(minQty));
      const out: Position = Object.freeze({ symbol, base, avgEntryPrice: amount(p?.avgEntryPrice, 'position.avgEntryPrice'), flat });
      const entry = { input: p, inst, out };
      if (symbol === first) firstPosition = entry;
      else positions.set(symbol, entry);
      return out;
    },
    openOrders: (symbol) => Object.freeze(src.view.openOrders(symbol === undefined ? undefined : declared(symbol)).map(openOrder)),
    instrument,
    log: (message, data) => src.log(String(message), data),
  };
  return Object.freeze(new Context(members));
}

/**
 * The context object: the members of createContext's literal, copied into an instance of a
 * class (own fields, in the interface's order, so spreading or destructuring it works as before).
 * A class rather than the literal itself: docs/architecture.md, "Objects made once per run"
 * (a literal made once per run, holding the params and state objects, deoptimised every
 * handler that read them when the next run made it again).
 */
class Context<P, S> implements StrategyContext<P, S> {
  readonly name: string;
  readonly params: P;
  readonly state: S;
  readonly symbols: readonly string[];
  readonly symbol: string;
  readonly intervals: readonly Interval[];
  readonly now: StrategyContext<P, S>['now'];
  readonly bars: StrategyContext<P, S>['bars'];
  readonly book: StrategyContext<P, S>['book'];
  readonly lastTrade: StrategyContext<P, S>['lastTrade'];
  readonly balance: StrategyContext<P, S>['balance'];
  readonly balances: StrategyContext<P, S>['balances'];
  readonly position: StrategyContext<P, S>['position'];
  readonly openOrders: StrategyContext<P, S>['openOrders'];
  readonly instrument: StrategyContext<P, S>['instrument'];
  readonly log: StrategyContext<P, S>['log'];

  constructor(m: StrategyContext<P, S>) {
    this.name = m.name;
    this.params = m.params;
    this.state = m.state;
    this.symbols = m.symbols;
    this.symbol = m.symbol;
    this.intervals = m.intervals;
    this.now = m.now;
    this.bars = m.bars;
    this.book = m.book;
    this.lastTrade = m.lastTrade;
    this.balance = m.balance;
    this.balances = m.balances;
    this.position = m.position;
    this.openOrders = m.openOrders;
    this.instrument = m.instrument;
    this.log = m.log;
  }
}
