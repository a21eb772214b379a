/**
 * backtest/warmup/: `halyard check`, whether a strategy's warm-up is enough. Imports the folders up
 * to sweep/.
 *
 * Does a strategy's warm-up suffice? Freqtrade's `recursive-analysis`, plus a lookahead self-check,
 * on the one backtest path (runBacktest's public options only: `history`, `recordPlots`, `onIntent`).
 * Every run gets the same fees, balances, fill model and detail bars (`detailed`) as a backtest
 * would (the CLI reads them with backtest's options), so the orders compared are the ones it places.
 *
 * Recursive check: the same decision range [from, to) is run several times, each with a different
 * amount of history before `from`: the least the warm-up needs (numeric warmup W: W - 1 bars, so
 * the first bar is the W-th; per interval: warmup-span.ts warmupHistoryStart), then that plus N
 * bars for each N of `startups`. EMA, RSI and their kind depend on every bar they were fed, so a
 * short warm-up decides differently than a run (or a live start) with more history. Each run is
 * compared with the one given the most history (the reference): the first intent that differs,
 * and per plotted line (ctx.plot) the largest relative difference. A line (or the orders) is
 * stable from the least history at which it, and every run with more, agrees with the reference.
 *
 * Lookahead self-check: Halyard strategies see closed bars only, but code can still cheat through
 * module-level state (shared across runs) or the wall clock. The range is cut at a bar `cut`:
 * (1) prefix: [from, cut) run alone must decide exactly as the whole run did before the cut, which
 * a strategy that reads only its bars always does; (2) resume: [cut, to) run with everything before
 * the cut as history, and the balances the whole run held there, must decide as the whole run did
 * after the cut: it sees the same bars. The cut is a bar near the middle where the whole run held
 * no position and sent nothing at the cut's open; orders still open there and state in ctx.state
 * (a bar counter, a cooldown) also make the resume differ, which the finding says.
 *
 * Relative difference of a and b: |a - b| / max(|a|, |b|) (0 when equal); a point one run plotted
 * and the other did not counts as Infinity.
 *
 * Several symbols in one account (`symbols`, run-several.ts): the same checks over periods (the
 * bars of every symbol opening at one time): history is counted in periods before the range and
 * every symbol gets its bars of them; the orders compared are every symbol's, in the order the
 * run sent them; the lookahead cut is a period where the whole run held none of the bases beyond
 * what it started with (each within its symbol's LOT_SIZE minQty) and sent nothing.
 */
import type { Instrument } from '../../core/market/index.ts';
import type { FeeRates } from '../../core/matching/index.ts';
import { D } from '../../core/money/decimal.ts';
import type { OrderIntent } from '../../core/orders/types.ts';
import { formatTime } from '../../data/time-text.ts';
import { resolveSetup } from '../../strategy/define.ts';
import type { AnyStrategyDefinition, StrategySetup } from '../../strategy/define.ts';
import { parseParams } from '../../strategy/params.ts';
import type { Interval } from '../../strategy/types.ts';
import type { BarInput } from '../sources/bar-input.ts';
import type { FillModel } from '../run/fill-model.ts';
import { runBacktest } from '../run/run-backtest.ts';
import type { IntentRecord } from '../run/run-backtest.ts';
import type { BacktestRun, PlotLine } from '../types.ts';
import { warmupHistoryStart, warmupRunBars } from '../sources/warmup-span.ts';

/** Bars opening in [from, to) (either open), oldest first; a fresh iterable each call (its Candle may be reused). */
export type BarSource = (from?: number, to?: number) => Iterable<BarInput>;

/** One symbol of a check of several: its name, its bars and its rules. */
export interface WarmupCheckSymbol {
  readonly symbol: string;
  readonly source: BarSource;
  readonly instrument: Instrument;
}

export interface WarmupCheckOptions extends WarmupCheckCommon, WarmupCheckSymbol {}

/** A check of several symbols in one account (the header says how it counts): `symbols` in place of one symbol's name, bars and rules. */
export interface SeveralWarmupCheckOptions extends WarmupCheckCommon {
  readonly symbols: readonly WarmupCheckSymbol[];
}

