/**
 * backtest/run/: the simulation (runBacktest, run-several.ts, the fill model, bars played as price
 * paths). Imports sources/ and record/, never the metrics or anything after them.
 *
 * `runBacktest`: a strategy over historical (or synthetic) bars, synchronously, on the one code
 * path: the strategy's StrategyRunner inside the engine's Kernel, the OrderManager's pre-trade
 * checks, and the SpotEngine behind the simulated venue (sim-venue.ts), exactly as sandbox and
 * live trading compose them with another venue and clock. Fills follow fill-model.ts.
 *
 * Per bar: play the bar's path through the venue (orders sent earlier fill), then deliver the
 * closed bar at closeTime + 1 (its intents are queued for the next bar's open), fire due timers,
 * record the equity point. A strategy that declares longer intervals of the symbol beside the
 * run's (a 1h trend filter on a 1m strategy: Freqtrade's informative timeframes) gets their bars
 * made from the run's (data/resample.ts PeriodStream), each delivered when the run's bar that
 * completes it has closed, before that bar (longest first): onBar of the run's bar reads them.
 * With a warmup per interval (define.ts), onBar waits until each of them has its count (runner.ts).
 * After the last bar the strategy is stopped and what is still queued runs with no market price. The same options give a byte-identical result (JSON.stringify):
 * ids count from fixed seeds, nothing reads the wall clock, every collection keeps insertion order.
 * Several symbols in one account: run-several.ts, beside this loop (which stays the one-symbol path).
 */
