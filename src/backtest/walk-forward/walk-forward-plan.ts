/**
 * Fold windows for a walk-forward test, by bar position. Rolling by default: fold k trains on
 * [k*step, k*step + train) and tests on the `test` bars right after; `anchored` keeps every train
 * window starting at bar 0 (growing). The step defaults to the test length, so test windows
 * tile the data without overlap. Missing lengths are derived from the bar count: with neither
 * given, each fold trains on three times its test length (train + folds * test = all bars, less
 * the remainder of the division). Bars after the last test window are unused (`unusedBars`).
 *
 * Each window is its own backtest, so a window no longer than the strategy's warmup never lets it
 * trade: with `minWindowBars` (the largest warmup across the grid), a plan whose train or test
 * window is not longer than that is refused, as is one whose windows come out empty. Every
 * message gives the numbers, never a negative one.
 */
import { HalyardError } from '../../exchange/errors/errors.ts';
import type { BarWindow } from '../sweep/sweep-job.ts';

export interface FoldSpec {
  folds: number;
  trainBars?: number;
  testBars?: number;
  stepBars?: number;
  anchored?: boolean;
  /** A train or test window must be longer than this many bars (the strategy's warmup; 0 by default). */
  minWindowBars?: number;
  /** Where minWindowBars comes from, for the message (e.g. "sma-crossover at fast=5 slow=60, the largest across the grid"). */
  minWindowSource?: string;
}

export interface FoldPlan {
  index: number;
  train: BarWindow;
  test: BarWindow;
}

export interface FoldsPlan {
  trainBars: number;
  testBars: number;
  stepBars: number;
  folds: FoldPlan[];
  /** Bars after the last test window that no fold uses. */
  unusedBars: number;
}

export class WalkForwardPlanError extends HalyardError {
  constructor(message: string) {
    super('WALK_FORWARD_PLAN', `walk-forward: ${message}`);
  }
}

const positiveInt = (name: string, v: number | undefined): void => {
  if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new WalkForwardPlanError(`${name} must be an integer >= 1, got ${String(v)}`);
};

const bars = (n: number): string => `${n} bar${n === 1 ? '' : 's'}`;
const SHORTEN = 'use fewer --folds, a longer --from .. --to range, or set --train-bars / --test-bars';

/** The resolved lengths and the windows; throws WalkForwardPlanError when the data is too short for them. */
export function planFolds(totalBars: number, spec: FoldSpec): FoldsPlan {
  const { folds } = spec;
  positiveInt('folds', folds);
  positiveInt('trainBars', spec.trainBars);
  positiveInt('testBars', spec.testBars);
  positiveInt('stepBars', spec.stepBars);
  const total = Math.max(0, totalBars);
  const step0 = spec.stepBars;
  let trainBars: number;
  let testBars: number;
  if (spec.testBars === undefined && spec.trainBars === undefined) {
    testBars = Math.floor(total / (folds + 3));
    trainBars = 3 * testBars;
    if (testBars < 1) throw new WalkForwardPlanError(`${folds} fold(s) need at least ${folds + 3} bars (a train window of 3 bars and a test window of 1 per fold); the data has ${bars(total)}`);
  } else if (spec.testBars === undefined) {
    trainBars = spec.trainBars!;
    const left = Math.max(0, total - trainBars);
    testBars = Math.floor(left / folds);
    if (testBars < 1) throw new WalkForwardPlanError(`a train window of ${bars(trainBars)} leaves ${bars(left)} for ${folds} test window(s); the data has ${bars(total)}: use a shorter --train-bars or fewer --folds`);
  } else if (spec.trainBars === undefined) {
    testBars = spec.testBars;
    const tested = (step0 ?? testBars) * (folds - 1) + testBars;
    if (tested >= total) throw new WalkForwardPlanError(`${folds} fold(s) of ${bars(testBars)} to test (step ${step0 ?? testBars}) take ${bars(tested)}, which leaves none to train on; the data has ${bars(total)}: use a shorter --test-bars or fewer --folds`);
    trainBars = total - tested;
  } else {
    trainBars = spec.trainBars;
    testBars = spec.testBars;
  }
  const stepBars = step0 ?? testBars;
  const needed = trainBars + stepBars * (folds - 1) + testBars;
  if (needed > total) {
    throw new WalkForwardPlanError(`${folds} fold(s) of ${trainBars} train + ${testBars} test bars (step ${stepBars}) need ${bars(needed)}; the data has ${bars(total)}`);
  }
  const warmup = spec.minWindowBars ?? 0;
  if (warmup > 0) {
    const source = spec.minWindowSource === undefined ? '' : ` (${spec.minWindowSource})`;
    const short = [trainBars <= warmup ? `the train window of ${bars(trainBars)}` : undefined, testBars <= warmup ? `the test window of ${bars(testBars)}` : undefined].filter(Boolean);
    if (short.length) {
      throw new WalkForwardPlanError(
        `${short.join(' and ')} ${short.length === 1 ? 'is' : 'are'} not longer than the strategy's warmup of ${bars(warmup)}${source}: each window is its own backtest, and the strategy trades only after its warmup. Each window needs at least ${bars(warmup + 1)}: ${SHORTEN}`,
      );
    }
  }
  const plans: FoldPlan[] = [];
  for (let k = 0; k < folds; k++) {
    const start = k * stepBars;
    plans.push({
      index: k + 1,
      train: spec.anchored ? { skip: 0, take: start + trainBars } : { skip: start, take: trainBars },
      test: { skip: start + trainBars, take: testBars },
    });
  }
  return { trainBars, testBars, stepBars, folds: plans, unusedBars: total - needed };
}
