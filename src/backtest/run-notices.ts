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
}

/** Bars that only filled the strategy's history, onBar not yet running: the first warmup - 1, at most all of them. */
export function warmupBars(warmup: number, barCount: number): number {
  return Math.min(barCount, Math.max(0, warmup - 1));
}

const WARMUP_SOURCE = "warmup bars come from the run's own bars (nothing is loaded before the range): start the range earlier or run more bars";

/** The summary's Warmup line: how many of the run's bars the warmup took (undefined when it took none). */
export function warmupLine(warmup: number | undefined, barCount: number): string | undefined {
  if (warmup === undefined || warmup <= 1) return undefined;
  if (warmup > barCount) return `${warmup} bars, more than the run's ${barCount}: onBar never ran`;
  if (warmup === barCount) return `${warmup} bars, all of the run's: onBar ran on the last bar only`;
  return `${warmup} bars: the first ${warmupBars(warmup, barCount)} only filled the strategy's history, onBar ran on the other ${barCount - warmupBars(warmup, barCount)}`;
}

export function runNotices(r: NoticeInput): string[] {
  const notices: string[] = [];
  if (r.warmup > r.barCount) {
    notices.push(`the strategy's warmup is ${r.warmup} bars and the run had ${r.barCount}: onBar never ran; ${WARMUP_SOURCE}`);
  } else if (r.warmup === r.barCount) {
    notices.push(`the strategy's warmup is ${r.warmup} bars and the run had ${r.barCount}: onBar ran only on the last bar, too late for its orders to fill; ${WARMUP_SOURCE}`);
  }
  return notices;
}