import { orderCounts } from '../record/order-counts.ts';
import { closeText, keepClose } from '../../core/indicators/candle.ts';
import type { Candle, KeptClose } from '../../core/indicators/candle.ts';
import type { Instrument } from '../../core/market/index.ts';
import type { FeeRates } from '../../core/matching/index.ts';
import { D, dec } from '../../core/money/decimal.ts';
import { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import { canResample, PeriodStream } from '../../data/resample.ts';
import type { DetailedCandle } from '../../data/resample.ts';
import { OrderManager } from '../../core/orders/index.ts';
import type { AnyStrategyDefinition } from '../../strategy/define.ts';
import type { AnyStrategyRunner } from '../../strategy/runner.ts';
import { INTERVALS } from '../../strategy/types.ts';
import type { Interval, StrategyLogEntry } from '../../strategy/types.ts';
import { CandleScratch, checkBar, gapSpacing, missingBetween } from '../sources/bar-input.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { resolveFillModel } from './fill-model.ts';
import type { FillModel } from './fill-model.ts';
import { BarPlayer, kernelTimers, SimClock } from './play-bar.ts';
import { attachFills, Recorder } from '../record/recorder.ts';
import type { IntentRecord } from '../record/recorder.ts';
import { backtestKernel } from './backtest-kernel.ts';
import { PlotRecorder } from '../record/plot-recorder.ts';
import { attachOpenTrade, attachTrades } from '../record/run-trades.ts';
import { SimVenue } from './sim-venue.ts';
import { runSeveral } from './run-several.ts';
import type { SeveralBacktestOptions } from './run-several.ts';
import type { BacktestFill, BacktestRun, EquityPoint, OpenTrade, PlotLine, RoundTrip } from '../types.ts';
import { attachEquity } from '../record/equity-columns.ts';
import { warmupFields, warmupIdleBars, warmupNotices } from './warmup-result.ts';

export interface BacktestOptions {
  readonly strategy: AnyStrategyDefinition;
  /** Raw or parsed params; validated against the strategy's schema. */
  readonly params?: Record<string, unknown>;
  readonly symbol: string;
  readonly interval: string;
  /** Oldest first. BacktestBars (strings) or Candles (the synthetic market, the journal source). */
  readonly bars: Iterable<BarInput>;
  readonly instrument: Instrument;
  readonly fees: FeeRates;
  /** Starting balances by asset (decimal strings). */
  readonly balances: Readonly<Record<string, string>>;
  readonly fillModel?: FillModel;
  /** Only bars opening in [from, to). */
  readonly from?: number;
  readonly to?: number;
  /** Part of every client order id; default 'backtest'. */
  readonly runId?: string;
  /** Every intent the strategy (or the engine on its behalf) submitted. */
  readonly onIntent?: (record: IntentRecord) => void;
  /** Every line the strategy logged (`ctx.log`), stamped with the backtest's clock. */
  readonly onLog?: (entry: StrategyLogEntry) => void;
  /** Bars are missing between the bar opening at `prevOpen` and the next, at `open` (what `missingBars` counts). */
  readonly onGap?: (prevOpen: number, open: number) => void;
  /**
   * Keep what the strategy plots (`ctx.plot`) as the run's `plots` (for the report). Off by
   * default: sweeps and the benchmark draw nothing, and ctx.plot then does nothing (not even its checks).
   */
  readonly recordPlots?: boolean;
  /**
   * Bars before the first one, oldest first, given to the strategy as its history (startup
   * candles, as Freqtrade loads them before a timerange): never traded on, not in the results,
   * so the run's first bars trade once the history covers the warmup. Walk-forward windows get
   * the bars before them this way, and `halyard backtest --from` those a warmup per interval
   * needs (warmup-span.ts); the run's notices name an interval they fell short for.
   */
  readonly history?: Iterable<BarInput>;
  /**
   * The bars carry the shorter bars they were made from (data/resample.ts DetailedCandle): the
   * venue plays its fills on those, one after the other, while the strategy sees the bars.
   */
  readonly detailed?: boolean;
}

export type { IntentRecord, SeveralBacktestOptions };

function check(opts: BacktestOptions, setup: { symbols: readonly string[]; intervals: readonly Interval[] }, name: string): Interval {
  if (!(INTERVALS as readonly string[]).includes(opts.interval)) throw new RangeError(`interval '${opts.interval}' is not one of ${INTERVALS.join(', ')}`);
  if (opts.instrument.symbol !== opts.symbol) throw new RangeError(`the instrument is ${opts.instrument.symbol}, the backtest trades ${opts.symbol}`);
  if (!setup.symbols.includes(opts.symbol) || !(setup.intervals as readonly string[]).includes(opts.interval)) {
    const fix = !setup.symbols.includes(opts.symbol) ? `run on ${setup.symbols.join(' or ')}, or set its symbol param` : `run on ${setup.intervals[0]} (--interval ${setup.intervals[0]}), or set its interval param`;
    throw new RangeError(`strategy '${name}' trades ${setup.symbols.join(', ')} on ${setup.intervals.join(', ')}, not ${opts.symbol} ${opts.interval}: ${fix}`);
  }
  for (const [asset, amount] of Object.entries(opts.balances)) dec(amount, `balance ${asset}`);
  return opts.interval as Interval;
}

/**
 * The symbol's other intervals the strategy declared, each made from the run's bars, longest
 * first (the order they are delivered in when they close together). One the run's bars do not
 * tile (shorter, or not a whole multiple) cannot be made: refused, saying what would run.
 */
export function longerIntervals(intervals: readonly Interval[], interval: Interval, name: string): PeriodStream[] {
  // Declared once each (resolveSetup drops repeats).
  const out: Interval[] = [];
  for (const other of intervals) {
    if (other === interval) continue;
    if (!canResample(interval, other)) {
      throw new RangeError(
        `strategy '${name}' declares ${other} bars beside the run's ${interval}, which cannot be made from ${interval} bars: a backtest makes the longer intervals ${interval} bars tile; run on ${other} or on an interval that tiles every one it declares`,
      );
    }
    out.push(other);
  }
  return out.sort((a, b) => INTERVALS.indexOf(b) - INTERVALS.indexOf(a)).map((i) => new PeriodStream(i));
}

/** Bars the run will likely record, to size its columns once: an array's length, or a source's own `sizeHint` (journalBars). */
function expectedBars(opts: BacktestOptions, list: readonly BarInput[] | undefined): number {
  if (list !== undefined) return opts.from === undefined && opts.to === undefined ? list.length : 0;
  const hint = (opts.bars as { readonly sizeHint?: unknown }).sizeHint;
  return typeof hint === 'number' && Number.isSafeInteger(hint) && hint > 0 ? hint : 0;
}

/**
 * Runs the backtest. With `symbols` (run-several.ts), several symbols in one account; one symbol
 * given that way runs exactly as the single-symbol form.
 */
export function runBacktest(opts: SeveralBacktestOptions): BacktestRun;
export function runBacktest(opts: BacktestOptions): BacktestRun;
export function runBacktest(opts: BacktestOptions | SeveralBacktestOptions): BacktestRun {
  if ('symbols' in opts) return runSeveral(opts);
  const { symbol, instrument: inst } = opts;
  const model = resolveFillModel(opts.fillModel);
  const clock = new SimClock();
  // Closed orders kept, by the manager and by the engine: few. The simulated venue answers
  // synchronously, so no venue event arrives for an order closed long ago, and the engine treats
  // a closed order like an unknown one for cancels and duplicate ids; nothing here queries its
  // history. Each order kept for long outlives many young-generation collections and ends as
  // old-generation garbage: kept 1000 deep, a year of orders is tens of MB of peak RSS.
  const RETAIN = 16;
  const orders = new OrderManager({ runId: opts.runId ?? 'backtest', now: clock.now, instruments: [inst], balances: opts.balances, retainClosed: RETAIN });
  const venue = new SimVenue({ instruments: [inst], fees: opts.fees, balances: opts.balances, slippageBps: model.slippageBps, limitFill: model.limitFill, retain: RETAIN });
  const lotSize = inst.filter('LOT_SIZE');
  const minQty = lotSize?.minQty ?? new D(0);
  const trips = new RoundTripBook(symbol, inst.baseAsset, inst.quoteAsset, minQty);
  const bars = opts.bars;
  const list = Array.isArray(bars) ? (bars as readonly BarInput[]) : undefined;
  // The order manager's last price is the last bar's close (or a later fill's price). It is
  // read only when intents are checked, so the close is handed over then (beforeSubmit) or
  // before the venue can move anything (a busy bar's fills, and what strategies do about them):
  // a year of bars without an order reads no close text (the journal cuts texts when read).
  let pendingClose: KeptClose | undefined;
  const settleClose = (): void => {
    if (pendingClose === undefined) return;
    orders.setLastPrice(symbol, closeText(pendingClose));
    pendingClose = undefined;
  };
  const expected = expectedBars(opts, list);
  const plots = opts.recordPlots === true ? new PlotRecorder(expected) : undefined;
  const rec = new Recorder(orders.account, inst.baseAsset, inst.quoteAsset, trips, opts.onIntent, expected);
  const kernel = backtestKernel({ orders, venue: venue, clock, rec, onLog: opts.onLog, plots, beforeSubmit: settleClose });
  const runner = kernel.addStrategy(opts.strategy, opts.params);
  const interval = check(opts, runner.setup, runner.name);
  const longer = longerIntervals(runner.setup.intervals, interval, runner.name);
  const startupBars = preloadHistory(runner, clock, symbol, interval, opts.history, longer);
  // What a warmup per interval still lacked once the history before the range was in (for its notice).
  const shortAtStart = runner.setup.warmupByInterval === undefined || opts.history === undefined ? undefined : runner.warmupShort(symbol);
  /** The longer bars a run bar completed (reused). */
  const completed: Candle[] = [];
  // A strategy with a timer has it fired at each due time inside the bars (play-bar.ts), and at
  // the bar's delivery for a time due then.
  const hasTimer = runner.setup.timerMs !== undefined;
  const timers = hasTimer ? kernelTimers(kernel) : undefined;
  const player = new BarPlayer(venue, clock, symbol, model, timers);
  const scratch = new CandleScratch();
  const from = opts.from ?? -Infinity;
  const to = opts.to ?? Infinity;
  const detailed = opts.detailed === true;
  let count = 0;
  let first = 0;
  let prevOpen = -Infinity;
  // Bars missing between the first and the last: counted only where open times step further than one bar.
  const gap = gapSpacing(interval);
  let missing = 0;
  let lastClose = 0;
  let firstOpenText = '';
  // The last bar's close, kept past the bar (its text is read once, at the end).
  let lastCloseKept: KeptClose | undefined;
  // An array is read by index: for-of over an Iterable allocated an iterator result a bar.
  // Anything else (a journal's generator) through its iterator, as for-of does (closed on a throw).
  const iter = list === undefined ? bars[Symbol.iterator]() : undefined;
  let done = false;
  try {
    for (let i = 0; ; i++) {
      let input: BarInput;
      if (list !== undefined) {
        if (i >= list.length) break;
        input = list[i] as BarInput;
      } else {
        done = true; // a next() that throws is not closed (as with for-of)
        const r = (iter as Iterator<BarInput>).next();
        done = false;
        if (r.done) break;
        input = r.value;
      }
      const c = scratch.of(input);
      if (c.openTime < from || c.openTime >= to) continue;
      const bad = checkBar(c, prevOpen, count);
      if (bad) throw new RangeError(bad);
      if (c.openTime - prevOpen > gap && count > 0) {
        missing += missingBetween(prevOpen, c.openTime, interval);
        opts.onGap?.(prevOpen, c.openTime);
      }
      prevOpen = c.openTime;
      if (count === 0) {
        first = c.openTime;
        clock.t = c.openTime;
        // Base held at the start is the strategy's position, bought at the first open (as the round trips count it).
        const held = orders.account.totalOf(inst.baseAsset);
        firstOpenText = c.exact.open;
        const open = dec(firstOpenText, 'open');
        if (held.gt(0)) orders.account.setPosition(symbol, held, open);
        trips.seed(held, open, c.openTime);
        kernel.start();
      }
      rec.bar = count++;
      if (venue.busy()) settleClose();
      if (detailed) playDetail(player, c);
      else player.play(c);
      clock.t = c.closeTime + 1;
      pendingClose = lastCloseKept = keepClose(c.exact);
      for (let k = 0; k < longer.length; k++) {
        const stream = longer[k] as PeriodStream;
        stream.push(c, completed);
        for (let j = 0; j < completed.length; j++) kernel.bar(symbol, stream.interval as Interval, completed[j] as Candle);
        completed.length = 0;
      }
      kernel.bar(symbol, interval, c);
      if (hasTimer) kernel.timer(clock.t);
      rec.point(c);
      lastClose = c.closeTime;
    }
    done = true;
  } finally {
    if (!done) {
      try {
        iter?.return?.();
      } catch {
        // The loop's own error is the one reported (as with for-of).
      }
    }
  }
  if (count === 0) throw new RangeError(`no bars for ${symbol} ${interval}${opts.from !== undefined || opts.to !== undefined ? ' in the range asked' : ''}`);
  kernel.stop('end of backtest');
  if (venue.busy()) settleClose();
  player.finish(lastClose + 1);
  const lines: PlotLine[] | undefined = plots?.plots();
  const idleBars = warmupIdleBars(runner.setup, rec.equity.columns().time, runner.warmedAt(symbol));
  const startBalances: Record<string, string> = {};
  for (const asset of Object.keys(opts.balances).sort()) startBalances[asset] = dec(opts.balances[asset] as string).toFixed();
  const run = {
    strategy: runner.name,
    params: { ...runner.params } as Record<string, unknown>,
    symbol,
    interval,
    baseAsset: inst.baseAsset,
    quoteAsset: inst.quoteAsset,
    from: first,
    to: lastClose + 1,
    barCount: count,
    ...(longer.length === 0 ? {} : { longerIntervals: longer.map((p) => p.interval) }),
    ...warmupFields(runner.setup, idleBars),
    ...(startupBars > 0 ? { startupBars } : {}),
    missingBars: missing,
    market: { open: firstOpenText, close: lastCloseKept === undefined ? firstOpenText : closeText(lastCloseKept) },
    ...(lotSize === undefined ? {} : { lot: { minQty: lotSize.minQty.toFixed(), stepSize: lotSize.stepSize.toFixed() } }),
    startBalances,
    endBalances: { ...orders.account.balanceTexts() },
    fees: { maker: opts.fees.maker, taker: opts.fees.taker },
    fillModel: { ...model },
    fills: [] as BacktestFill[],
    trades: [] as RoundTrip[],
    openTrade: undefined as OpenTrade | undefined,
    equity: [] as EquityPoint[],
    // Only when the strategy plotted something: a run that plots nothing reads as before.
    ...(lines === undefined || lines.length === 0 ? {} : { plots: lines }),
    orders: orderCounts(orders.orders),
    denials: rec.denials,
    strategyFailures: rec.failures,
    notices: warmupNotices(runner.setup, interval, { barCount: count, idleBars, startupBars, historyGiven: opts.history !== undefined, shortAtStart, shortAtEnd: runner.warmupShort(symbol) }),
  };
  // Built from the recorded fills, trip records and columns on first read (recorder.ts,
  // run-trades.ts, equity-columns.ts); same places in the JSON.
  attachFills(run, rec.fills);
  attachTrades(run, trips);
  attachOpenTrade(run, trips, symbol, run.market.close, count);
  return attachEquity(run, rec.equity.columns()) satisfies BacktestRun;
}

/** The venue's part of a detailed bar: its shorter bars played one after the other (the bar itself when it has none). */
export function playDetail(player: BarPlayer, c: Candle): void {
  const detail = (c as Partial<DetailedCandle>).detail;
  if (detail === undefined || detail.length === 0) return player.play(c);
  for (let i = 0; i < detail.length; i++) player.play(detail[i] as Candle);
}

/**
 * Hands `history` to the strategy's series (StrategyRunner.preload: no handler runs), and the
 * longer bars made from it to theirs (a period the history ends inside is completed by the run's
 * bars); how many bars it took.
 */
export function preloadHistory(runner: AnyStrategyRunner, clock: SimClock, symbol: string, interval: Interval, history: Iterable<BarInput> | undefined, longer: readonly PeriodStream[]): number {
  if (history === undefined) return 0;
  const scratch = new CandleScratch();
  let n = 0;
  const made = longer.map((): Candle[] => []);
  // One at a time through the reused Candle: the series copies what it keeps. The clock passes
  // each bar's close (the runner takes closed bars only); the run sets it to its first open after.
  const candles = (function* () {
    for (const bar of history) {
      const c = scratch.of(bar);
      clock.t = c.closeTime + 1;
      n++;
      for (let k = 0; k < longer.length; k++) (longer[k] as PeriodStream).push(c, made[k] as Candle[]);
      yield c;
    }
  })();
  runner.preload(symbol, interval, candles);
  for (let k = 0; k < longer.length; k++) runner.preload(symbol, (longer[k] as PeriodStream).interval as Interval, made[k] as Candle[]);
  return n;
}
