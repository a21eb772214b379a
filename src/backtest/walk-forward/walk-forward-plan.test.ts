import { describe, expect, it } from 'vitest';
import { planFolds } from './walk-forward-plan.ts';

describe('planFolds', () => {
  it('rolls train and test windows, stepping by the test length', () => {
    const p = planFolds(1000, { folds: 3, trainBars: 400, testBars: 200 });
    expect(p.folds).toEqual([
      { index: 1, train: { skip: 0, take: 400 }, test: { skip: 400, take: 200 } },
      { index: 2, train: { skip: 200, take: 400 }, test: { skip: 600, take: 200 } },
      { index: 3, train: { skip: 400, take: 400 }, test: { skip: 800, take: 200 } },
    ]);
  });

  it('anchors train windows at bar 0 when asked', () => {
    const p = planFolds(1000, { folds: 2, trainBars: 400, testBars: 300, anchored: true });
    expect(p.folds.map((f) => f.train)).toEqual([
      { skip: 0, take: 400 },
      { skip: 0, take: 700 },
    ]);
  });

  it('derives missing lengths from the bar count', () => {
    expect(planFolds(1000, { folds: 5 })).toMatchObject({ testBars: 125, trainBars: 375, stepBars: 125 });
    expect(planFolds(1000, { folds: 4, trainBars: 200 })).toMatchObject({ testBars: 200 });
    expect(planFolds(1000, { folds: 4, testBars: 100 })).toMatchObject({ trainBars: 600 });
  });

  it('says how many bars a plan needs when the data is short', () => {
    expect(() => planFolds(500, { folds: 3, trainBars: 400, testBars: 200 })).toThrowError(/need 1000 bars; the data has 500/);
    expect(() => planFolds(500, { folds: 0 })).toThrowError(/folds must be an integer >= 1/);
  });

  it('refuses windows that come out empty, with the numbers and never a negative one', () => {
    const message = (fn: () => unknown): string => {
      try {
        fn();
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('expected a throw');
    };
    const longTrain = message(() => planFolds(2880, { folds: 4, trainBars: 100_000 }));
    expect(longTrain).toBe('walk-forward: a train window of 100000 bars leaves 0 bars for 4 test window(s); the data has 2880 bars: use a shorter --train-bars or fewer --folds');
    const longTest = message(() => planFolds(2880, { folds: 4, testBars: 1000 }));
    expect(longTest).toMatch(/4 fold\(s\) of 1000 bars to test \(step 1000\) take 4000 bars, which leaves none to train on; the data has 2880 bars/);
    expect(message(() => planFolds(10, { folds: 1000 }))).toBe('walk-forward: 1000 fold(s) need at least 1003 bars (a train window of 3 bars and a test window of 1 per fold); the data has 10 bars');
    for (const m of [longTrain, longTest]) expect(m).not.toMatch(/-\d/);
  });

  it('refuses a train or test window not longer than the warmup, saying which and where the warmup comes from', () => {
    expect(() => planFolds(5760, { folds: 1000, minWindowBars: 41, minWindowSource: 'sma-crossover at fast=5 slow=40, the largest across the grid' })).toThrowError(
      "walk-forward: the train window of 15 bars and the test window of 5 bars are not longer than the strategy's warmup of 41 bars (sma-crossover at fast=5 slow=40, the largest across the grid)",
    );
    expect(() => planFolds(1000, { folds: 2, trainBars: 500, testBars: 41, minWindowBars: 41 })).toThrowError(/^walk-forward: the test window of 41 bars is not longer than the strategy's warmup of 41 bars: .*at least 42 bars/);
    expect(planFolds(1000, { folds: 2, trainBars: 500, testBars: 42, minWindowBars: 41 }).testBars).toBe(42);
  });

  it('counts the bars after the last test window that no fold uses', () => {
    expect(planFolds(1000, { folds: 3, trainBars: 400, testBars: 100 }).unusedBars).toBe(300);
    expect(planFolds(1000, { folds: 4, testBars: 100 }).unusedBars).toBe(0);
    expect(planFolds(1003, { folds: 5 }).unusedBars).toBe(3);
  });
});

