/**
 * The chart data the HTML report inlines, in lightweight-charts' shapes (time in UTC seconds).
 * Long runs are thinned so the page stays light: candles are aggregated to the smallest standard
 * interval that keeps them under `maxCandles` (a year of 1-minute bars becomes 2-hour candles),
 * fills become markers on the candle that contains them (one per candle and side, with a count),
 * and the equity and drawdown curves keep one point per candle, at the candle's time (the last
 * equity in it; the deepest drawdown, so the worst moment is never averaged away): the three
 * charts share one time base (toCurves). A run of several symbols has a price chart per symbol
 * (`symbols`: the first symbol's is the main one, which the curves and plots share).
 *
 * The bars are what the backtest loop takes (bar-input.ts BarInput): the run's BacktestBars
 * (decimal texts) or the Candles a journal replay streams (numbers, one reused object:
 * journalBars), seen as Candles through the loop's CandleScratch. Either way they are read once, in
 * order, without being collected: a year of 1-minute bars from the journal costs no array of
 * 525,600 objects and no parse of their texts.
 */
import { INTERVAL_MS } from '../../data/intervals.ts';
import { CandleScratch } from '../sources/bar-input.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { drawdownSeries } from '../metrics/metrics-returns.ts';
import { startEquityOf } from '../metrics/metrics.ts';
import type { BacktestRun } from '../types.ts';
import { equityColumnsOf, equityCurve } from '../record/equity-columns.ts';
import { thinIndices } from '../output/equity-thin.ts';
import { plotColumnsOf } from '../record/plot-recorder.ts';

export interface CandlePoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}
export interface LinePoint {
  time: number;
  value: number;
}
export interface MarkerPoint {
  time: number;
  position: 'aboveBar' | 'belowBar';
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  text: string;
}

/** A line the strategy plotted (ctx.plot), on the candles' time base, with the colour it is drawn in. */
export interface PlotSeries {
  name: string;
  pane: 'price' | 'below';
  color: string;
  points: LinePoint[];
}

/** The price chart of one more symbol in a run of several: its candles and the markers of its fills. */
export interface SymbolChart {
  symbol: string;
  candles: CandlePoint[];
  markers: MarkerPoint[];
  pricePrecision: number;
  candleInterval: string;
  sourceBars: number;
}

export interface ChartData {
  /** The run's symbol's candles; in a run of several, the first symbol's (`symbols` has the others'). */
  candles: CandlePoint[];
  markers: MarkerPoint[];
  equity: LinePoint[];
  drawdown: LinePoint[];
  plots: PlotSeries[];
  /** Price decimals seen in the bars (for the axis format). */
  pricePrecision: number;
  /** Interval the candles are shown at ("1m", "2h", or "<n> bars"); and the bars behind them. */
  candleInterval: string;
  sourceBars: number;
  sourceEquityPoints: number;
  /** A run of several symbols: the price charts of the symbols after the first, in the run's order. */
  symbols?: SymbolChart[];
}

export const DEFAULT_MAX_POINTS = 5_000;
const BUY_COLOR = '#16a34a';
const SELL_COLOR = '#dc2626';

/** Median spacing of open times, for bars whose interval name is not a standard one. */
function spacing(bars: readonly BarInput[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < Math.min(bars.length, 1001); i++) gaps.push(bars[i]!.openTime - bars[i - 1]!.openTime);
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 60_000;
}

/** The bucket length in ms and its name; the bar interval itself when no thinning is needed. */
export function chooseBucket(interval: string, bars: readonly BarInput[], maxCandles: number): { ms: number; name: string } {
  const known = (INTERVAL_MS as Readonly<Record<string, number>>)[interval];
  const base = known ?? spacing(bars);
  const first = bars[0];
  const last = bars[bars.length - 1];
  if (!first || !last) return bucketFor(interval, base, 0, 0, maxCandles);
  return bucketFor(interval, base, bars.length, last.openTime - first.openTime + base, maxCandles);
}