interface WarmupCheckCommon {
  readonly strategy: AnyStrategyDefinition;
  readonly params?: Record<string, unknown>;
  readonly interval: Interval;
  readonly fees: FeeRates;
  readonly balances: Readonly<Record<string, string>>;
  readonly fillModel?: FillModel;
  /** The sources' bars carry shorter ones to play fills on (journal-series.ts detailSeries), as `halyard backtest --detail` runs them. */
  readonly detailed?: boolean;
  /** First decision bar's open; default: the first bar with the warm-up and the largest startup before it. */
  readonly from?: number;
  readonly to?: number;
  /** Extra bars of history beyond the warm-up's, one run each; default [100, 500, 1000] (0, the warm-up alone, is always run). */
  readonly startups?: readonly number[];
  /** Relative difference under which plotted values agree; default 1e-6 (DEFAULT_TOLERANCE). */
  readonly tolerance?: number;
}

export const DEFAULT_STARTUPS: readonly number[] = [0, 100, 500, 1000];
/**
 * A millionth: under what a price tick resolves at usual prices (0.01 on 1000 is 1e-5), so a
 * smaller difference cannot move a rounded order price. An EMA(50) still off by 4e-8 after 300
 * bars passes it; at 1e-9 it would need about 400 (--tolerance sets it).
 */
export const DEFAULT_TOLERANCE = 1e-6;

/** The input cannot be checked (no bars in the range, too little history for the startups asked): the message says what there is. */
export class WarmupCheckInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarmupCheckInputError';
  }
}

/** A decision of one run, for the report: when, and what (one intent, or "nothing"). */
export interface DecisionText {
  readonly time: number;
  readonly text: string;
}

/** The first intent where a run and the reference (or the whole run) part. */
export interface FirstDifference {
  readonly time: number;
  readonly run: string;
  readonly reference: string;
}

export interface RunOrders {
  /** Bars of history before the range. */
  readonly historyBars: number;
  readonly intents: number;
  /** Absent when it decided exactly as the reference. */
  readonly firstDifference?: FirstDifference;
}

export interface RunPlot {
  readonly historyBars: number;
  /** Largest relative difference to the reference over the range (Infinity: a point only one of them has). */
  readonly maxRelDiff: number;
  /** Where it was largest, and the first time it passed the tolerance. */
  readonly at?: number;
  readonly firstDiffAt?: number;
}

/**
 * 'stable': every run agrees from the warm-up alone; 'raise': runs with less than `stableFrom`
 * bars of history differ; 'unsettled': even the second-largest history differs from the largest.
 */
export type Verdict = 'stable' | 'raise' | 'unsettled';

export interface OrdersCheck {
  readonly runs: readonly RunOrders[];
  readonly verdict: Verdict;
  /** Least bars of history from which every run agrees with the reference. */
  readonly stableFrom?: number;
}

export interface LineCheck {
  readonly name: string;
  readonly runs: readonly RunPlot[];
  readonly verdict: Verdict;
  readonly stableFrom?: number;
}

export interface HalfCheck {
  readonly same: boolean;
  readonly firstDifference?: FirstDifference;
  /** Plotted lines whose values differ beyond the tolerance, with their largest relative difference. */
  readonly plots: readonly { readonly name: string; readonly maxRelDiff: number; readonly at?: number }[];
}

export interface LookaheadCheck {
  /** The cut: the open of the first bar of the second part. */
  readonly cut: number;
  readonly prefix: HalfCheck;
  /** Undefined when no bar near the middle had the whole run flat (`resumeSkipped` says why). */
  readonly resume?: HalfCheck;
  readonly resumeSkipped?: string;
  /**
   * Base the whole run held at the cut beyond what it started with, with its asset (below LOT_SIZE minQty: dust a
   * commission in base left), when not zero. The second part starts with that balance but not the
   * price it was bought at, and the next entry's average price blends it in the whole run: a
   * difference of the second part is then not counted as a finding.
   */
  readonly dustAtCut?: string;
}

