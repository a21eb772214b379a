/**
 * A backtest of several symbols in one account (Freqtrade's pair list with one wallet): one
 * strategy, one OrderManager and one simulated venue (the SpotEngine holds every instrument), the
 * quote balance shared. The one-symbol loop (run-backtest.ts) stays as it is; this loop sits beside
 * it and `runBacktest` hands a `symbols` list here (a list of one runs the one-symbol loop).
 *
 * Periods: the symbols' bars are merged by open time; the bars opening at the same time are one
 * period (they must share the interval, so they close together; a bar opening inside another
 * symbol's bar is refused). A symbol without a bar in a period has none there (gaps are per symbol).
 * Per period:
 * 1. each symbol's bar of the period is played through the venue, in the order the symbols were
 *    given (fill-model.ts, per symbol: a command waits for the next point of its own symbol's
 *    path; one sent during the plays for a symbol whose bar is still to come waits for it to be
 *    played: play-period.ts PeriodGate). A timer due inside the period fires at its due time, as
 *    in a one-symbol run: after every symbol's points before it, before those at or after it
 *    (play-period.ts);
 * 2. the clock moves to the period's close + 1 and only then does the strategy get the bars,
 *    symbol after symbol (each with its longer intervals first, as run-backtest.ts): no bar of the
 *    period is visible before every symbol's bar of it has been played, and what the strategy
 *    sends on seeing them fills on the next bars of the symbols it names;
 * 3. a timer due at the delivery fires;
 * 4. one equity point: the quote plus each base asset at its symbol's last close.
 *
 * A warmup per interval holds onBar of each symbol until every declared series of it has its
 * count (runner.ts), from the run's bars or its `history`; the run says how many periods it took
 * until every symbol's onBar ran, each symbol how many of its bars (SymbolRun.warmupIdleBars).
 *
 * Results: fills of every symbol in time order, round trips per symbol (each carries its symbol)
 * merged in closing order, `symbols` (types.ts SymbolRun) with each one's bars, gaps, market,
 * lot and open position.
 */