/** `chooseBucket` from the count of bars, their spacing `base` and the time they span (first open to last close). */
export function bucketFor(interval: string, base: number, count: number, span: number, maxCandles: number): { ms: number; name: string } {
  const known = (INTERVAL_MS as Readonly<Record<string, number>>)[interval] !== undefined;
  if (count <= maxCandles) return { ms: 0, name: known ? interval : `${base / 60_000}m` };
  for (const [name, ms] of Object.entries(INTERVAL_MS)) {
    // One extra bucket for a range that does not start on a boundary.
    if (ms > base && ms % base === 0 && Math.ceil(span / ms) + 1 <= maxCandles) return { ms, name };
  }
  const week = INTERVAL_MS['1w'];
  const weeks = Math.ceil(span / week / (maxCandles - 1));
  return { ms: weeks * week, name: `${weeks}w` };
}

/** Bars gathered into candles of time-aligned buckets of `ms` (0 = one candle per bar), one bar at a time. */
export class CandleBuckets {
  readonly candles: CandlePoint[] = [];
  private key = NaN;

  constructor(private readonly ms: number) {}

  add(openTime: number, o: number, h: number, l: number, c: number): void {
    const out = this.candles;
    const k = this.ms > 0 ? Math.floor(openTime / this.ms) * this.ms : openTime;
    const cur = out[out.length - 1];
    if (cur && k === this.key) {
      if (h > cur.high) cur.high = h;
      if (l < cur.low) cur.low = l;
      cur.close = c;
      return;
    }
    const time = Math.floor(k / 1000);
    // lightweight-charts needs strictly increasing times.
    if (cur && time <= cur.time) return;
    out.push({ time, open: o, high: h, low: l, close: c });
    this.key = k;
  }
}

/** Candles, thinned into time-aligned buckets of `ms` (0 = one candle per bar). */
export function toCandles(bars: Iterable<BarInput>, ms: number): CandlePoint[] {
  const buckets = new CandleBuckets(ms);
  const scratch = new CandleScratch();
  for (const b of bars) {
    const c = scratch.of(b);
    buckets.add(c.openTime, c.open, c.high, c.low, c.close);
  }
  return buckets.candles;
}

