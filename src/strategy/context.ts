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
import type { BarSeries } from './series/bar-series.ts';
import { StrategyContextError } from './errors.ts';
import type { InstrumentView } from './instrument-view.ts';
import { instrumentView } from './instrument-view.ts';
import type { StrategyStateView } from './state-view.ts';
import type { Instrument } from '../core/market/instrument.ts';
import type { Amount, Balance, BookTop, Interval, OpenOrder, OpenOrderInput, PlotOptions, PlotPane, Position, PositionInput, Trade } from './types.ts';

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
  /**
   * A value to draw at this time under `name` (an indicator beside the price): the backtest
   * report draws each name as a line over the candles (`pane: 'price'`, the default) or in a
   * pane below them (`'below'`); a live host ignores it. undefined or NaN leaves a gap; at most
   * one value per name and time counts (the last). A name keeps the options of its first value.
   */
  plot(name: string, value: number | Dec | undefined, options?: PlotOptions): void;
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
  /** Where ctx.plot's values go (checked: a name, a finite number, the name's style as first given); absent: nowhere. */
  plot?(name: string, value: number, style: PlotStyle): void;
}

/** What ctx.log prints of its message: a string as it is, anything else as JSON where it has some, else String(). */
function logText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof message === 'object' && message !== null) {
    try {
      const json = JSON.stringify(message) as string | undefined;
      if (json !== undefined) return json;
    } catch {
      // A cycle or a BigInt inside: String() below.
    }
  }
  return String(message);
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
    if ((symbol !== first || first === undefined) && !src.symbols.includes(symbol)) throw new StrategyContextError(`'${symbol}' is not one of the strategy's symbols (${src.symbols.join(', ')}): add it to the definition's \`symbols\` to read it`);
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
  /** The names ctx.plot has checked, with the style of their first value (the one they keep), at most MAX_PLOTS. */
  const plotted = new Map<string, PlotStyle>();
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
      if (!s) throw new StrategyContextError(`interval '${interval}' is not one of the strategy's intervals (${src.intervals.join(', ')}): add it to the definition's \`intervals\` to read its bars (intervals: (p) => [p.interval, '${interval}']; onBar then runs for its bars too: check bar.interval)`);
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
    // A strategy written in JavaScript may pass anything: an object is logged as its JSON, not "[object Object]".
    log: (message, data) => src.log(logText(message), data),
    plot(name, value, options) {
      // Nothing to do where the host does not record plots (a sweep, the benchmark, a live host):
      // a strategy plotting every bar must cost nothing there. Where it does (a single backtest,
      // the testing kit: where an author runs a strategy first), every call is checked, a name's
      // options once, with its first value (later options are ignored).
      const sink = src.plot;
      if (sink === undefined) return;
      let style = plotted.get(name);
      if (style === undefined) {
        checkPlot(name, value, options);
        if (plotted.size >= MAX_PLOTS) throw new StrategyContextError(`plot '${name}': a strategy may plot at most ${MAX_PLOTS} names (it plotted ${[...plotted.keys()].slice(0, 3).join(', ')}, ...)`);
        plotted.set(name, (style = { pane: options?.pane ?? 'price', color: options?.color }));
      } else if (value !== undefined && typeof value !== 'number' && !(value instanceof D)) checkPlot(name, value, undefined);
      const n = typeof value === 'number' ? value : value === undefined ? NaN : Number(value.toFixed());
      if (Number.isFinite(n)) sink.call(src, name, n, style);
    },
  };
  return Object.freeze(new Context(members));
}

/** How a plotted name is drawn: from the options of its first value. */
export interface PlotStyle {
  readonly pane: PlotPane;
  readonly color: string | undefined;
}

/** Names a strategy may plot (ctx.plot): a name made per bar would grow without end. */
export const MAX_PLOTS = 32;
const PLOT_NAME = /^[\w .:%()/+-]{1,40}$/;
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** ctx.plot's arguments, or a StrategyContextError naming what is wrong (the runner stops the strategy and says so). */
function checkPlot(name: unknown, value: unknown, options: unknown): void {
  if (typeof name !== 'string' || !PLOT_NAME.test(name)) throw new StrategyContextError(`plot: the name must be 1 to 40 letters, digits, spaces or . : % ( ) / + - _ (got ${JSON.stringify(name)})`);
  if (value !== undefined && typeof value !== 'number' && !(value instanceof D)) throw new StrategyContextError(`plot '${name}': the value must be a number, a Decimal or undefined (got ${typeof value})`);
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new StrategyContextError(`plot '${name}': options must be an object`);
  const { pane, color, ...rest } = options as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new StrategyContextError(`plot '${name}': unknown option '${unknown[0]}' (pane, color)`);
  if (pane !== undefined && pane !== 'price' && pane !== 'below') throw new StrategyContextError(`plot '${name}': pane must be 'price' or 'below' (got ${JSON.stringify(pane)})`);
  if (color !== undefined && (typeof color !== 'string' || !HEX_COLOR.test(color))) throw new StrategyContextError(`plot '${name}': color must be a hex colour such as '#2563eb' (got ${JSON.stringify(color)})`);
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
  readonly plot: StrategyContext<P, S>['plot'];

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
    this.plot = m.plot;
  }
}
