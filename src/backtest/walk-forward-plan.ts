/**
 * Fold windows for a walk-forward test, by bar position. Rolling by default: fold k trains on
 * [k*step, k*step + train) and tests on the `test` bars right after; `anchored` keeps every train
 * window starting at bar 0 (growing). The step defaults to the test length, so test windows
 * tile the data without overlap. Missing lengths are derived from the bar count: with neither
 * given, each fold trains on three times its test length (train + folds * test = all bars).
 */
import { HalyardError } from '../exchange/errors/errors.ts';
import type { BarWindow } from './sweep-job.ts';

export interface FoldSpec {
  folds: number;
  trainBars?: number;
  testBars?: number;
  stepBars?: number;
  anchored?: boolean;
}

export interface FoldPlan {
  index: number;
  train: BarWindow;
  test: BarWindow;
}

export class WalkForwardPlanError extends HalyardError {
  constructor(message: string) {
    super('WALK_FORWARD_PLAN', `walk-forward: ${message}`);
  }
}

const positiveInt = (name: string, v: number | undefined): void => {
  if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new WalkForwardPlanError(`${name} must be an integer >= 1, got ${String(v)}`);
};

/** The resolved lengths and the windows; throws WalkForwardPlanError when the data is too short. */
export function planFolds(totalBars: number, spec: FoldSpec): { trainBars: number; testBars: number; stepBars: number; folds: FoldPlan[] } {
  const { folds } = spec;
  positiveInt('folds', folds);
  positiveInt('trainBars', spec.trainBars);
  positiveInt('testBars', spec.testBars);
  positiveInt('stepBars', spec.stepBars);
  let { trainBars, testBars } = spec;
  const step0 = spec.stepBars;
  if (testBars === undefined && trainBars === undefined) {
    testBars = Math.floor(totalBars / (folds + 3));
    trainBars = 3 * testBars;
  } else if (testBars === undefined) {
    testBars = Math.floor((totalBars - trainBars!) / folds);
  } else if (trainBars === undefined) {
    trainBars = totalBars - (step0 ?? testBars) * (folds - 1) - testBars;
  }
  const stepBars = step0 ?? testBars;
  const needed = trainBars! + stepBars * (folds - 1) + testBars;
  if (!(testBars >= 1) || !(trainBars! >= 1) || needed > totalBars) {
    throw new WalkForwardPlanError(
      `${folds} fold(s) of ${trainBars} train + ${testBars} test bars (step ${stepBars}) need ${needed} bars; the data has ${totalBars}`,
    );
  }
  const train = trainBars!;
  const plans: FoldPlan[] = [];
  for (let k = 0; k < folds; k++) {
    const start = k * stepBars;
    plans.push({
      index: k + 1,
      train: spec.anchored ? { skip: 0, take: start + train } : { skip: start, take: train },
      test: { skip: start + train, take: testBars },
    });
  }
  return { trainBars: train, testBars, stepBars, folds: plans };
}
