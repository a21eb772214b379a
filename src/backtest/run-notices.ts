/**
 * What a finished run should say about itself besides its results (`BacktestRun.notices`, printed
 * by the summary as warnings): a warmup the run never got past.
 * Plain sentences, made from the run's own numbers only (so the JSON stays byte-identical for the
 * same input).
 */

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
