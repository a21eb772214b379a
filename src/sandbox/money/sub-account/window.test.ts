import { describe, expect, it } from 'vitest';
import { DAY_MS, inWindow, pageOf, resolveWindow } from './window.ts';

const NOW = 1_700_000_000_000;

describe('sub-account history windows (spec 4.9 rules 2-3)', () => {
  it('defaults to the last N days including now, and extends one-sided bounds by N days', () => {
    expect(resolveWindow(undefined, undefined, NOW, 30)).toEqual({ start: NOW - 30 * DAY_MS, end: NOW + 1 });
    expect(resolveWindow(5, undefined, NOW, 30)).toEqual({ start: 5, end: 5 + 30 * DAY_MS });
    expect(resolveWindow(undefined, NOW, NOW, 30)).toEqual({ start: NOW - 30 * DAY_MS, end: NOW });
    expect(resolveWindow(1, 2, NOW, 30)).toEqual({ start: 1, end: 2 });
  });

  it('includes startTime, excludes endTime, and pages from 1', () => {
    expect([inWindow({ start: 10, end: 20 }, 10), inWindow({ start: 10, end: 20 }, 20)]).toEqual([true, false]);
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
    expect(pageOf([1, 2, 3], 3, 2)).toEqual([]);
  });
});