export interface WarmupCheckReport {
  readonly strategy: string;
  /** The symbol; of several, their names joined by ','. */
  readonly symbol: string;
  /** A check of several symbols: their names (absent for one); `bars` and the history counts are then periods. */
  readonly symbols?: readonly string[];
  readonly interval: Interval;
  /** The range's first bar's open, and the end (the last bar's close + 1). */
  readonly from: number;
  readonly to: number;
  readonly bars: number;
  /** The warm-up as declared: a number or a count per interval. */
  readonly warmup: number | Readonly<Partial<Record<Interval, number>>>;
  /** Bars of history the warm-up alone needs before the first bar (the least run). */
  readonly baseHistory: number;
  /** Closed bars the strategy keeps (define.ts history): history beyond them changes nothing. */
  readonly keptBars: number;
  readonly startups: readonly number[];
  readonly tolerance: number;
  readonly orders: OrdersCheck;
  readonly plots: readonly LineCheck[];
  readonly lookahead?: LookaheadCheck;
  readonly lookaheadSkipped?: string;
  /** Handler failures per run (a strategy that throws decides nothing on those bars). */
  readonly failures: number;
  /** Every check found nothing. */
  readonly passed: boolean;
}

interface Collected {
  readonly historyBars: number;
  readonly run: BacktestRun;
  readonly intents: readonly IntentRecord[];
}

export function relDiff(a: number, b: number): number {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale === 0 || !Number.isFinite(scale) ? Infinity : Math.abs(a - b) / scale;
}

/** One intent as the report shows it: its kind, then its fields that are set (money as typed). */
export function intentText(intent: OrderIntent): string {
  const fields = Object.entries(intent).filter(([k, v]) => k !== 'kind' && v !== undefined);
  const text = fields.map(([k, v]) => `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`).join(' ');
  return `${intent.kind} ${text}`;
}

const recordText = (r: IntentRecord | undefined): string => (r === undefined ? 'nothing' : `${intentText(r.intent)}${r.origin === 'engine' ? ' (by the engine)' : ''}`);
/** What two intents must share to be the same decision: the client order id aside (a run cut in two numbers its orders afresh). */
const recordKey = (r: IntentRecord): string => `${r.time}|${r.origin}|${JSON.stringify({ ...r.intent, clientOrderId: undefined })}`;

/** The first index where the two lists of intents part, as a FirstDifference; undefined when equal. */
function firstDifference(run: readonly IntentRecord[], ref: readonly IntentRecord[]): FirstDifference | undefined {
  const n = Math.max(run.length, ref.length);
  for (let i = 0; i < n; i++) {
    const a = run[i];
    const b = ref[i];
    if (a !== undefined && b !== undefined && recordKey(a) === recordKey(b)) continue;
    const time = Math.min(a?.time ?? Infinity, b?.time ?? Infinity);
    // What each did at that time: the intent there, or nothing when it sent none then.
    const at = (r: IntentRecord | undefined) => (r !== undefined && r.time === time ? r : undefined);
    return { time, run: recordText(at(a)), reference: recordText(at(b)) };
  }
  return undefined;
}

/** Largest relative difference of two lines' points with time in (after, before), and where. */
function compareLine(a: PlotLine | undefined, b: PlotLine | undefined, tolerance: number, after = -Infinity, before = Infinity): { maxRelDiff: number; at?: number; firstDiffAt?: number } {
  const values = (l: PlotLine | undefined) => new Map((l?.points ?? []).filter(([t]) => t > after && t < before));
  const va = values(a);
  const vb = values(b);
  const times = [...new Set([...va.keys(), ...vb.keys()])].sort((x, y) => x - y);
  let max = 0;
  let at: number | undefined;
  let first: number | undefined;
  for (const t of times) {
    const x = va.get(t);
    const y = vb.get(t);
    const d = x === undefined || y === undefined ? Infinity : relDiff(x, y);
    if (d > tolerance && first === undefined) first = t;
    if (d > max) {
      max = d;
      at = t;
    }
  }
  return { maxRelDiff: max, ...(at === undefined ? {} : { at }), ...(first === undefined ? {} : { firstDiffAt: first }) };
}