/** Index of the last candle starting at or before `t` (seconds); -1 when none. */
function candleAt(candles: readonly CandlePoint[], t: number): number {
  let lo = 0, hi = candles.length - 1, ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (candles[mid]!.time <= t) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

export function toMarkers(fills: BacktestRun['fills'], candles: readonly CandlePoint[]): MarkerPoint[] {
  const groups = new Map<string, { time: number; side: 'BUY' | 'SELL'; n: number; qty: number }>();
  for (const f of fills) {
    const i = candleAt(candles, Math.floor(f.time / 1000));
    const c = candles[Math.max(0, i)];
    if (!c) continue;
    const id = `${c.time}:${f.side}`;
    const g = groups.get(id) ?? { time: c.time, side: f.side, n: 0, qty: 0 };
    g.n++;
    g.qty += Number(f.qty);
    groups.set(id, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.time - b.time || (a.side === 'BUY' ? -1 : 1))
    .map((g) => ({
      time: g.time,
      position: g.side === 'BUY' ? 'belowBar' : 'aboveBar',
      shape: g.side === 'BUY' ? 'arrowUp' : 'arrowDown',
      color: g.side === 'BUY' ? BUY_COLOR : SELL_COLOR,
      text: `${g.side === 'BUY' ? 'B' : 'S'}${g.n > 1 ? `×${g.n}` : ''}`,
    }));
}

/**
 * The time of the candle holding each of a run of ascending instants (seconds): the last candle
 * opening at or before it, the first for one before them all. The instants ascend, so the
 * candle only moves forward. Needs at least one candle.
 */
class CandleCursor {
  private c = 0;

  constructor(private readonly candles: readonly CandlePoint[]) {}

  timeAt(t: number): number {
    const candles = this.candles;
    while (this.c + 1 < candles.length && candles[this.c + 1]!.time <= t) this.c++;
    return candles[this.c]!.time;
  }
}

/**
 * Equity and drawdown (negative percent, an underwater curve) on the candles' time base: one point
 * per candle, at the candle's time (its open, as lightweight-charts, TradingView and Freqtrade's
 * plots place a bar), valued at the close of the last bar in it (the equity the recorder took at
 * that bar's close) with the deepest drawdown of its bars. The run records each bar's equity at the
 * bar's close time (equity-columns.ts); plotted there, the line sat one bar to the right of the
 * candle it belongs to. A bar belongs to the last candle opening at or before its close time (the
 * candle holding it, as a fill's marker does); one before the first candle goes to the first.
 * Without candles (no bars given) there is nothing to align with: points at their close times,
 * thinned to at most `max` as a walk-forward's test curves are (equity-thin.ts: each stretch's
 * lowest, highest and deepest-drawdown points, the first, the last and the worst drawdown's).
 */
export function toCurves(run: BacktestRun, candles: readonly CandlePoint[], max: number): { equity: LinePoint[]; drawdown: LinePoint[] } {
  // The run's columns while its points are not built (equity-columns.ts): a year is 525,600 points.
  const { length: n, values, times } = equityCurve(run);
  const start = startEquityOf(run);
  const dd = drawdownSeries(start, values);
  const equity: LinePoint[] = [];
  const drawdown: LinePoint[] = [];
  const candleOf = new CandleCursor(candles);
  const kept = candles.length > 0 ? undefined : thinIndices(values, start, max);
  const count = kept === undefined ? n : kept.length;
  for (let j = 0; j < count; j++) {
    const i = kept === undefined ? j : (kept[j] as number);
    const time = candles.length > 0 ? candleOf.timeAt(times[i]! / 1000) : Math.floor(times[i]! / 1000);
    // The same candle (or second, without candles) as the last point: merged into it.
    pushCurvePoint(equity, drawdown, time, values[i]!, -dd[i]!);
  }
  return { equity, drawdown };
}

/**
 * Append a point to an equity line and its drawdown (negative percent) line. A time not after the
 * last point's (lightweight-charts needs them strictly increasing) merges into it: the later
 * equity, the deeper drawdown.
 */
export function pushCurvePoint(equity: LinePoint[], drawdown: LinePoint[], time: number, value: number, underwater: number): void {
  const last = equity[equity.length - 1];
  if (last !== undefined && time <= last.time) {
    last.value = value;
    const d = drawdown[drawdown.length - 1]!;
    if (underwater < d.value) d.value = underwater;
    return;
  }
  equity.push({ time, value });
  drawdown.push({ time, value: underwater });
}

/** Colours of plotted lines that name none, in turn (none is the candles' green or red). */
const PLOT_PALETTE = ['#f59e0b', '#8b5cf6', '#0ea5e9', '#ec4899', '#14b8a6', '#64748b', '#a16207', '#4f46e5'];

/**
 * What the strategy plotted, on the candles' time base as the equity is: a value plotted at clock
 * time t (a bar's onBar runs at its close + 1 ms) belongs to the candle holding t - 1, the bar
 * that had just closed; a candle of several bars keeps the last value plotted in it. Before the
 * first candle (a plot from onStart): the first candle.
 */
export function toPlots(run: BacktestRun, candles: readonly CandlePoint[]): PlotSeries[] {
  const lines = run.plots ?? [];
  return lines.map((line, n) => {
    const points: LinePoint[] = [];
    const candleOf = new CandleCursor(candles);
    // The recorder's columns while the points are not built (plot-recorder.ts): no pair made per point.
    const c = plotColumnsOf(line);
    const count = c === undefined ? line.points.length : c.times.length;
    for (let i = 0; i < count; i++) {
      const t = c === undefined ? (line.points[i] as [number, number])[0] : (c.times[i] as number);
      const value = c === undefined ? (line.points[i] as [number, number])[1] : (c.values[i] as number);
      const time = candles.length > 0 ? candleOf.timeAt((t - 1) / 1000) : Math.floor((t - 1) / 1000);
      const last = points[points.length - 1];
      if (last !== undefined && time <= last.time) last.value = value;
      else points.push({ time, value });
    }
    return { name: line.name, pane: line.pane, color: line.color ?? (PLOT_PALETTE[n % PLOT_PALETTE.length] as string), points };
  });
}

/** Bars whose close text sets the price axis' decimals. */
export const PRECISION_SAMPLE = 200;
const MAX_PRECISION = 8;

/** Decimals of a close text, trailing zeros not counted. */
export function decimalsOf(close: string): number {
  const dot = close.indexOf('.');
  return dot < 0 ? 0 : close.slice(dot + 1).replace(/0+$/, '').length;
}

/**
 * The report's chart data. `bars` are the run's bars, oldest first: an array, or a stream read
 * once (journalBars, whose Candle is reused): its count and span are then the run's (`barCount`,
 * `from`, `to`), which are the stream's when it is the range the run replayed.
 */
export function buildChartData(run: BacktestRun, bars: Iterable<BarInput>, maxPoints = DEFAULT_MAX_POINTS, symbolBars?: readonly { symbol: string; bars: Iterable<BarInput> }[]): ChartData {
  const several = run.symbols !== undefined && symbolBars !== undefined && symbolBars.length > 0;
  const first = several ? symbolChart(run, symbolBars[0] as { symbol: string; bars: Iterable<BarInput> }, maxPoints) : symbolChart(run, { symbol: run.symbol, bars }, maxPoints, run.fills);
  const candles = first.candles;
  const curves = toCurves(run, candles, maxPoints);
  return {
    candles,
    markers: first.markers,
    ...curves,
    plots: toPlots(run, candles),
    pricePrecision: first.pricePrecision,
    candleInterval: first.candleInterval,
    sourceBars: first.sourceBars,
    sourceEquityPoints: equityColumnsOf(run)?.length ?? run.equity.length,
    ...(several ? { symbols: symbolBars.slice(1).map((s) => symbolChart(run, s, maxPoints)) } : {}),
  };
}

/**
 * What a source of bars that gathered the candles while the run read them (candle-tap.ts) gives
 * for a bucket: the candles, the close decimals and the count, as reading the bars here would;
 * undefined when it has none for that bucket (the bars are then read).
 */
export interface TappedBars {
  tappedCandles(bucket: { ms: number; name: string }): { candles: CandlePoint[]; precision: number; count: number } | undefined;
}

/** The candles of `bars` in `bucket`, their close decimals (the first PRECISION_SAMPLE bars') and their count: gathered while the run read them (TappedBars), else read now. */
function gatherCandles(bars: Iterable<BarInput>, bucket: { ms: number; name: string }): { candles: CandlePoint[]; precision: number; count: number } {
  const tapped = (bars as Partial<TappedBars>).tappedCandles?.(bucket);
  if (tapped !== undefined) return tapped;
  const buckets = new CandleBuckets(bucket.ms);
  const scratch = new CandleScratch();
  let count = 0;
  let precision = 0;
  for (const b of bars) {
    const c = scratch.of(b);
    buckets.add(c.openTime, c.open, c.high, c.low, c.close);
    if (count < PRECISION_SAMPLE) precision = Math.max(precision, decimalsOf(c.exact.close));
    count++;
  }
  return { candles: buckets.candles, precision, count };
}

/** One symbol's candles (thinned as the run's bars are) and the markers of its fills (all the run's for one symbol). */
function symbolChart(run: BacktestRun, input: { symbol: string; bars: Iterable<BarInput> }, maxPoints: number, fills: BacktestRun['fills'] = run.fills.filter((f) => f.symbol === input.symbol)): SymbolChart {
  const bars = input.bars;
  const bucket = Array.isArray(bars) ? chooseBucket(run.interval, bars as readonly BarInput[], maxPoints) : runBucket(run, maxPoints);
  const { candles, precision, count } = gatherCandles(bars, bucket);
  return {
    symbol: input.symbol,
    candles,
    markers: toMarkers(fills, candles),
    pricePrecision: Math.min(precision, MAX_PRECISION),
    candleInterval: bucket.ms === 0 ? (run.interval || bucket.name) : bucket.name,
    sourceBars: count,
  };
}

/** The bucket of a run's bars from the run itself: its bar count and the time from its first open to its last close. */
function runBucket(run: BacktestRun, maxCandles: number): { ms: number; name: string } {
  const base = (INTERVAL_MS as Readonly<Record<string, number>>)[run.interval] ?? Math.max(1, Math.round((run.to - run.from) / Math.max(1, run.barCount)));
  return bucketFor(run.interval, base, run.barCount, run.to - run.from, maxCandles);
}
