/**
 * What a finished run should say about itself besides its results (`BacktestRun.notices`, printed
 * by the summary as warnings): a warmup the run never got past, and for a warmup per interval
 * (define.ts) which interval's bars were missing: before the range (history too short) or at the end.
 * Plain sentences, made from the run's own numbers only (so the JSON stays byte-identical for the
 * same input).
 */
import type { Interval } from '../../strategy/types.ts';

export interface NoticeInput {
  /** The strategy's `warmup`: closed bars its series needs before onBar runs. */
  readonly warmup: number;
  readonly barCount: number;
  /** Bars before the range given to the strategy as history (BacktestOptions.history). */
  readonly startupBars?: number;
}

/** The part of `warmup` the run's own bars must fill once `startup` bars before the range did the rest (at least 1: the bar onBar first sees). */
export function warmupInRun(warmup: number, startup = 0): number {
  return startup > 0 ? Math.max(1, warmup - startup) : warmup;
}

/** Bars that only filled the strategy's history, onBar not yet running: the first warmup - 1, at most all of them. */
export function warmupBars(warmup: number, barCount: number): number {
  return Math.min(barCount, Math.max(0, warmup - 1));
}

const WARMUP_SOURCE = "warmup bars come from the run's own bars (nothing is loaded before the range): start the range earlier or run more bars";

/** The summary's Warmup line: how many of the run's bars the warmup took (undefined when it took none). */
export function warmupLine(warmupOfStrategy: number | undefined, barCount: number, startup = 0): string | undefined {
  if (warmupOfStrategy === undefined || warmupOfStrategy <= 1) return undefined;
  const warmup = warmupInRun(warmupOfStrategy, startup);
  if (startup > 0) {
    const before = `${warmupOfStrategy} bars, ${Math.min(startup, warmupOfStrategy - 1)} of them from before the range`;
    if (warmup <= 1) return `${before}: onBar ran from the first bar`;
    return `${before}; ${warmupLine(warmup, barCount) ?? ''}`;
  }
  if (warmup > barCount) return `${warmup} bars, more than the run's ${barCount}: onBar never ran`;
  if (warmup === barCount) return `${warmup} bars, all of the run's: onBar ran on the last bar only`;
  return `${warmup} bars: the first ${warmupBars(warmup, barCount)} only filled the strategy's history, onBar ran on the other ${barCount - warmupBars(warmup, barCount)}`;
}

export function runNotices(input: NoticeInput): string[] {
  const notices: string[] = [];
  const r = { warmup: warmupInRun(input.warmup, input.startupBars), barCount: input.barCount };
  if (r.warmup > r.barCount) {
    notices.push(`the strategy's warmup is ${r.warmup} bars and the run had ${r.barCount}: onBar never ran; ${WARMUP_SOURCE}`);
  } else if (r.warmup === r.barCount) {
    notices.push(`the strategy's warmup is ${r.warmup} bars and the run had ${r.barCount}: onBar ran only on the last bar, too late for its orders to fill; ${WARMUP_SOURCE}`);
  }
  return notices;
}

/** What a run with a warmup per interval knows of it (run-backtest.ts). */
export interface IntervalNoticeInput {
  /** Each declared interval's count (0 where the strategy named none). */
  readonly byInterval: Readonly<Partial<Record<Interval, number>>>;
  /** The run's interval. */
  readonly interval: Interval;
  readonly barCount: number;
  /** The run's bars before onBar was first let through (all of them when it never was). */
  readonly idleBars: number;
  readonly startupBars?: number;
  /** Whether history before the range was given (loaded: BacktestOptions.history). */
  readonly historyGiven: boolean;
  /** The series short of their count once that history was in (StrategyRunner.warmupShort). */
  readonly shortAtStart: readonly WarmupShortfall[];
  /** The series still short of their count after the last bar. */
  readonly shortAtEnd: readonly WarmupShortfall[];
}

export interface WarmupShortfall {
  readonly interval: Interval;
  readonly needs: number;
  readonly has: number;
}

/** '1m 31, 1h 20 bars': the counts a warmup per interval asks for (those above 0), in the strategy's order. */
export function warmupCounts(byInterval: Readonly<Partial<Record<string, number>>>): string {
  const named = Object.entries(byInterval).filter((e): e is [string, number] => (e[1] ?? 0) > 0);
  return named.length === 0 ? 'none' : `${named.map(([i, n]) => `${i} ${n}`).join(', ')} bar${named.length === 1 && named[0]?.[1] === 1 ? '' : 's'}`;
}