/** The least history from which every run agrees (`agrees[i]` for runs in ascending history; the last is the reference). */
function stability(history: readonly number[], agrees: readonly boolean[]): { verdict: Verdict; stableFrom?: number } {
  let k = agrees.length - 1;
  while (k > 0 && agrees[k - 1] === true) k--;
  if (k === 0) return { verdict: 'stable', stableFrom: history[0] as number };
  if (k === agrees.length - 1) return { verdict: 'unsettled' };
  return { verdict: 'raise', stableFrom: history[k] as number };
}

/** Open times of the sources' bars in [from, to), oldest first, each once (of several symbols: the periods; numbers only: no bar is kept). */
function openTimes(legs: readonly WarmupCheckSymbol[], from?: number, to?: number): number[] {
  const out: number[] = [];
  if (legs.length === 1) {
    for (const bar of (legs[0] as WarmupCheckSymbol).source(from, to)) out.push(bar.openTime);
    return out;
  }
  const set = new Set<number>();
  for (const leg of legs) for (const bar of leg.source(from, to)) set.add(bar.openTime);
  return [...set].sort((a, b) => a - b);
}

/** Bars of history the warm-up alone needs before a range whose first bar opens at `first`. */
function baseHistoryBars(setup: StrategySetup, interval: Interval, first: number, before: readonly number[]): number {
  if (setup.warmupByInterval === undefined) return Math.max(0, setup.warmup - 1);
  const start = warmupHistoryStart(setup, interval, first);
  if (start === undefined) return 0;
  return before.length - lowerBound(before, start);
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The balances a run held before `time`: its start balances with every earlier fill applied (exact decimals). */
function balancesBefore(run: BacktestRun, time: number): Record<string, string> {
  const bal = new Map<string, InstanceType<typeof D>>(Object.entries(run.startBalances).map(([a, v]) => [a, new D(v)]));
  const add = (asset: string, v: InstanceType<typeof D>) => bal.set(asset, (bal.get(asset) ?? new D(0)).plus(v));
  const baseOf = new Map((run.symbols ?? []).map((s) => [s.symbol, s.baseAsset]));
  for (const f of run.fills) {
    if (f.time >= time) break;
    const sign = f.side === 'BUY' ? 1 : -1;
    add(baseOf.get(f.symbol) ?? run.baseAsset, new D(f.qty).times(sign));
    add(run.quoteAsset, new D(f.quoteQty).times(-sign));
    add(f.commissionAsset, new D(f.commission).negated());
  }
  return Object.fromEntries([...bal].map(([a, v]) => [a, v.toFixed()]));
}

/**
 * Where to cut for the resume check: the bar nearest the middle (in the middle half) at whose open
 * the whole run held its starting position (within LOT_SIZE minQty) and sent nothing; undefined when none did.
 */
function flatCut(run: BacktestRun, opens: readonly number[], intents: readonly IntentRecord[]): number | undefined {
  const startBase = Number(run.startBalances[run.baseAsset] ?? '0');
  // Flat as the strategy sees it: less than LOT_SIZE minQty more or less than it started with (a commission taken in base leaves dust).
  const dust = Math.max(Number(run.lot?.minQty ?? '0'), 1e-12);
  const sentAt = new Set(intents.map((r) => r.time));
  const eq = run.equity;
  const several = run.symbols;
  // Of several symbols the equity's position column is a value: each base's balance at the open is what says it.
  const flatAt =
    several === undefined
      ? (i: number): boolean => {
          const prev = eq[i - 1];
          return prev !== undefined && Math.abs(prev.position - startBase) < dust;
        }
      : (i: number): boolean => {
          const bal = balancesBefore(run, opens[i] as number);
          return several.every((s) => Math.abs(Number(bal[s.baseAsset] ?? '0') - Number(run.startBalances[s.baseAsset] ?? '0')) < Math.max(Number(s.lot?.minQty ?? '0'), 1e-12));
        };
  const n = opens.length;
  const mid = Math.floor(n / 2);
  for (let d = 0; d <= Math.floor(n / 4); d++) {
    for (const i of d === 0 ? [mid] : [mid - d, mid + d]) {
      if (i < 1 || i >= n) continue;
      const open = opens[i] as number;
      if (flatAt(i) && !sentAt.has(open)) return open;
    }
  }
  return undefined;
}

/** What the run held at the cut beyond its start, of each base asset (`0.0001 BTC, 0.002 ETH`); undefined when nothing. */
function dustText(run: BacktestRun, atCut: Readonly<Record<string, string>>): string | undefined {
  const bases = run.symbols === undefined ? [run.baseAsset] : run.symbols.map((s) => s.baseAsset);
  const parts = bases.flatMap((asset) => {
    const d = new D(atCut[asset] ?? '0').minus(run.startBalances[asset] ?? '0');
    return d.isZero() ? [] : [`${d.toFixed()} ${asset}`];
  });
  return parts.length === 0 ? undefined : parts.join(', ');
}

export function checkWarmup(opts: WarmupCheckOptions | SeveralWarmupCheckOptions): WarmupCheckReport {
  const legs: readonly WarmupCheckSymbol[] = 'symbols' in opts ? opts.symbols : [opts];
  if (legs.length === 0) throw new WarmupCheckInputError('symbols is empty: give at least one symbol');
  const names = legs.map((l) => l.symbol);
  const several = legs.length > 1;
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
  const params = parseParams(opts.strategy.name, opts.strategy.params, opts.params ?? {}) as Record<string, unknown>;
  const setup = resolveSetup(opts.strategy, params as never);
  const startups = [...new Set([0, ...(opts.startups ?? DEFAULT_STARTUPS)])].sort((a, b) => a - b);
  if (startups.some((n) => !Number.isInteger(n) || n < 0)) throw new WarmupCheckInputError(`startups must be whole numbers >= 0, got ${startups.join(', ')}`);
  if (startups.length < 2) throw new WarmupCheckInputError('give at least one startup above 0: the runs with more history are what the warm-up is compared with');
  const largest = startups[startups.length - 1] as number;
  const what = `${names.join(', ')} ${opts.interval}`;

  let from = opts.from;
  if (from === undefined) {
    // The first bar with the warm-up and the largest startup before it (warmupRunBars bounds a per-interval warm-up's bars).
    const need = warmupRunBars(setup, opts.interval) + largest;
    const opens = openTimes(legs, undefined, opts.to);
    if (opens.length <= need) throw new WarmupCheckInputError(`${opts.strategy.name}'s warm-up and a startup of ${largest} need ${need} bars of ${what} before the first decision, and there are ${opens.length} bars in all${opens.length > 0 ? ` (${formatTime(opens[0] as number)} .. ${formatTime(opens[opens.length - 1] as number)})` : ''}: give smaller --startups or more data`);
    from = opens[need] as number;
  }
  const range = openTimes(legs, from, opts.to);
  if (range.length === 0) throw new WarmupCheckInputError(`no ${what} bars in ${formatTime(from)} .. ${opts.to === undefined ? 'the end' : formatTime(opts.to)}`);
  const first = range[0] as number;
  const before = openTimes(legs, undefined, first);
  const base = baseHistoryBars(setup, opts.interval, first, before);
  if (before.length < base + largest) {
    throw new WarmupCheckInputError(
      `${before.length} bars of ${what} come before ${formatTime(first)}; the warm-up needs ${base} and a startup of ${largest} needs ${base + largest}: give an earlier data start, a later --from or smaller --startups (at most ${Math.max(0, before.length - base)})`,
    );
  }

  /** Where the history of `historyBars` bars before the range starts (undefined: none). */
  const historyStart = (historyBars: number): number | undefined => (historyBars === 0 ? undefined : (before[before.length - historyBars] as number));
  const runWith = (historyBars: number, bars: { from: number; to?: number | undefined }, historyFrom = historyStart(historyBars), balances = opts.balances): Collected => {
    const intents: IntentRecord[] = [];
    const common = {
      strategy: opts.strategy,
      params,
      interval: opts.interval,
      fees: opts.fees,
      balances,
      ...(opts.fillModel === undefined ? {} : { fillModel: opts.fillModel }),
      ...(opts.detailed === true ? { detailed: true } : {}),
      from: bars.from,
      ...(bars.to === undefined ? {} : { to: bars.to }),
      runId: 'check',
      recordPlots: true,
      onIntent: (r: IntentRecord) => intents.push(r),
    };
    // Of several symbols: each symbol's bars of the periods, and of the periods of history.
    const history = (leg: WarmupCheckSymbol) => (historyFrom === undefined ? {} : { history: leg.source(historyFrom, bars.from) });
    const only = legs[0] as WarmupCheckSymbol;
    const run = several
      ? runBacktest({ ...common, symbols: legs.map((leg) => ({ symbol: leg.symbol, bars: leg.source(bars.from, bars.to), instrument: leg.instrument, ...history(leg) })) })
      : runBacktest({ ...common, symbol: only.symbol, bars: only.source(bars.from, bars.to), instrument: only.instrument, ...history(only) });
    return { historyBars, run, intents };
  };

  const runs = startups.map((n) => runWith(base + n, { from: first, to: opts.to }));
  const ref = runs[runs.length - 1] as Collected;
  const history = runs.map((r) => r.historyBars);

  const orderRuns: RunOrders[] = runs.map((r) => {
    const d = firstDifference(r.intents, ref.intents);
    return { historyBars: r.historyBars, intents: r.intents.length, ...(d === undefined ? {} : { firstDifference: d }) };
  });
  const orders: OrdersCheck = { runs: orderRuns, ...stability(history, orderRuns.map((r) => r.firstDifference === undefined)) };

  const lines = [...new Set(runs.flatMap((r) => (r.run.plots ?? []).map((p) => p.name)))];
  const lineOf = (r: Collected, name: string) => r.run.plots?.find((p) => p.name === name);
  const plots: LineCheck[] = lines.map((name) => {
    const lineRuns: RunPlot[] = runs.map((r) => ({ historyBars: r.historyBars, ...compareLine(lineOf(r, name), lineOf(ref, name), tolerance) }));
    return { name, runs: lineRuns, ...stability(history, lineRuns.map((l) => l.maxRelDiff <= tolerance)) };
  });

  // Lookahead: against the run with the warm-up alone (what `halyard backtest` gives the strategy).
  const whole = runs[0] as Collected;
  let lookahead: LookaheadCheck | undefined;
  let lookaheadSkipped: string | undefined;
  if (range.length < 4) lookaheadSkipped = `the range has ${range.length} bars: too few to cut in two`;
  else {
    const flat = flatCut(whole.run, range, whole.intents);
    const cut = flat ?? (range[Math.floor(range.length / 2)] as number);
    const half = (part: Collected, after: number, beforeT: number): HalfCheck => {
      const inside = (r: IntentRecord) => r.time > after && r.time < beforeT;
      const d = firstDifference(part.intents.filter(inside), whole.intents.filter(inside));
      const differ = lines
        .map((name) => ({ name, ...compareLine(lineOf(part, name), lineOf(whole, name), tolerance, after, beforeT) }))
        .filter((l) => l.maxRelDiff > tolerance)
        .map((l) => ({ name: l.name, maxRelDiff: l.maxRelDiff, ...(l.at === undefined ? {} : { at: l.at }) }));
      return { same: d === undefined && differ.length === 0, ...(d === undefined ? {} : { firstDifference: d }), plots: differ };
    };
    const prefix = half(runWith(base, { from: first, to: cut }), -Infinity, cut);
    if (flat === undefined) {
      lookahead = { cut, prefix, resumeSkipped: 'the whole run held a position (or sent an order) at every bar in the middle half of the range, so no cut leaves nothing open' };
    } else {
      // Everything before the cut as history (the whole run's history, then its bars up to the cut) and the balances it held there.
      const atCut = balancesBefore(whole.run, cut);
      const resumeRun = runWith(base + lowerBound(range, cut), { from: cut, to: opts.to }, historyStart(base) ?? first, atCut);
      const dust = dustText(whole.run, atCut);
      lookahead = { cut, prefix, resume: half(resumeRun, cut, Infinity), ...(dust === undefined ? {} : { dustAtCut: dust }) };
    }
  }

  const failures = runs.reduce((n, r) => n + r.run.strategyFailures.length, 0);
  // A strategy stopped by a failure decides nothing after it: every run agrees, and that proves nothing.
  const passed = failures === 0 && orders.verdict === 'stable' && plots.every((p) => p.verdict === 'stable') && (lookahead === undefined || (lookahead.prefix.same && (lookahead.resume?.same !== false || lookahead.dustAtCut !== undefined)));
  return {
    strategy: opts.strategy.name,
    symbol: names.join(','),
    ...(several ? { symbols: names } : {}),
    interval: opts.interval,
    from: whole.run.from,
    to: whole.run.to,
    bars: whole.run.barCount,
    warmup: setup.warmupByInterval ?? setup.warmup,
    baseHistory: base,
    keptBars: setup.history,
    startups,
    tolerance,
    orders,
    plots,
    ...(lookahead === undefined ? {} : { lookahead }),
    ...(lookaheadSkipped === undefined ? {} : { lookaheadSkipped }),
    failures,
    passed,
  };
}

const rel = (d: number): string => (d === Infinity ? 'a value only one run has' : d === 0 ? '0' : d.toPrecision(2));
const bars = (n: number): string => `${n} bar${n === 1 ? '' : 's'}`;
/** A count of history as the report counts it: bars of one symbol, periods of several (the bars of every symbol opening together). */
const units = (r: Pick<WarmupCheckReport, 'symbols'>, n: number): string => (r.symbols === undefined ? bars(n) : `${n} period${n === 1 ? '' : 's'}`);

/** The warm-up as declared, for a sentence: `16` or `1m 5, 1h 3`. */
function warmupText(w: WarmupCheckReport['warmup']): string {
  return typeof w === 'number' ? String(w) : Object.entries(w).map(([i, n]) => `${i} ${n}`).join(', ');
}

/** What to raise the warm-up to so that `history` bars come before the first decision. */
function raiseTo(r: WarmupCheckReport, history: number): string {
  if (typeof r.warmup === 'number') return `raise warmup to at least ${history + 1}`;
  return `raise the warmup so that at least ${units(r, history)} of ${r.interval} come before the first decision (warmup['${r.interval}'] >= ${history + 1}, or a longer interval's count covering as much)`;
}

function verdictText(r: WarmupCheckReport, what: string, c: { verdict: Verdict; stableFrom?: number }, detail: string): string {
  if (c.verdict === 'stable') return `${what}: stable with warmup ${warmupText(r.warmup)} (${detail}).`;
  const runs = r.startups.map((n) => r.baseHistory + n);
  const largest = runs[runs.length - 1] as number;
  if (c.verdict === 'unsettled') return `${what}: differs even between ${units(r, runs[runs.length - 2] as number)} and ${units(r, largest)} of history (${detail}): try --startups beyond ${r.startups[r.startups.length - 1] as number} to find where it settles.`;
  return `${what}: differs until ${units(r, c.stableFrom as number)} of history (${detail}): ${raiseTo(r, c.stableFrom as number)}.`;
}

function halfText(label: string, h: HalfCheck): string[] {
  if (h.same) return [`Lookahead: ${label} decided and plotted as the whole run did.`];
  const out: string[] = [];
  const cause = 'the strategy depends on more than the bars it has seen (module-level state shared between runs, the wall clock such as Date.now()';
  if (h.firstDifference !== undefined) {
    const d = h.firstDifference;
    out.push(`Lookahead: ${label} decided differently: at ${formatTime(d.time)} the whole run sent ${d.reference}, the part ${d.run}; ${cause}${label.startsWith('the second') ? ', or orders or ctx.state carried across the cut' : ''}).`);
  }
  for (const p of h.plots) out.push(`Lookahead: ${label} plotted '${p.name}' differently (largest relative difference ${rel(p.maxRelDiff)}${p.at === undefined ? '' : ` at ${formatTime(p.at)}`}).`);
  return out;
}

/** The report as sentences, one finding a line. */
export function formatWarmupCheck(r: WarmupCheckReport): string[] {
  const history = r.startups.map((n) => r.baseHistory + n);
  // Of several symbols, bars are counted in periods (the bars of every symbol opening together).
  const unit = r.symbols === undefined ? 'bars' : 'periods';
  const market = r.symbols === undefined ? r.symbol : `${r.symbols.join(', ')} (one account)`;
  const out = [
    `Checked ${r.strategy} on ${market} ${r.interval}, ${formatTime(r.from)} .. ${formatTime(r.to)} (${r.symbols === undefined ? bars(r.bars) : `${r.bars} periods`}), warmup ${warmupText(r.warmup)}: ${r.startups.length} runs with ${history.join(', ')} ${unit} of history before the range, each compared with the last (relative tolerance ${r.tolerance === 0 ? '0' : r.tolerance.toExponential()}).`,
  ];
  const worstOrders = r.orders.runs.find((x) => x.firstDifference !== undefined);
  const ordersDetail =
    worstOrders?.firstDifference === undefined
      ? `every run sent the same ${r.orders.runs[0]?.intents ?? 0} intents`
      : `with ${units(r, worstOrders.historyBars)} of history, first at ${formatTime(worstOrders.firstDifference.time)}: it sent ${worstOrders.firstDifference.run}, the reference ${worstOrders.firstDifference.reference}`;
  out.push(verdictText(r, 'Orders', r.orders, ordersDetail));
  if (r.plots.length === 0) out.push('Plots: the strategy plotted nothing (ctx.plot), so only its orders were compared.');
  for (const p of r.plots) {
    const worst = p.runs.reduce((a, b) => (b.maxRelDiff > a.maxRelDiff ? b : a));
    const detail =
      worst.maxRelDiff === 0
        ? 'identical in every run'
        : worst.maxRelDiff === Infinity
          ? `with ${units(r, worst.historyBars)} of history it has no value where the reference has one, or the reverse${worst.at === undefined ? '' : `, first at ${formatTime(worst.at)}`}`
          : `largest relative difference ${rel(worst.maxRelDiff)} with ${units(r, worst.historyBars)} of history${worst.at === undefined ? '' : ` at ${formatTime(worst.at)}`}`;
    out.push(verdictText(r, `Plot '${p.name}'`, p, detail));
  }
  if (r.lookahead !== undefined) {
    const cut = formatTime(r.lookahead.cut);
    out.push(...halfText(`the first part run alone (to ${cut})`, r.lookahead.prefix));
    const resume = r.lookahead.resume;
    if (resume !== undefined && !resume.same && r.lookahead.dustAtCut !== undefined) {
      const d = resume.firstDifference;
      const what = d === undefined ? `plotted ${resume.plots.map((p) => `'${p.name}'`).join(', ')} differently` : `decided differently at ${formatTime(d.time)} (the whole run sent ${d.reference}, the part ${d.run})`;
      out.push(
        `Lookahead (not counted): the second part run from ${cut} with the first as history ${what}; at the cut the whole run held ${r.lookahead.dustAtCut} of dust beyond its start (a commission taken in base), which the part starts with but without the price it was bought at, and the next entry's average price blends it in. The first part's check is the one that counts.`,
      );
    } else if (resume !== undefined) out.push(...halfText(`the second part run from ${cut} with the first as history`, resume));
    else out.push(`Lookahead: the second part was not run: ${r.lookahead.resumeSkipped ?? ''}.`);
  } else out.push(`Lookahead: not checked: ${r.lookaheadSkipped ?? ''}.`);
  const largest = history[history.length - 1] as number;
  if (largest > r.keptBars) out.push(`Note: the strategy keeps its last ${bars(r.keptBars)} (history), so history beyond ${r.keptBars} bars cannot change what it computes; raise its history to test more.`);
  if (r.failures > 0) out.push(`Result: the strategy failed: its handlers threw ${r.failures} time(s) across the runs, and a stopped strategy decides nothing, so runs that agree prove nothing; fix it first (\`halyard backtest\`'s summary shows the error) (exit code 1).`);
  else out.push(r.passed ? 'Result: every check passed.' : 'Result: a check found a difference (exit code 1).');
  return out;
}