import { orderCounts } from '../record/order-counts.ts';
import { closeText, keepClose } from '../../core/indicators/candle.ts';
import type { Candle, KeptClose } from '../../core/indicators/candle.ts';
import type { Instrument } from '../../core/market/index.ts';
import { D, dec } from '../../core/money/decimal.ts';
import { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import type { TripRecord } from '../../core/portfolio/round-trips.ts';
import type { PeriodStream } from '../../data/resample.ts';
import { OrderManager } from '../../core/orders/index.ts';
import type { FillOut } from '../../core/orders/types.ts';
import { INTERVALS } from '../../strategy/types.ts';
import type { Interval } from '../../strategy/types.ts';
import { CandleScratch, checkBar, gapSpacing, missingBetween } from '../sources/bar-input.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { attachEquity } from '../record/equity-columns.ts';
import { resolveFillModel } from './fill-model.ts';
import { defineLazyField } from '../record/lazy-field.ts';
import { exposureThreshold } from '../record/exposure-threshold.ts';
import { BarPlayer, DueTimers, kernelTimers, SimClock } from './play-bar.ts';
import { BarSlices, PeriodGate, playPeriod } from './play-period.ts';
import { backtestKernel } from './backtest-kernel.ts';
import { PlotRecorder } from '../record/plot-recorder.ts';
import { attachFills, Recorder } from '../record/recorder.ts';
import { attachOpenTrade, tripsOf } from '../record/run-trades.ts';
import { longerIntervals, preloadHistory, runBacktest } from './run-backtest.ts';
import type { BacktestOptions } from './run-backtest.ts';
import { runNotices, symbolNotices } from './run-notices.ts';
import type { WarmupShortfall } from './run-notices.ts';
import { SimVenue } from './sim-venue.ts';
import type { BacktestFill, BacktestRun, OpenTrade, PlotLine, RoundTrip, SymbolRun } from '../types.ts';
import { warmupFields, warmupIdleBars, warmupNotices } from './warmup-result.ts';

/** One symbol of a run of several: its bars (oldest first), its rules, and any bars before the range as history. */
export interface BacktestSymbol {
  readonly symbol: string;
  readonly bars: Iterable<BarInput>;
  readonly instrument: Instrument;
  readonly history?: Iterable<BarInput>;
}

/** BacktestOptions with a list of symbols in place of the one (`symbol`, `bars`, `instrument`, `history`). */
export interface SeveralBacktestOptions extends Omit<BacktestOptions, 'symbol' | 'bars' | 'instrument' | 'history' | 'onGap'> {
  readonly symbols: readonly BacktestSymbol[];
  /** Bars of `symbol` are missing between the bar opening at `prevOpen` and its next, at `open`. */
  readonly onGap?: (prevOpen: number, open: number, symbol: string) => void;
}

/** Closed orders kept by the manager and the engine (run-backtest.ts says why few). */
const RETAIN = 16;

/** One symbol's state in the loop. */
class Leg {
  head: Candle | undefined = undefined;
  prevOpen = -Infinity;
  count = 0;
  missing = 0;
  firstOpenText = '';
  kept: KeptClose | undefined = undefined;
  /** The last close not yet handed to the order manager (run-backtest.ts pendingClose). */
  pending: KeptClose | undefined = undefined;
  /** The last close as a number (the equity's mark). */
  mark = 0;
  startupBars = 0;
  /** With a warmup per interval: what the history left short, and its bars before onBar ran (undefined until it did). */
  shortAtStart: WarmupShortfall[] | undefined = undefined;
  idleBars: number | undefined = undefined;
  done = false;
  readonly scratch = new CandleScratch();

  constructor(
    readonly symbol: string,
    readonly inst: Instrument,
    readonly iter: Iterator<BarInput>,
    readonly slices: BarSlices,
    readonly longer: PeriodStream[],
    readonly trips: RoundTripBook,
    /** The least base that counts as held (record/exposure-threshold.ts). */
    readonly exposed: number,
  ) {}
}

/** The round trips of every symbol as one book: closed trips in closing order (ties in the symbols' order). */
class TripBooks {
  constructor(private readonly books: readonly { symbol: string; book: RoundTripBook }[]) {}

  private order(): [number, number, number][] {
    const out: [number, number, number][] = [];
    this.books.forEach((b, i) => b.book.records.forEach((r, k) => out.push([r.exitTime, i, k])));
    return out.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  }

  get records(): readonly TripRecord[] {
    return this.order().map(([, i, k]) => (this.books[i] as { book: RoundTripBook }).book.records[k] as TripRecord);
  }

  get trips(): RoundTrip[] {
    const printed = this.books.map((b) => tripsOf(b.book));
    return this.order().map(([, i, k]) => (printed[i] as RoundTrip[])[k] as RoundTrip);
  }
}

function checkSeveral(opts: SeveralBacktestOptions, setup: { symbols: readonly string[]; intervals: readonly Interval[] }, name: string): Interval {
  if (!(INTERVALS as readonly string[]).includes(opts.interval)) throw new RangeError(`interval '${opts.interval}' is not one of ${INTERVALS.join(', ')}`);
  const names = opts.symbols.map((s) => s.symbol);
  const twice = names.find((s, i) => names.indexOf(s) !== i);
  if (twice !== undefined) throw new RangeError(`${twice} is given twice: give each symbol once`);
  for (const s of opts.symbols) if (s.instrument.symbol !== s.symbol) throw new RangeError(`the instrument is ${s.instrument.symbol}, the backtest trades ${s.symbol}`);
  const quote = (opts.symbols[0] as BacktestSymbol).instrument.quoteAsset;
  const other = opts.symbols.filter((s) => s.instrument.quoteAsset !== quote);
  if (other.length > 0) {
    throw new RangeError(`the symbols of one run share the quote asset: ${opts.symbols.map((s) => `${s.symbol} is quoted in ${s.instrument.quoteAsset}`).join(', ')}; run ${other.map((s) => s.symbol).join(', ')} apart`);
  }
  const missing = names.filter((s) => !setup.symbols.includes(s));
  if (missing.length > 0 || !(setup.intervals as readonly string[]).includes(opts.interval)) {
    throw new RangeError(`strategy '${name}' trades ${setup.symbols.join(', ')} on ${setup.intervals.join(', ')}, not ${names.join(', ')} ${opts.interval}: run on its symbols and interval, or set its symbol and interval params`);
  }
  for (const [asset, amount] of Object.entries(opts.balances)) dec(amount, `balance ${asset}`);
  return opts.interval as Interval;
}

/** `runBacktest` with `symbols`: one symbol as the one-symbol form (byte-identical), several here. */
export function runSeveral(opts: SeveralBacktestOptions): BacktestRun {
  const list = opts.symbols;
  if (list.length === 0) throw new RangeError('symbols is empty: give at least one symbol');
  if (list.length === 1) {
    const { symbols: _symbols, onGap, ...rest } = opts;
    const only = list[0] as BacktestSymbol;
    return runBacktest({ ...rest, symbol: only.symbol, bars: only.bars, instrument: only.instrument, ...(only.history === undefined ? {} : { history: only.history }), ...(onGap === undefined ? {} : { onGap: (p: number, o: number) => onGap(p, o, only.symbol) }) });
  }
  return runSeveralSymbols(opts);
}

function runSeveralSymbols(opts: SeveralBacktestOptions): BacktestRun {
  const model = resolveFillModel(opts.fillModel);
  const clock = new SimClock();
  const instruments = opts.symbols.map((s) => s.instrument);
  const quoteAsset = (instruments[0] as Instrument).quoteAsset;
  const orders = new OrderManager({ runId: opts.runId ?? 'backtest', now: clock.now, instruments, balances: opts.balances, retainClosed: RETAIN });
  const venue = new SimVenue({ instruments, fees: opts.fees, balances: opts.balances, slippageBps: model.slippageBps, limitFill: model.limitFill, retain: RETAIN });
  const books = new Map<string, RoundTripBook>();
  for (const inst of instruments) books.set(inst.symbol, new RoundTripBook(inst.symbol, inst.baseAsset, inst.quoteAsset, inst.filter('LOT_SIZE')?.minQty ?? new D(0)));
  const router = { onFill: (f: FillOut, bar: number) => books.get(f.symbol)?.onFill(f, bar) };
  const plots = opts.recordPlots === true ? new PlotRecorder() : undefined;
  const rec = new Recorder(orders.account, (instruments[0] as Instrument).baseAsset, quoteAsset, router, opts.onIntent);
  let legs: Leg[] = [];
  const settleAll = (): void => {
    for (const leg of legs) {
      if (leg.pending === undefined) continue;
      orders.setLastPrice(leg.symbol, closeText(leg.pending));
      leg.pending = undefined;
    }
  };
  const gate = new PeriodGate(venue);
  const kernel = backtestKernel({ orders, venue: gate, clock, rec, onLog: opts.onLog, plots, beforeSubmit: settleAll });
  const runner = kernel.addStrategy(opts.strategy, opts.params);
  const interval = checkSeveral(opts, runner.setup, runner.name);
  const from = opts.from ?? -Infinity;
  const to = opts.to ?? Infinity;
  const gap = gapSpacing(interval);
  // A warmup per interval that asks for bars: each symbol's bars until its onBar ran are counted.
  const perInterval = runner.setup.warmupByInterval !== undefined;
  const countIdle = perInterval && runner.setup.warmup > 0;
  legs = opts.symbols.map((s) => {
    const lot = s.instrument.filter('LOT_SIZE');
    const longer = longerIntervals(runner.setup.intervals, interval, runner.name);
    // Timers are fired by the period (play-period.ts), between every symbol's points, not by one symbol's player.
    const leg = new Leg(s.symbol, s.instrument, s.bars[Symbol.iterator](), new BarSlices(new BarPlayer(venue, clock, s.symbol, model)), longer, books.get(s.symbol) as RoundTripBook, exposureThreshold(lot === undefined ? undefined : { minQty: lot.minQty.toFixed(), stepSize: lot.stepSize.toFixed() }));
    leg.startupBars = preloadHistory(runner, clock, s.symbol, interval, s.history, longer);
    if (perInterval && s.history !== undefined) leg.shortAtStart = runner.warmupShort(s.symbol);
    return leg;
  });
  /** A symbol's bars before its onBar ran (all of them when it never did; none without a warmup to wait for). */
  const idleOf = (leg: Leg): number => (countIdle ? (leg.idleBars ?? leg.count) : 0);
  /** The leg's next bar in range (head), checked; gaps counted. */
  const advance = (leg: Leg): void => {
    for (;;) {
      leg.done = true; // a next() that throws is not closed (as with for-of)
      const r = leg.iter.next();
      leg.done = false;
      if (r.done === true) {
        leg.done = true;
        leg.head = undefined;
        return;
      }
      const c = leg.scratch.of(r.value);
      if (c.openTime < from || c.openTime >= to) continue;
      const bad = checkBar(c, leg.prevOpen, leg.count);
      if (bad) throw new RangeError(`${leg.symbol}: ${bad}`);
      if (c.openTime - leg.prevOpen > gap && leg.count > 0) {
        leg.missing += missingBetween(leg.prevOpen, c.openTime, interval);
        opts.onGap?.(leg.prevOpen, c.openTime, leg.symbol);
      }
      leg.prevOpen = c.openTime;
      leg.head = c;
      return;
    }
  };
  const timers = runner.setup.timerMs === undefined ? undefined : new DueTimers(kernelTimers(kernel), clock);
  const detailed = opts.detailed === true;
  const group: Leg[] = [];
  const completed: Candle[] = [];
  let periods = 0;
  let first = 0;
  let lastClose = 0;
  try {
    for (const leg of legs) advance(leg);
    const empty = legs.filter((l) => l.head === undefined).map((l) => l.symbol);
    if (empty.length > 0) throw new RangeError(`no bars for ${empty.join(', ')} ${interval}${opts.from !== undefined || opts.to !== undefined ? ' in the range asked' : ''}`);
    first = Math.min(...legs.map((l) => (l.head as Candle).openTime));
    clock.t = first;
    for (const leg of legs) {
      // Base held at the start is the symbol's position, bought at its first open (as the round trips count it).
      const c = leg.head as Candle;
      const held = orders.account.totalOf(leg.inst.baseAsset);
      leg.firstOpenText = c.exact.open;
      const open = dec(leg.firstOpenText, 'open');
      if (held.gt(0)) orders.account.setPosition(leg.symbol, held, open);
      leg.trips.seed(held, open, c.openTime);
      leg.mark = c.open;
    }
    kernel.start();
    for (;;) {
      let t = Infinity;
      for (const leg of legs) if (leg.head !== undefined && leg.head.openTime < t) t = leg.head.openTime;
      if (t === Infinity) break;
      group.length = 0;
      for (const leg of legs) if (leg.head !== undefined && leg.head.openTime === t) group.push(leg);
      const lead = group[0] as Leg;
      const close = (lead.head as Candle).closeTime;
      for (const leg of legs) {
        const h = leg.head;
        if (h === undefined) continue;
        if (h.openTime === t && h.closeTime !== close) throw new RangeError(`${leg.symbol}'s bar opening at ${t} closes at ${h.closeTime}, ${lead.symbol}'s at ${close}: the symbols' bars of one period must close together (same interval)`);
        if (h.openTime !== t && h.openTime <= close) throw new RangeError(`${leg.symbol}'s bar opening at ${h.openTime} starts inside ${lead.symbol}'s bar ${t} .. ${close}: the symbols' bars must open at the same times`);
      }
      rec.bar = periods++;
      // Every symbol's last close reaches the order manager before fills can move its price.
      if (venue.busy()) settleAll();
      for (const leg of group) leg.slices.set(leg.head as Candle, detailed);
      playPeriod(group, gate, t, close, timers);
      clock.t = close + 1;
      for (const leg of group) {
        const c = leg.head as Candle;
        leg.pending = leg.kept = keepClose(c.exact);
        leg.mark = c.close;
        leg.count++;
      }
      for (const leg of group) {
        const c = leg.head as Candle;
        for (const stream of leg.longer) {
          stream.push(c, completed);
          for (const done of completed) kernel.bar(leg.symbol, stream.interval as Interval, done);
          completed.length = 0;
        }
        kernel.bar(leg.symbol, interval, c);
        if (countIdle && leg.idleBars === undefined && runner.warmedAt(leg.symbol) !== undefined) leg.idleBars = leg.count - 1;
      }
      if (timers !== undefined) kernel.timer(clock.t);
      point(rec, orders.account, quoteAsset, legs, close);
      lastClose = close;
      for (const leg of group) advance(leg);
    }
  } finally {
    for (const leg of legs) {
      if (leg.done) continue;
      try {
        leg.iter.return?.();
      } catch {
        // The loop's own error is the one reported (as with for-of).
      }
    }
  }
  kernel.stop('end of backtest');
  if (venue.busy()) settleAll();
  for (const leg of legs) leg.slices.player.finish(lastClose + 1);
  const lines: PlotLine[] | undefined = plots?.plots();
  const startBalances: Record<string, string> = {};
  for (const asset of Object.keys(opts.balances).sort()) startBalances[asset] = dec(opts.balances[asset] as string).toFixed();
  const startupBars = Math.max(...legs.map((l) => l.startupBars));
  const symbols: SymbolRun[] = legs.map((leg) => {
    const lot = leg.inst.filter('LOT_SIZE');
    const market = { open: leg.firstOpenText, close: leg.kept === undefined ? leg.firstOpenText : closeText(leg.kept) };
    const idle = perInterval ? { warmupIdleBars: idleOf(leg) } : {};
    const entry = { symbol: leg.symbol, baseAsset: leg.inst.baseAsset, barCount: leg.count, missingBars: leg.missing, ...idle, market, ...(lot === undefined ? {} : { lot: { minQty: lot.minQty.toFixed(), stepSize: lot.stepSize.toFixed() } }), openTrade: undefined as OpenTrade | undefined };
    return attachOpenTrade(entry, leg.trips, leg.symbol, market.close, periods);
  });
  const longer = (legs[0] as Leg).longer;
  // The periods until every symbol's onBar ran (the latest symbol's warm time; none while one never warmed).
  const warmTimes = legs.map((l) => runner.warmedAt(l.symbol));
  const warmedAt = warmTimes.includes(undefined) ? undefined : Math.max(...(warmTimes as number[]));
  const idleBars = warmupIdleBars(runner.setup, rec.equity.columns().time, warmedAt);
  const run = {
    strategy: runner.name,
    params: { ...runner.params } as Record<string, unknown>,
    symbol: legs.map((l) => l.symbol).join(','),
    interval,
    baseAsset: legs.map((l) => l.inst.baseAsset).join(','),
    quoteAsset,
    from: first,
    to: lastClose + 1,
    barCount: periods,
    ...(longer.length === 0 ? {} : { longerIntervals: longer.map((p) => p.interval) }),
    ...warmupFields(runner.setup, idleBars),
    ...(startupBars > 0 ? { startupBars } : {}),
    missingBars: legs.reduce((n, l) => n + l.missing, 0),
    symbols,
    startBalances,
    endBalances: { ...orders.account.balanceTexts() },
    fees: { maker: opts.fees.maker, taker: opts.fees.taker },
    fillModel: { ...model },
    fills: [] as BacktestFill[],
    trades: [] as RoundTrip[],
    equity: [],
    ...(lines === undefined || lines.length === 0 ? {} : { plots: lines }),
    orders: orderCounts(orders.orders),
    denials: rec.denials,
    strategyFailures: rec.failures,
    // The warmup counts each symbol's own bars: a numeric one is said once, by the symbol with the
    // fewest (whether onBar ran); one per interval by each symbol it held back (which series lacked bars).
    notices: perInterval
      ? symbolNotices(legs.map((l) => ({ symbol: l.symbol, notices: warmupNotices(runner.setup, interval, { barCount: l.count, idleBars: idleOf(l), startupBars: l.startupBars, historyGiven: l.shortAtStart !== undefined, shortAtStart: l.shortAtStart, shortAtEnd: runner.warmupShort(l.symbol) }) })))
      : runNotices({ warmup: runner.setup.warmup, barCount: Math.min(...legs.map((l) => l.count)), startupBars }),
  };
  attachFills(run, rec.fills);
  defineLazyField(run, 'trades', new TripBooks(legs.map((l) => ({ symbol: l.symbol, book: l.trips }))), (b) => b.trips);
  return attachEquity(run, rec.equity.columns()) satisfies BacktestRun;
}

/** The period's equity point: the quote plus each base at its symbol's last close; the position column is the value of what is held above dust. */
function point(rec: Recorder, account: OrderManager['account'], quoteAsset: string, legs: readonly Leg[], close: number): void {
  let equity = account.totalNumberOf(quoteAsset);
  let position = 0;
  for (const leg of legs) {
    const qty = account.totalNumberOf(leg.inst.baseAsset);
    if (qty === 0) continue;
    const value = qty * leg.mark;
    equity += value;
    if (Math.abs(qty) >= leg.exposed) position += value;
  }
  rec.equity.push(close, equity, position);
}