/** '1h had 12 of its 20 bars, 1m 5 of its 31'. */
function shortText(short: readonly WarmupShortfall[]): string {
  return short.map((s, k) => (k === 0 ? `${s.interval} had ${s.has} of its ${s.needs} bars` : `${s.interval} ${s.has} of its ${s.needs}`)).join(', ');
}

const HISTORY_SOURCE = 'the bars loaded before the range were too few for it: import or record earlier klines, or start the range later';

/**
 * The notices of a run with a warmup per interval: onBar never let through or only on the last
 * bar (which intervals lacked bars at the end), and history before the range that fell short of
 * it (which intervals, and from which of the run's bars onBar ran).
 */
export function intervalWarmupNotices(input: IntervalNoticeInput): string[] {
  const notices: string[] = [];
  const counts = warmupCounts(input.byInterval);
  const source = input.historyGiven ? HISTORY_SOURCE : WARMUP_SOURCE;
  // The run's own interval needs one bar fewer before the range: the run's first bar is its last.
  const before = input.shortAtStart.filter((s) => (s.interval === input.interval ? s.has < s.needs - 1 : true));
  if (input.historyGiven && input.idleBars > 0 && before.length > 0) {
    const ran = input.idleBars < input.barCount ? `; onBar first ran on bar ${input.idleBars + 1} of ${input.barCount}` : '';
    notices.push(`the ${input.startupBars ?? 0} ${input.interval} bars before the range did not cover the strategy's warmup (${counts}): ${shortText(before)} at the first bar${ran}`);
  }
  if (input.idleBars >= input.barCount) {
    const end = input.shortAtEnd.length > 0 ? `: at the end ${shortText(input.shortAtEnd)}` : '';
    notices.push(`the strategy's warmup (${counts}) was not reached in the run's ${input.barCount} bars${end}: onBar never ran; ${source}`);
  } else if (input.idleBars === input.barCount - 1) {
    notices.push(`the strategy's warmup (${counts}) was reached on the last of the run's ${input.barCount} bars: onBar ran only on the last bar, too late for its orders to fill; ${source}`);
  }
  return notices;
}

/** The summary's Warmup line for a warmup per interval: its counts and how many of the run's bars it took (undefined when it took none and nothing came from before the range). */
export function intervalWarmupLine(byInterval: Readonly<Partial<Record<string, number>>>, idleBars: number, barCount: number, startup = 0, interval = ''): string | undefined {
  if (idleBars === 0 && startup === 0) return undefined;
  const counts = warmupCounts(byInterval);
  const head = startup > 0 ? `${counts}, ${startup} ${interval} bars of it from before the range` : counts;
  if (idleBars === 0) return `${head}: onBar ran from the first bar`;
  if (idleBars >= barCount) return `${head}: onBar never ran`;
  if (idleBars === barCount - 1) return `${head}: the first ${idleBars} of the run's ${barCount} bars only filled the strategy's history, onBar ran on the last bar only`;
  return `${head}: the first ${idleBars} of the run's bars only filled the strategy's history, onBar ran on the other ${barCount - idleBars}`;
}

/** The Warmup line of a run in either form (summary, report): undefined when there is nothing to say. */
export function runWarmupLine(run: { readonly warmup?: number; readonly warmupByInterval?: Readonly<Partial<Record<string, number>>>; readonly warmupIdleBars?: number; readonly barCount: number; readonly startupBars?: number; readonly interval: string }): string | undefined {
  if (run.warmupByInterval !== undefined) return intervalWarmupLine(run.warmupByInterval, run.warmupIdleBars ?? 0, run.barCount, run.startupBars, run.interval);
  return warmupLine(run.warmup, run.barCount, run.startupBars);
}

/**
 * Notices of several symbols' own (a run of several: run-several.ts), each said once, led by the
 * symbols it is about: 'BTCPHP, ETHPHP: the strategy's warmup ...' when both say the same.
 */
export function symbolNotices(bySymbol: readonly { readonly symbol: string; readonly notices: readonly string[] }[]): string[] {
  const who = new Map<string, string[]>();
  for (const { symbol, notices } of bySymbol) for (const n of notices) who.set(n, [...(who.get(n) ?? []), symbol]);
  return [...who].map(([n, symbols]) => `${symbols.join(', ')}: ${n}`);
}
