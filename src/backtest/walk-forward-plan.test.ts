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
});
